/**
 * Loading agent definitions from directories, with a documented precedence.
 */
import type { Dirent } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { AgentDefinition } from './definition.js';
import { DefinitionError } from './definition-error.js';
import { hasErrorCode } from './fs-error.js';
import { parseDefinition } from './parse-definition.js';

/** A directory of definition files and the scope label its definitions carry. */
export interface DefinitionDirectory {
  readonly path: string;
  /** A label such as `project`, `claude` or `user`, shown in warnings and host UIs. */
  readonly scope: string;
}

/** What a load found. */
export interface LoadedDefinitions {
  /** Definitions by name, the winning one for each name. */
  readonly definitions: Map<string, AgentDefinition>;
  /** Unknown keys, YAML warnings and shadowed definitions, each naming its file(s). */
  readonly warnings: string[];
}

/**
 * Reads every `*.md` file directly inside each directory (not recursively: subfolders
 * are left for notes and drafts, as Claude Code and Pi treat their agent folders).
 *
 * Precedence: **earlier directories win**. Hosts pass the most specific first, for example
 * project `.agents/`, then project `.claude/agents/`, then user-level `~/.agents/`; a
 * definition shadowed by an earlier one produces a warning naming both files. Within one
 * directory files are read in name order, and two files defining the same name are an
 * error, because nothing says which one the user meant. A directory listed twice (say,
 * the project is the home directory) is read once.
 *
 * A missing directory (or a path that is not a directory) is skipped silently, since most
 * projects have only some of these folders. Anything else fails loudly so users fix it:
 * an unreadable directory or file, or a malformed file, throws.
 *
 * @throws DefinitionError `read_failed`, `duplicate_name`, or any parse error.
 */
export async function loadDefinitions(dirs: readonly DefinitionDirectory[]): Promise<LoadedDefinitions> {
  const definitions = new Map<string, AgentDefinition>();
  const warnings: string[] = [];
  const seenDirs = new Set<string>();

  for (const dir of dirs) {
    const absolute = resolve(dir.path);
    if (seenDirs.has(absolute)) continue;
    seenDirs.add(absolute);

    const inThisDir = new Map<string, AgentDefinition>();
    for (const file of await listMarkdownFiles(dir.path)) {
      const text = await readText(file);
      const definition = parseDefinition(text, { file, scope: dir.scope, onWarning: (message) => warnings.push(message) });
      const sibling = inThisDir.get(definition.name);
      if (sibling !== undefined) {
        throw new DefinitionError({
          code: 'duplicate_name',
          file,
          key: 'name',
          detail: `agent "${definition.name}" is already defined by ${sibling.source.file} in the same directory`,
        });
      }
      inThisDir.set(definition.name, definition);

      const winner = definitions.get(definition.name);
      if (winner === undefined) {
        definitions.set(definition.name, definition);
      } else {
        warnings.push(
          `agent "${definition.name}" in ${file} (${dir.scope}) is shadowed by ${winner.source.file} (${winner.source.scope})`,
        );
      }
    }
  }
  return { definitions, warnings };
}

/** The `*.md` files directly in `dir`, sorted; `[]` when the directory does not exist. */
async function listMarkdownFiles(dir: string): Promise<string[]> {
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    if (hasErrorCode(error, 'ENOENT', 'ENOTDIR')) return [];
    throw readFailed(dir, error);
  }
  const files: string[] = [];
  for (const entry of entries) {
    if (!entry.name.endsWith('.md')) continue;
    const file = join(dir, entry.name);
    if (entry.isFile() || (entry.isSymbolicLink() && (await isFileBehindLink(file)))) files.push(file);
  }
  // readdir order is the file system's; sorting makes loads and warnings reproducible.
  return files.sort();
}

/** Follows a link; a dangling link is a broken file the user should hear about. */
async function isFileBehindLink(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile();
  } catch (error) {
    throw readFailed(file, error);
  }
}

async function readText(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    throw readFailed(file, error);
  }
}

function readFailed(file: string, error: unknown): DefinitionError {
  const reason = error instanceof Error ? error.message : String(error);
  return new DefinitionError({ code: 'read_failed', file, detail: `cannot read: ${reason}` }, { cause: error });
}
