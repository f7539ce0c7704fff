/**
 * Types of the agent machine: its input, context, events and the shapes its
 * runtime-provided actors take and return.
 *
 * The context is not plain JSON: `dialogue` is a {@link Dialogue} (an immutable log with
 * private storage) and the input holds frozen snapshot views, so XState's
 * `getPersistedSnapshot()` is not a durable format (serialized, the dialogue loses its
 * entries). Sessions are made durable by the journal instead (`RuntimeOptions.store`,
 * `resumeRuntime`), which restores actors from what it recorded.
 */
import type { Attachment, CompactionEntry, JsonValue, ToolCall, UserEntry, UserOrigin } from '../src/dialogue/entry.js';
import type { Dialogue } from '../src/dialogue/dialogue.js';
import type { ContextMode, ContextSnapshot } from '../src/context/types.js';
import type { Effort, JsonObject, SystemConfiguration } from '../src/request/types.js';
import type { OutputCheck } from '../src/request/output-schema.js';
import type { ModelResponse, SummaryResult } from '../src/request/reply.js';
import type { Usage } from '../src/request/usage.js';
import type { InheritedPrefix, PrefixReuse } from '../src/request/prefix-reuse.js';
import type { TaskFraming } from '../src/request/compose-task.js';

import type { Delivery, Lifetime } from '../src/request/lifetime.js';
import type { Budget } from '../src/policy/budget.js';

export type { Delivery, Lifetime };

/** Why an agent stopped. */
export type StopReason =
  | 'completed'
  | 'invalid_output'
  | 'closed'
  | 'max_steps'
  | 'model_error'
  | 'summary_failed'
  | 'hook_denied'
  | 'hook_failed'
  | 'internal_error'
  | 'budget_exceeded'
  | 'cancelled';

/** How an agent ended. */
export type AgentStatus = 'completed' | 'failed' | 'cancelled';

export type { TaskFraming };

/** The immutable input an agent actor is created with. */
export interface AgentInput {
  readonly path: string;
  readonly parentPath: string | null;
  /** This agent's own session id (every agent has one, the root included). */
  readonly sessionId: string;
  /** The session id of the whole tree: the runtime's `sessionId`. */
  readonly treeId: string;
  readonly role: string | undefined;
  /** The spawn's task as the model wrote it; null for the root. */
  readonly task: string | null;
  readonly snapshot: ContextSnapshot | undefined;
  readonly contextLabel: string;
  readonly contextMode: ContextMode;
  readonly framing: TaskFraming | undefined;
  readonly system: SystemConfiguration;
  readonly model: string;
  readonly effort: Effort | undefined;
  readonly lifetime: Lifetime;
  readonly delivery: Delivery;
  /**
   * The JSON Schema the agent's final answer must match (structured output), or undefined for
   * a text answer. One invalid answer gets a repair request; a second fails as `invalid_output`.
   */
  readonly output?: JsonObject | undefined;
  /**
   * Model requests allowed per turn. Reaching it ends the turn with `max_steps`: a continuable
   * agent (and the root) goes idle, a one-shot agent settles. Undefined: no cap (the runtime
   * always sets one; see `DEFAULT_MAX_STEPS`).
   */
  readonly maxSteps: number | undefined;
  /**
   * What it inherited (head and copied entries) and how much of that its parent's last request
   * held, measured at spawn; the root inherits nothing.
   */
  readonly prefix: InheritedPrefix;
  /**
   * The agent's own budget caps, carved from its parent's when it was reserved (absent: it
   * spends from its parent's). The runtime enforces them; the machine only sees a refused
   * request (`SampleOutput.budgetStop`).
   */
  readonly budget?: Budget | undefined;
  /** Whether the runtime has task hooks to run (skips the hook actor when not). */
  readonly hasTaskHooks: boolean;
  /** Start time (ms since epoch from the runtime's clock). */
  readonly startedAt: number;
}

/** An item waiting in an agent's inbox. */
export interface InboxItem {
  readonly text: string;
  readonly origin: UserOrigin;
  /** Files or snippets sent with the item (a person's prompt may carry them). */
  readonly attachments?: readonly Attachment[];
}

/**
 * Queued inbox items, newest first, as an immutable linked list: queueing is O(1) however
 * many items wait (an array copy per item would make a burst of messages quadratic).
 */
export type InboxQueue = { readonly item: InboxItem; readonly next: InboxQueue; readonly size: number } | null;

/** The agent's context. `dialogue` is large: inspection sanitizes it. */
export interface AgentContext {
  /** What the agent was created with (immutable). */
  readonly input: AgentInput;
  /** The hook-accepted task. */
  readonly acceptedTask: string | null;
  readonly background: string | undefined;
  readonly dialogue: Dialogue;
  readonly inbox: InboxQueue;
  readonly step: number;
  readonly usage: Usage;
  readonly lastText: string;
  readonly status: AgentStatus | undefined;
  readonly stopReason: StopReason | undefined;
  readonly error: string | undefined;
  readonly closeRequested: boolean;
  /** Number of turns completed; while a turn runs, also its zero-based number. */
  readonly turnsCompleted: number;
  /** What the last turn was opened by (for turn reports of continuable agents). */
  readonly turnOpenedBy: UserOrigin | undefined;
  /** The last validated structured answer (agents with an output schema). */
  readonly value: JsonValue | undefined;
  /** Whether this turn already had its one repair request. */
  readonly repairAsked: boolean;
  /**
   * Whether the agent made its first report (a finished turn or its result). A caller-delivered
   * agent's first report answers its parent's `Agent` call; later ones are inbox notices.
   */
  readonly firstReportMade: boolean;
  /**
   * The one result, taken on entering a final state (`takeResult`): the runtime's hook, the
   * parent's report and the actor's output are this same object. Undefined until then.
   */
  readonly result: AgentResult | undefined;
}

/**
 * A task hook's verdict, and the output of `runTaskHooks` (the verdict of all hooks together):
 * allow, optionally rewriting the task (absent `task`: the task as it was), or deny with a reason.
 *
 * @example
 * ```ts
 * const verdict: TaskHookDecision = task.includes('rm -rf') ? { allow: false, reason: 'destructive' } : { allow: true };
 * ```
 */
export type TaskHookDecision = { readonly allow: true; readonly task?: string } | { readonly allow: false; readonly reason: string };

/**
 * What a task hook sees: the input of the machine's `runTaskHooks`, and what `createRuntime`
 * gives each of its `taskHooks`. `context` is the spawn's context value as text (`none`,
 * `all`, `summary`, or a number of turns).
 */
export interface TaskHookInput {
  readonly path: string;
  readonly parentPath: string | null;
  readonly role: string | undefined;
  readonly task: string;
  readonly context: string;
}

/**
 * Input of the machine's `generateSummary` actor (and of `delegatingAgent`'s `summarize`). Not
 * the main entry's `SummaryInput`, which is what a `Summarizer` is asked with.
 */
export interface SummaryActorInput {
  readonly path: string;
  readonly task: string;
  readonly snapshot: ContextSnapshot | undefined;
}

/** Output of `generateSummary`: the summarizer's result (its usage counted as one request unless it says otherwise). */
export type { SummaryResult };

/** Input of `sampleModel`. */
export interface SampleInput {
  readonly path: string;
  readonly dialogue: Dialogue;
  readonly system: SystemConfiguration;
  readonly model: string;
  readonly effort: Effort | undefined;
  readonly turn: number;
  readonly step: number;
  /** The agent's output schema, if any (for adapters with a native structured mode). */
  readonly output?: JsonObject | undefined;
}

/** Output of `sampleModel`: the reply, and a compaction the runtime's policy wrote first. */
export interface SampleOutput {
  readonly response: ModelResponse;
  readonly compaction: CompactionEntry | undefined;
  /**
   * What this step cost when that is more than the reply as one request: retried attempts, or
   * the compaction written first. Default: `requestUsage(response.usage)`.
   */
  readonly usage?: Usage;
  /**
   * For an agent with an output schema, the check of a final reply (no tool calls): the parsed
   * value, or what is wrong with it. Absent: the reply is taken as text.
   */
  readonly output?: OutputCheck;
  /**
   * Set when the runtime did not send the request because it could cross a hard budget cap
   * (`reason` says which and by how much); `response` is then empty. The turn ends with stop
   * reason `budget_exceeded`: the root goes idle, a subagent settles.
   */
  readonly budgetStop?: { readonly reason: string };
  /**
   * A budget notice the runtime put into this request after the compaction, if any (a soft
   * limit was reached since the agent's last request, with `RuntimeOptions.budgetNotice`): the
   * dialogue gets it in the same place, so later requests and the journal hold it too.
   */
  readonly budgetNotice?: UserEntry;
}

/** One tool call of an agent, as a per-call tool executor gets it. */
export interface ToolInput {
  readonly path: string;
  readonly call: ToolCall;
}

/** Input of `runToolCalls`: every call of the last reply (one step). */
export interface ToolStepInput {
  readonly path: string;
  readonly calls: readonly ToolCall[];
}

/** A tool call's outcome as it enters the dialogue. */
export interface ToolOutcome {
  readonly content: string;
  readonly isError: boolean;
}

/**
 * What a per-call executor returns for an `Agent` call whose result is the subagent's first
 * report (caller delivery): the step writes nothing for the call, and the agent writes the
 * report as the call's result when the subagent's `subagent.report` arrives.
 */
export interface AnsweredBySubagent {
  /** The subagent's path. */
  readonly answeredBy: string;
}

/** What a per-call executor resolves with. */
export type ToolStepOutcome = ToolOutcome | AnsweredBySubagent;

/** A subagent's report to its parent: its one result, or a finished turn of a continuable one. */
export type SubagentReport = { readonly kind: 'result'; readonly result: AgentResult } | { readonly kind: 'turn'; readonly turn: TurnReport };

/**
 * The event a subagent's actor sends its parent's actor when it reports. `callId` names the
 * parent's `Agent` call the report answers (a caller-delivered subagent's first report);
 * otherwise, or when that call no longer waits, the report becomes an inbox notice.
 */
export interface SubagentReportEvent {
  readonly type: 'subagent.report';
  /** The subagent's path. */
  readonly from: string;
  readonly callId: string | null;
  readonly report: SubagentReport;
}

/** The typed event `send_message` travels as, from the sender's actor to the target's. */
export interface SendMessageEvent {
  readonly type: 'send_message';
  /** The sender's path. */
  readonly from: string;
  /** The target's path. */
  readonly to: string;
  readonly message: string;
}

/** Events an agent accepts. */
export type AgentEvent =
  | { readonly type: 'cancel'; readonly reason?: string }
  | { readonly type: 'close' }
  /** The host cancels the turn in progress of a continuable agent (or the root); it goes idle. */
  | { readonly type: 'interrupt'; readonly reason?: string }
  | { readonly type: 'inbox'; readonly item: InboxItem }
  /**
   * A message between agents. The runtime hands it to the sender's actor (`from`), which
   * relays it to the target's (`to`), so inspection shows who messaged whom; the target
   * takes it like an inbox item with a `message` origin.
   */
  | SendMessageEvent
  /**
   * Start a subagent with this (checked, frozen) input: the agent creates its actor with
   * itself as XState parent. `actorId` is the XState id to give it (default: a recycled
   * `subagent:<n>` of the agent's own).
   */
  | { readonly type: 'subagent.spawn'; readonly input: AgentInput; readonly actorId?: string }
  | SubagentReportEvent
  | { readonly type: 'tool.result'; readonly callId: string; readonly toolName: string; readonly content: string; readonly isError: boolean }
  | { readonly type: 'compaction.apply'; readonly entry: CompactionEntry; readonly basedOn: number; readonly usage?: Usage }
  | { readonly type: `xstate.error.actor.${string}`; readonly error: unknown };

/** What a subagent reports back exactly once: final text plus compact metadata. */
export interface AgentResult {
  readonly text: string;
  /** The structured output, parsed and validated, when the agent had an output schema. */
  readonly value?: JsonValue;
  readonly path: string;
  readonly role: string | undefined;
  readonly context: string;
  readonly contextMode: ContextMode;
  readonly status: AgentStatus;
  readonly stopReason: StopReason;
  readonly error: string | undefined;
  readonly elapsedMs: number;
  /** The agent's own session id. */
  readonly sessionId: string;
  /** The tree's session id (the runtime's `sessionId`), the same for every agent of a runtime. */
  readonly treeId: string;
  /** What this agent's own model work cost: replies, retries, background generation, compactions. */
  readonly usage: Usage;
  /**
   * `usage` plus every subagent's, recursively. The machine alone knows only itself (it
   * reports `usage` here); the runtime fills in the subtree.
   */
  readonly subtreeUsage: Usage;
  readonly turns: number;
  /**
   * What the first request shared with the parent's last request: bytes, estimated tokens,
   * the share of its input, and why it shares less than it inherited.
   */
  readonly prefix: PrefixReuse;
}

/**
 * How a turn ended: `completed`; `max_steps` (the step cap ended it with what existed);
 * `failed` (a model request failed after its retries); `cancelled` (the host interrupted it).
 */
export type TurnStatus = 'completed' | 'max_steps' | 'failed' | 'cancelled';

/** A continuable agent's (or the root's) report at the end of a turn; it is idle afterwards. */
export interface TurnReport {
  readonly path: string;
  readonly turn: number;
  /** The turn's last non-empty assistant text (what exists when a turn is cut short). */
  readonly text: string;
  readonly openedBy: UserOrigin | undefined;
  readonly status: TurnStatus;
  readonly stopReason: StopReason;
  /** Why a turn failed or was cut short. */
  readonly error?: string;
  /** The turn's structured answer, when the agent has an output schema. */
  readonly value?: JsonValue;
  /** The agent's own usage so far (all its turns). */
  readonly usage: Usage;
  /** `usage` plus its subagents' so far; filled in by the runtime (the machine reports `usage`). */
  readonly subtreeUsage: Usage;
}
