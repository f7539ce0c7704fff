/**
 * What the viewer page is fed: one small, versioned event vocabulary for a session, whatever
 * it comes from (a live runtime, a JSON Lines journal, a `--record` trace). The page folds
 * these into the tree it draws, so scrubbing the timeline is folding a prefix of them.
 * Pure types: the page (a browser bundle) and the server share this file.
 */

/** The version of this vocabulary; a page refuses a feed of another one. */
export const VIEWER_FORMAT = 1;

/** Token counts (and the cost, when the session had prices) of some model work. */
export interface ViewerUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cacheReadTokens: number;
  readonly cacheWriteTokens: number;
  readonly requests: number;
  readonly cost?: number;
}

/** How much of its first request a subagent shared with its parent's, and why not more. */
export interface ViewerPrefix {
  readonly sharedBytes?: number;
  readonly sharedTokens?: number;
  readonly sharedRatio?: number;
  readonly inheritedBytes?: number;
  readonly inputBytes?: number;
  /** Why less was shared than was inherited (`turns_window`, `newer_entries`, ...). */
  readonly reasons: readonly string[];
}

/** One tool call an assistant entry asked for. */
export interface ViewerToolCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: unknown;
}

/** Where a user-role entry came from: the person, or another agent (by path). */
export interface ViewerOrigin {
  readonly kind: 'person' | 'task' | 'notice' | 'message' | 'background';
  readonly from?: string;
}

/** One entry of an agent's dialogue, as the transcript shows it. */
export type ViewerEntry =
  | { readonly kind: 'user'; readonly id: string; readonly text: string; readonly origin: ViewerOrigin }
  | { readonly kind: 'assistant'; readonly id: string; readonly text: string; readonly toolCalls: readonly ViewerToolCall[] }
  | { readonly kind: 'tool_result'; readonly id: string; readonly callId: string; readonly toolName: string; readonly content: string; readonly isError: boolean }
  | { readonly kind: 'compaction'; readonly id: string; readonly text: string };

/** An agent's one result. */
export interface ViewerResult {
  readonly status: string;
  readonly stopReason: string;
  readonly text: string;
  readonly error?: string;
  readonly elapsedMs?: number;
  readonly usage?: ViewerUsage;
  readonly subtreeUsage?: ViewerUsage;
  readonly prefix?: ViewerPrefix;
}

/** Fields every event has: its place in the feed and, when the source knows it, its time. */
interface Stamped {
  /** Zero-based position in the feed. */
  readonly seq: number;
  /** Milliseconds since the epoch, when the source records time (traces and live sessions do; journals do not). */
  readonly t?: number;
}

/** The feed's first event: which session, from where. */
export interface SessionStarted extends Stamped {
  readonly type: 'session';
  readonly format: number;
  readonly sessionId: string;
  readonly source: 'live' | 'journal' | 'trace';
  /** What people read as the session's name (a file name, or `live`). */
  readonly label: string;
}

/** An agent appeared: the root, or a subagent reserved under `parent`. */
export interface AgentAppeared extends Stamped {
  readonly type: 'agent';
  readonly path: string;
  readonly parent: string | null;
  readonly role?: string;
  /** The context value it was given (`none`, `all`, `2`, `summary`). */
  readonly context?: string;
  readonly delivery?: string;
  readonly lifetime?: string;
  readonly task?: string;
  /** Entries copied from the parent's dialogue that the feed does not repeat. */
  readonly inherited?: number;
  readonly prefix?: ViewerPrefix;
}

/** An agent's state changed (`running.working.sampling`, `settled`, ...). */
export interface StateChanged extends Stamped {
  readonly type: 'state';
  readonly path: string;
  readonly state: string;
}

/** Entries were appended to an agent's dialogue. */
export interface EntriesAppended extends Stamped {
  readonly type: 'entries';
  readonly path: string;
  readonly entries: readonly ViewerEntry[];
}

/** An agent's own usage is now `usage` (its total so far, not an increment). */
export interface UsageChanged extends Stamped {
  readonly type: 'usage';
  readonly path: string;
  readonly usage: ViewerUsage;
}

/** An agent reported its one result. */
export interface ResultReported extends Stamped {
  readonly type: 'result';
  readonly path: string;
  readonly result: ViewerResult;
}

/** Nothing follows: the session stopped (or the file ended). */
export interface SessionEnded extends Stamped {
  readonly type: 'ended';
  readonly reason: string;
}

/** Every event of a viewer feed, discriminated by `type`. */
export type ViewerEvent = SessionStarted | AgentAppeared | StateChanged | EntriesAppended | UsageChanged | ResultReported | SessionEnded;

/** A {@link ViewerEvent} before it has its place in a feed. */
export type UnstampedEvent = ViewerEvent extends infer E ? (E extends ViewerEvent ? Omit<E, 'seq'> : never) : never;
