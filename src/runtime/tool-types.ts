/**
 * Host tools as the runtime runs them: the tool with its `execute`, what a call gets, and approvals.
 */
import type { ToolOutcome } from '../../machines/agent.types.js';
import type { HostTool } from '../request/host-tool.js';
import type { PermissionMatcher } from '../policy/permission-pattern.js';

/** What a host tool's `execute` gets besides its validated arguments. */
export interface ToolExecutionContext {
  /** The calling agent's path. */
  readonly path: string;
  /** Aborts when the calling agent is cancelled. */
  readonly signal: AbortSignal;
  readonly callId: string;
  /** Directories outside the workspace the host granted the calling agent at its spawn (none for the root). */
  readonly externalDirectories: readonly string[];
  /** Whether the host let the calling agent load the project's extensions (true for the root). */
  readonly inheritsExtensions: boolean;
}

/** Whether a host tool's call needs approval: always, or by a predicate over its arguments. */
export type NeedsApproval<T = unknown> =
  | boolean
  // Method syntax keeps the predicate's argument bivariant, like `execute`'s, so a typed tool
  // is still a RuntimeTool<unknown>.
  | { check(args: T, context: { readonly path: string }): boolean | Promise<boolean> }['check'];

/** What the host's approval callback is asked. */
export interface ApprovalRequest {
  /** The agent making the call (a subagent's own path for its calls). */
  readonly path: string;
  readonly tool: string;
  /** The validated arguments. */
  readonly args: unknown;
  readonly callId: string;
}

/** The host's answer: approve or deny, optionally with a reason the model reads. */
export type ApprovalDecision = boolean | { readonly approved: boolean; readonly reason?: string };

/**
 * Asks the host to approve one tool call. `signal` aborts when the calling agent or its turn
 * is cancelled; nothing runs after that.
 */
export type ApprovalCallback = (request: ApprovalRequest, signal: AbortSignal) => ApprovalDecision | Promise<ApprovalDecision>;

/** A host tool's result: text for the model, flagged when it is an error. */
export type ToolOutput = string | { readonly content: string; readonly isError?: boolean };

/**
 * A host tool with its implementation: the host's schema (any Standard Schema or a JSON
 * Schema), its canonical JSON Schema, model-actionable argument errors, plus `execute`. Build one with
 * {@link defineRuntimeTool}.
 */
export interface RuntimeTool<T = unknown> extends HostTool<T> {
  /** Calls that need the host's approval (`RuntimeOptions.approve`) before they run. */
  readonly needsApproval?: NeedsApproval<T>;
  execute(args: T, context: ToolExecutionContext): ToolOutput | Promise<ToolOutput>;
  /**
   * What `Tool(pattern)` entries in a role's tool lists are matched on: the command of a
   * shell tool, the path(s) of a file tool. Without it, a pattern for this tool cannot be
   * checked, so a role that names the tool only with a pattern does not get it.
   */
  readonly permission?: PermissionMatcher<T>;
}

/** A tool call's outcome, as it enters the calling agent's dialogue (the machine's `ToolOutcome`). */
export type ToolCallOutcome = ToolOutcome;
