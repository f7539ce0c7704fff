/**
 * Finding the project's trusted context file (`AGENTS.md`), which every subagent gets,
 * independent ones included.
 */
import { readFile, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { hasErrorCode } from './fs-error.js';

/** Where to look. */
export interface ProjectContextOptions {
  /** The directory to start from. */
  readonly cwd: string;
  /** File names to try in each directory, in order; default `['AGENTS.md']`. */
  readonly fileNames?: readonly string[];
  /**
   * Whether to look in parent directories too (default true). The search stops after a
   * directory containing `.git` (the repository root: files above it belong to other
   * projects) or at the file system root.
   */
  readonly searchParents?: boolean;
}

/** The context file found. */
export interface ProjectContext {
  /** Absolute path of the file. */
  readonly file: string;
  readonly text: string;
}

/**
 * The nearest project context file: directories from `cwd` upwards, and within a directory
 * the first of `fileNames` that exists. Returns undefined when none is found.
 *
 * @throws the file system error when a file exists but cannot be read.
 */
export async function loadProjectContext(options: ProjectContextOptions): Promise<ProjectContext | undefined> {
  const fileNames = options.fileNames ?? ['AGENTS.md'];
  let dir = resolve(options.cwd);
  for (;;) {
    for (const name of fileNames) {
      const file = join(dir, name);
      const text = await readIfFile(file);
      if (text !== undefined) return { file, text };
    }
    const parent = dirname(dir);
    if (options.searchParents === false || parent === dir || (await exists(join(dir, '.git')))) return undefined;
    dir = parent;
  }
}

/** The file's text, or undefined when there is no file there (a directory does not count). */
async function readIfFile(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if (hasErrorCode(error, 'ENOENT', 'EISDIR', 'ENOTDIR')) return undefined;
    throw error;
  }
}

/** Whether anything exists at `path`; `.git` may be a directory or, in worktrees, a file. */
async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}
