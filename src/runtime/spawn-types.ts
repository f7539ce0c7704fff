/**
 * Spawns as hosts ask for them and get them back: requests, the host's per-spawn policy, handles.
 */
import type { AgentResult, Delivery, Lifetime } from '../../machines/agent.types.js';
import type { ContextSpec } from '../context/types.js';
import type { Attachment } from '../dialogue/entry.js';
import type { Budget } from '../policy/budget.js';
import type { Effort, JsonObject } from '../request/types.js';

/** What the host decides per spawn, beyond what the model asked for. */
export interface SpawnPolicyInput {
  readonly parentPath: string;
  readonly taskName: string;
  readonly role: string | undefined;
  readonly context: ContextSpec;
}

/** The host's choices for one spawn. */
export interface SpawnPolicyDecision {
  readonly delivery?: Delivery;
  readonly lifetime?: Lifetime;
  /** Narrows the subagent's tools further than its role does (allow list, then deny list). */
  readonly tools?: { readonly allow?: readonly string[]; readonly deny?: readonly string[] };
  /** Directories outside the workspace this subagent's tools may use (asks for confirmation). */
  readonly externalDirectories?: readonly string[];
  /** Whether the subagent loads the project's extensions (asks for confirmation). */
  readonly inheritsExtensions?: boolean;
  /**
   * JSON Schema the subagent's final answer must match (structured output); replaces the
   * role's `output`. The result then carries the parsed `value`, and the parent model sees it
   * as JSON. An invalid schema fails the spawn with an `OutputSchemaError`.
   */
  readonly output?: JsonObject;
  /**
   * The subagent's budget caps; replaces its role's. Carved from its parent's remaining budget
   * when it is reserved (a spawn it does not fit is refused with a `budget` error).
   */
  readonly budget?: Budget;
}

/** A spawn as the model (or host) asks for it, before validation. */
export interface SpawnRequest {
  readonly task_name: string;
  readonly message: string;
  readonly role?: string;
  readonly context?: string | number;
  readonly model?: string;
  readonly effort?: Effort;
  readonly attachments?: readonly Attachment[];
  /** Smaller caps than the role's (or the host's) for this subagent; never larger. */
  readonly budget?: Budget;
}

/** What a started spawn gives its caller. */
export interface SpawnHandle {
  readonly path: string;
  readonly delivery: Delivery;
  readonly lifetime: Lifetime;
  /** Resolves with the result (one-shot) or first turn report (continuable) for caller delivery. */
  readonly firstReport: Promise<FirstReportValue>;
  /** Resolves with the agent's one result, whatever ends it. */
  readonly result: Promise<AgentResult>;
}

/** What resolves a caller-delivery spawn. */
export type FirstReportValue = { readonly kind: 'result'; readonly result: AgentResult } | { readonly kind: 'turn'; readonly text: string; readonly turn: number };
