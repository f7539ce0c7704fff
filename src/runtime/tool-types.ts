/**
 * Host tools as the runtime runs them: the tool with its `execute`, what a call gets, and approvals.
 */
import type { ConfirmationDecision } from '../policy/confirmation.js';
import type { AccessCapability } from '../policy/capabilities.js';
import type { Budget, BudgetDimension } from '../policy/budget.js';

export type { NeedsApproval, RuntimeTool, ToolExecutionContext, ToolOutput } from '../policy/runtime-tool.js';

/**
 * The rule that made a call ask for approval (the denial the model reads names it):
 * - `needsApproval`: the tool declares it needs approval (always, or by its predicate);
 * - `permission`: the call matches one of the host's `approvalRules.patterns` (e.g. `Bash(git push *)`);
 * - `capability`: the tool exercises a capability in `approvalRules.capabilities` (e.g. `shell`);
 * - `budget`: an `Agent` call asks for a subagent budget above `approvalRules.budgetAbove`.
 */
export type ApprovalRule =
  | { readonly kind: 'needsApproval' }
  | { readonly kind: 'permission'; readonly pattern: string }
  | { readonly kind: 'capability'; readonly capability: AccessCapability }
  | { readonly kind: 'budget'; readonly dimension: BudgetDimension; readonly asked: number; readonly threshold: number };

/**
 * One call waiting for the host's approval: who asks (path, role), what exactly (tool,
 * arguments, call id, turn) and why (the rule). `id` is stable across a resume, and `seq`
 * orders the session's requests (the order `runtime.approvals()` lists them in).
 */
export interface ApprovalRequest {
  /** Answers it with `runtime.answerApproval(id, decision)`: `${path}#${callId}`. */
  readonly id: string;
  /** Its place in the order the session's requests were made (from 1; kept across a resume). */
  readonly seq: number;
  /** The agent making the call (a subagent's own path for its calls). */
  readonly path: string;
  /** The role the agent runs under, if any. */
  readonly role: string | undefined;
  readonly toolName: string;
  /** The validated arguments. */
  readonly args: unknown;
  readonly rule: ApprovalRule;
  readonly callId: string;
  /** The calling agent's turn (zero-based). */
  readonly turn: number;
}

/**
 * The host's answer: approve or deny, optionally with a reason the model reads. The same
 * type as a spawn's `ConfirmationDecision`: `true`, `false` or `{ approved, reason? }`.
 */
export type ApprovalDecision = ConfirmationDecision;

/**
 * Asks the host to approve one tool call. `signal` aborts when the calling agent or its turn
 * is cancelled (the request is withdrawn); nothing runs after that.
 */
export type ApprovalCallback = (request: ApprovalRequest, signal: AbortSignal) => ApprovalDecision | Promise<ApprovalDecision>;

/** How an approval request ended, as `approval-answered` reports it. */
export interface ApprovalAnswer {
  readonly id: string;
  readonly path: string;
  readonly callId: string;
  readonly approved: boolean;
  readonly reason?: string;
  /**
   * Who answered: the `approve` callback, the host through `answerApproval`, the journal
   * (answered before a resume), or `withdrawn` (its agent or turn was cancelled first).
   */
  readonly by: 'callback' | 'host' | 'journal' | 'withdrawn';
}

/**
 * Calls that ask for approval besides those of tools that declare `needsApproval`. The first
 * rule that matches a call asks (one request per call).
 *
 * @example
 * ```ts
 * createRuntime({ model, tools, approve: 'queue', approvalRules: { patterns: ['Bash(git push *)'], capabilities: ['write'], budgetAbove: { tokens: 100_000 } } });
 * ```
 */
export interface ApprovalRules {
  /** Tool entries in the tool-list syntax (`deploy`, `Bash(rm *)`): a call they match asks. */
  readonly patterns?: readonly string[];
  /** A call of a host tool exercising one of these capabilities asks. */
  readonly capabilities?: readonly AccessCapability[];
  /** An `Agent` call whose subagent would get more than this in some dimension asks. */
  readonly budgetAbove?: Budget;
}

