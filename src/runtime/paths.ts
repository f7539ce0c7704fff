/**
 * Agent paths: `/root`, `/root/research`, `/root/research/tests`.
 */

/** The root agent's path. */
export const ROOT_PATH = '/root';

const NAME = /^[a-z0-9_-]{1,64}$/;

/** Whether `name` is a valid task name (lowercase letters, digits, `-`, `_`). */
export function isValidTaskName(name: string): boolean {
  return NAME.test(name);
}

/** The path of a subagent `name` under `parent`. */
export function childPath(parent: string, name: string): string {
  return `${parent}/${name}`;
}

/** The parent of a path, or null for the root. */
export function parentOf(path: string): string | null {
  const i = path.lastIndexOf('/');
  return i <= 0 ? null : path.slice(0, i);
}

/** Depth below the root: `/root` is 0, `/root/a` is 1. */
export function depthOf(path: string): number {
  let depth = -1;
  for (let i = 0; i < path.length; i++) if (path.charCodeAt(i) === 47) depth++;
  return depth;
}

/** Whether `path` is `ancestor` or lies below it. */
export function isWithin(path: string, ancestor: string): boolean {
  return path === ancestor || path.startsWith(`${ancestor}/`);
}
