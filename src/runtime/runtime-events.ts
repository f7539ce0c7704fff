/**
 * The events `runtime.on` delivers.
 */
import type { AgentResult, TurnReport } from '../../machines/agent.types.js';
import type { StoreError } from '../store/types.js';
import type { BudgetWarning } from './budget-ledger.js';
import type { ApprovalAnswer, ApprovalRequest } from './tool-types.js';

/** Events the runtime emits to hosts. */
export interface RuntimeEvents {
  /** An agent settled or was cancelled (exactly once per agent). */
  result: AgentResult;
  /** The root or a continuable agent finished a turn (completed, max_steps, failed or cancelled). */
  turn: TurnReport;
  /** The tree changed (spawn, state change, release); for live views. */
  change: { readonly path: string; readonly state: string };
  /** The session's store failed: it takes no new work (resume it from what the store kept). */
  halted: { readonly error: StoreError };
  /** A model request failed transiently and will be tried again after `delayMs`. */
  retry: RetryEvent;
  /** A budget cap reached its soft limit (default 80%); once per cap. */
  'budget-warning': BudgetWarning;
  /** A call asks for the host's approval (again after a resume, when it was still pending). */
  'approval-requested': ApprovalRequest;
  /** An approval request was answered or withdrawn (exactly once per request). */
  'approval-answered': ApprovalAnswer;
}

/**
 * A model request that failed transiently (HTTP 429, 5xx, a network error, a timeout) and
 * will be tried again.
 *
 * @example
 * ```ts
 * runtime.on('retry', (e) => console.warn(`${e.path}: attempt ${e.attempt} failed (${e.status ?? e.error}); retrying in ${e.delayMs} ms`));
 * ```
 */
export interface RetryEvent {
  /** The agent whose request failed (a summary or compaction counts for the agent it is for). */
  readonly path: string;
  /** The attempt that failed, from 1; the next one is `attempt + 1`. */
  readonly attempt: number;
  /** The wait before the next attempt: the backoff, or the provider's `retry-after`. */
  readonly delayMs: number;
  /** What went wrong, as text. */
  readonly error: string;
  /** The HTTP status, when the error carried one. */
  readonly status?: number;
}
