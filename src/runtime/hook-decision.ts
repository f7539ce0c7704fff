/**
 * What a task hook returned, read strictly: a hook is host code, and a mistaken verdict must
 * never let a spawn through. Only `allow: true` (the boolean) allows; `allow: false` denies;
 * anything else (a string `"false"`, `1`, a missing field, a non-object) fails the spawn as
 * `hook_failed`. A rewritten task must be a non-empty string. A denial's reason is used only
 * when it is text, clipped; any other reason is replaced, never copied into the result.
 */
import type { TaskHookDecision } from '../../machines/agent.types.js';
import { MAX_ERROR_TEXT } from '../dialogue/error-text.js';

/** A task hook returned something that is not a decision. */
export class TaskHookError extends Error {
  override readonly name = 'TaskHookError';
  readonly code = 'invalid_hook_decision';
}

/** A short, safe description of a value of unknown type (never its contents beyond a clipped string). */
function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  switch (typeof value) {
    case 'string':
      return value.length > 40 ? `the string ${JSON.stringify(value.slice(0, 40))}…` : `the string ${JSON.stringify(value)}`;
    case 'number':
    case 'bigint':
    case 'boolean':
      return `the ${typeof value} ${String(value)}`;
    case 'undefined':
      return 'undefined';
    case 'object':
      return 'an object';
    default:
      return `a ${typeof value}`;
  }
}

/**
 * The verdict of hook number `index` (1-based) as a {@link TaskHookDecision}, read once.
 *
 * @throws TaskHookError when `raw` is not a decision: the spawn fails as `hook_failed` with
 *   the message, which names the hook and what was wrong.
 *
 * @example
 * ```ts
 * checkHookDecision({ allow: false, reason: 'frozen' }, 1); // { allow: false, reason: 'frozen' }
 * checkHookDecision({ allow: 'false' }, 1);
 * // throws: task hook 1 returned an invalid decision: allow must be true or false, got the string "false"
 * ```
 */
export function checkHookDecision(raw: unknown, index: number): TaskHookDecision {
  const invalid = (what: string): TaskHookError => new TaskHookError(`task hook ${index} returned an invalid decision: ${what}`);
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw invalid(`expected { allow: true } or { allow: false, reason }, got ${kindOf(raw)}`);
  }
  const { allow, task, reason } = raw as { allow?: unknown; task?: unknown; reason?: unknown };
  if (allow === false) return { allow: false, reason: reasonOf(reason, index) };
  if (allow !== true) throw invalid(`allow must be true or false, got ${kindOf(allow)}`);
  if (task === undefined) return { allow: true };
  if (typeof task !== 'string') throw invalid(`task must be a string, got ${kindOf(task)}`);
  if (task.trim() === '') throw invalid('task must not be empty');
  return { allow: true, task };
}

/** A denial's reason as the result's error: its text (clipped), or a fixed sentence when it is not text. */
function reasonOf(reason: unknown, index: number): string {
  if (typeof reason !== 'string') return `denied by task hook ${index} (its reason was ${reason === undefined ? 'missing' : `${kindOf(reason)}, not text`})`;
  if (reason.trim() === '') return `denied by task hook ${index} (no reason given)`;
  return reason.length > MAX_ERROR_TEXT ? `${reason.slice(0, MAX_ERROR_TEXT)}… (truncated)` : reason;
}
