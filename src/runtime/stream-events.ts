/**
 * What `runtime.events()` yields: one discriminated union (on `type`) for the whole agent
 * tree. Every event names the agent it concerns in `path`.
 */
import type { AgentResult, Delivery, Lifetime, TurnReport } from '../../machines/agent.types.js';
import type { JsonValue } from '../dialogue/entry.js';
import type { Usage } from '../model/adapter.js';
import type { StoreError } from '../store/types.js';
import type { ApprovalAnswer, ApprovalRequest } from './tool-types.js';

/** A piece of a model reply as it is produced (see `SampleContext.onDelta`). */
export interface TextDeltaEvent {
  readonly type: 'text-delta';
  readonly path: string;
  /** Zero-based turn and model request (step) of the agent the reply belongs to. */
  readonly turn: number;
  readonly step: number;
  readonly text: string;
}

/** A piece of a reply's reasoning, from adapters that stream it. */
export interface ReasoningDeltaEvent {
  readonly type: 'reasoning-delta';
  readonly path: string;
  readonly turn: number;
  readonly step: number;
  readonly text: string;
}

/** The agent at `path` started a tool call (arguments as the model gave them). */
export interface ToolCallStartedEvent {
  readonly type: 'tool-call-started';
  readonly path: string;
  readonly callId: string;
  readonly toolName: string;
  readonly args: JsonValue;
}

/**
 * A tool call finished, once per started call: with its outcome as the model reads it, or
 * `cancelled` when the call was stopped with its step (then the outcome is an error).
 */
export interface ToolCallFinishedEvent {
  readonly type: 'tool-call-finished';
  readonly path: string;
  readonly callId: string;
  readonly toolName: string;
  readonly content: string;
  readonly isError: boolean;
  readonly cancelled: boolean;
}

/** A subagent was started under `parentPath` (before its first state change). */
export interface SubagentSpawnedEvent {
  readonly type: 'subagent-spawned';
  readonly path: string;
  readonly parentPath: string;
  readonly role: string | undefined;
  /** The context value it was given (`none`, `all`, `3`, `summary`). */
  readonly context: string;
  readonly delivery: Delivery;
  readonly lifetime: Lifetime;
  readonly task: string | null;
}

/** A subagent settled or was cancelled: its one result. */
export interface SubagentSettledEvent {
  readonly type: 'subagent-settled';
  readonly path: string;
  readonly result: AgentResult;
}

/** The root finished (the session was stopped): its result. Nothing follows it. */
export interface SessionEndedEvent {
  readonly type: 'session-ended';
  readonly path: string;
  readonly result: AgentResult;
}

/** An agent's state changed (`reserved.runningHooks`, `running.working.sampling`, `settled`, ...). */
export interface StateChangedEvent {
  readonly type: 'state-changed';
  readonly path: string;
  readonly state: string;
}

/** An agent's own usage grew (a reply, a retry, a summary); `subtreeUsage` includes its subagents'. */
export interface UsageUpdatedEvent {
  readonly type: 'usage-updated';
  readonly path: string;
  readonly usage: Usage;
  readonly subtreeUsage: Usage;
  /** The session's total at this moment. */
  readonly sessionUsage: Usage;
}

/** The root or a continuable agent finished a turn. */
export interface TurnEndedEvent {
  readonly type: 'turn-ended';
  readonly path: string;
  readonly report: TurnReport;
}

/** A failed model request of the agent at `path` will be tried again after `delayMs`. */
export interface RetryStreamEvent {
  readonly type: 'retry';
  readonly path: string;
  /** The attempt that failed (1 for the first request). */
  readonly attempt: number;
  readonly delayMs: number;
  readonly error: string;
  /** The provider's HTTP status, when there was one. */
  readonly status?: number;
}

/**
 * A budget cap reached its soft limit: `path` is the agent whose cap it is, `by` the agent
 * whose spending reached it.
 */
export interface BudgetWarningEvent {
  readonly type: 'budget-warning';
  readonly path: string;
  readonly by: string;
  readonly dimension: 'tokens' | 'costUsd' | 'wallMs' | 'steps' | 'spawns';
  readonly limit: number;
  readonly used: number;
  readonly remaining: number;
}

/** The session's store failed and the session stopped taking work. Nothing follows it. */
export interface HaltedEvent {
  readonly type: 'halted';
  readonly path: string;
  readonly error: StoreError;
}

/**
 * The iterator fell `dropped` events behind its buffer's bound: that many of the oldest
 * unread events were dropped, just before this one. See `EventsOptions.bufferSize`.
 */
export interface LaggedEvent {
  readonly type: 'lagged';
  /** The filter's path (the root's for the whole tree). */
  readonly path: string;
  readonly dropped: number;
}

/**
 * Every event `runtime.events()` yields, discriminated by `type`.
 *
 * @example
 * ```ts
 * for await (const event of runtime.events()) {
 *   if (event.type === 'text-delta') process.stdout.write(event.text);
 *   else if (event.type === 'subagent-settled') console.log(event.path, event.result.status);
 * }
 * ```
 */
/** A call asks for the host's approval (`runtime.answerApproval` answers it). */
export interface ApprovalRequestedEvent {
  readonly type: 'approval-requested';
  /** The agent making the call. */
  readonly path: string;
  readonly request: ApprovalRequest;
}

/** An approval request was answered or withdrawn, once per request. */
export interface ApprovalAnsweredEvent {
  readonly type: 'approval-answered';
  readonly path: string;
  readonly answer: ApprovalAnswer;
}

export type RuntimeStreamEvent =
  | TextDeltaEvent
  | ReasoningDeltaEvent
  | ToolCallStartedEvent
  | ToolCallFinishedEvent
  | SubagentSpawnedEvent
  | SubagentSettledEvent
  | SessionEndedEvent
  | StateChangedEvent
  | UsageUpdatedEvent
  | TurnEndedEvent
  | RetryStreamEvent
  | BudgetWarningEvent
  | ApprovalRequestedEvent
  | ApprovalAnsweredEvent
  | HaltedEvent
  | LaggedEvent;

/** Every `type` of {@link RuntimeStreamEvent}. */
export type RuntimeStreamEventType = RuntimeStreamEvent['type'];

/** Options of `runtime.events()`. */
export interface EventsOptions {
  /**
   * Only events of this agent (default: the whole tree). The path need not exist yet: events
   * of an agent spawned later at this path are yielded when they happen.
   */
  readonly path?: string;
  /** With `path`: the agent's subagents' events too, at any depth (default false). */
  readonly subtree?: boolean;
  /** Aborting it ends the iteration (the loop exits; nothing is thrown) and unsubscribes. */
  readonly signal?: AbortSignal;
  /**
   * Unread events kept for this iterator (default {@link DEFAULT_EVENT_BUFFER}). When a
   * consumer falls further behind, the oldest are dropped and a `lagged` event says how many.
   */
  readonly bufferSize?: number;
}

/** Unread events an iterator keeps by default before it drops the oldest. */
export const DEFAULT_EVENT_BUFFER = 10_000;
