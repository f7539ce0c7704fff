/**
 * Task hooks: what a host runs once per spawn, before the subagent starts.
 */
import type { TaskHookDecision, TaskHookInput } from '../../machines/agent.types.js';

export type { TaskHookDecision, TaskHookInput };



/**
 * Runs once per spawn, before any summary is generated. Hooks run in order; each sees the
 * task as the previous one left it. The verdict is read strictly (fail closed): only the
 * boolean `allow: true` lets the spawn go on, and a rewritten `task` must be a non-empty
 * string. Throwing, or returning anything else (`{ allow: "false" }`, `1`, a numeric task),
 * cancels the spawn as `hook_failed`, naming the hook; `allow: false` cancels it as
 * `hook_denied` with the reason when the reason is text.
 *
 * @example
 * ```ts
 * const noDeploys: TaskHook = ({ task }) => (/deploy/i.test(task) ? { allow: false, reason: 'no deploys today' } : { allow: true });
 * ```
 */
export type TaskHook = (input: TaskHookInput, signal: AbortSignal) => TaskHookDecision | Promise<TaskHookDecision>;
