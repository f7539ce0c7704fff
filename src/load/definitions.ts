/**
 * Loading agent definitions from directories, with a documented precedence.
 */
import type { Dirent } from 'node:fs';
import { readdir, readFile, realpath, stat } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve } from 'node:path';
import type { AgentDefinition } from '../policy/definition.js';
import { DefinitionError } from '../policy/definition-error.js';
import { hasErrorCode } from './fs-error.js';
import { parseDefinition } from '../policy/parse-definition.js';

/** A directory of definition files and the scope label its definitions carry. */
export interface DefinitionDirectory {
  readonly path: string;
  /** A label such as `project`, `claude` or `user`, shown in warnings and host UIs. */
  readonly scope: string;
}

/** Options of {@link loadDefinitions}. */
export interface LoadDefinitionsOptions {
  /**
   * Make any error fatal: the first file that cannot be read or parsed (or a duplicate
   * name) throws its {@link DefinitionError}. Off by default, so one bad file never hides
   * the good ones.
   */
  readonly strict?: boolean;
  /**
   * Follow a symbolic link whose target lies outside its agents folder. Default `false`:
   * such a link is refused (`link_outside`), so a folder cannot pull in files from
   * elsewhere on the machine. Links that stay inside the folder are always followed.
   */
  readonly followLinksOutside?: boolean;
}

/** What a load found. */
export interface LoadedDefinitions {
  /** Definitions by name, the winning one for each name. */
  readonly definitions: Map<string, AgentDefinition>;
  /** Unknown keys, YAML warnings and shadowed definitions, each naming its file(s). */
  readonly warnings: string[];
  /**
   * Files that were refused, each a {@link DefinitionError} with `file`, `line`, `key` and
   * `message`, in the order they were read. Their definitions are not in `definitions`.
   */
  readonly errors: DefinitionError[];
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
 * projects have only some of these folders. Anything else is an error the user should fix:
 * an unreadable directory or file, a malformed file, or a second file of one directory with
 * the same name (the first, in name order, is kept). Errors are collected in `errors` and
 * the load goes on with the next file, so one bad file never hides the good ones; with
 * `strict: true` the first error throws instead.
 *
 * @example
 * ```ts
 * const { definitions, warnings, errors } = await loadDefinitions([{ path: '.claude/agents', scope: 'project' }]);
 * for (const error of errors) console.error(error.message); // file:line: key "k": what is wrong
 * ```
 *
 * A symbolic link to a file outside the folder is refused (`link_outside`) unless
 * `followLinksOutside` is set.
 *
 * @throws DefinitionError only with `strict`: `read_failed`, `duplicate_name`, `link_outside`, or any parse error.
 */
export async function loadDefinitions(dirs: readonly DefinitionDirectory[], options: LoadDefinitionsOptions = {}): Promise<LoadedDefinitions> {
  const definitions = new Map<string, AgentDefinition>();
  const warnings: string[] = [];
  const errors: DefinitionError[] = [];
  const seenDirs = new Set<string>();
  const refuse = (error: unknown): void => {
    if (options.strict === true || !(error instanceof DefinitionError)) throw error;
    errors.push(error);
  };

  for (const dir of dirs) {
    const absolute = resolve(dir.path);
    if (seenDirs.has(absolute)) continue;
    seenDirs.add(absolute);

    const inThisDir = new Map<string, AgentDefinition>();
    let files: string[];
    try {
      files = await listMarkdownFiles(dir.path, refuse, options.followLinksOutside === true);
    } catch (error) {
      refuse(error);
      continue;
    }
    for (const file of files) {
      let definition: AgentDefinition;
      try {
        definition = await readDefinition(file, dir.scope, warnings);
      } catch (error) {
        refuse(error);
        continue;
      }
      const sibling = inThisDir.get(definition.name);
      if (sibling !== undefined) {
        refuse(
          new DefinitionError({
            code: 'duplicate_name',
            file,
            key: 'name',
            detail: `agent "${definition.name}" is already defined by ${sibling.source.file} in the same directory`,
          }),
        );
        continue;
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
  return { definitions, warnings, errors };
}

/** Reads and parses one file; its warnings go to `warnings` only when it parses. */
async function readDefinition(file: string, scope: string, warnings: string[]): Promise<AgentDefinition> {
  const own: string[] = [];
  const definition = parseDefinition(await readText(file), { file, scope, onWarning: (message) => own.push(message) });
  warnings.push(...own);
  return definition;
}

/**
 * The `*.md` files directly in `dir`, sorted; `[]` when the directory does not exist. An
 * entry that cannot be followed goes to `onEntryError`, and the listing goes on.
 */
async function listMarkdownFiles(dir: string, onEntryError: (error: unknown) => void, followLinksOutside: boolean): Promise<string[]> {
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
    try {
      if (entry.isFile()) files.push(file);
      else if (entry.isSymbolicLink() && (await isFileBehindLink(file))) {
        if (!followLinksOutside) await refuseLinkOutside(dir, file);
        files.push(file);
      }
    } catch (error) {
      onEntryError(error);
    }
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

/** Throws `link_outside` when the link's real target is not inside the folder's real path. */
async function refuseLinkOutside(dir: string, file: string): Promise<void> {
  let folder: string;
  let target: string;
  try {
    [folder, target] = await Promise.all([realpath(dir), realpath(file)]);
  } catch (error) {
    throw readFailed(file, error);
  }
  const inside = relative(folder, target);
  if (inside === '' || inside.startsWith('..') || isAbsolute(inside)) {
    throw new DefinitionError({
      code: 'link_outside',
      file,
      detail: `is a symbolic link to ${target}, outside its agents folder; move the file into the folder or load with followLinksOutside`,
    });
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
