/**
 * Agent paths: `/root`, `/root/research`, `/root/research/tests`.
 */
import { TASK_NAME_PATTERN } from '../request/tool-schemas.js';

/** The root agent's path. */
export const ROOT_PATH = '/root';

/** Whether `name` is a valid task name (lowercase letters, digits, `-`, `_`). */
export function isValidTaskName(name: string): boolean {
  return TASK_NAME_PATTERN.test(name);
}

/** The path of a subagent `name` under `parent`. */
export function childPath(parent: string, name: string): string {
  return `${parent}/${name}`;
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
