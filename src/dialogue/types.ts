/**
 * The read-only shapes of dialogues and their views.
 */
import type { CompactionEntry, Entry, ToolCall } from './entry.js';

/**
 * An immutable, indexable sequence of entries. Views over a dialogue implement it without
 * copying: `length` and `at` are O(1) or O(log compactions); `toArray` is O(n).
 */
export interface EntrySeq extends Iterable<Entry> {
  readonly length: number;
  at(index: number): Entry | undefined;
  /** A fresh frozen array of the entries (O(n)); prefer iteration. */
  toArray(): readonly Entry[];
}

/** One turn: an opening user entry and everything done in answer to it. */
export interface TurnInfo {
  /** Zero-based turn number within the log. */
  readonly index: number;
  /** Log position of the turn's first entry. */
  readonly start: number;
  /** Log position one past the turn's last entry. */
  readonly end: number;
  /** Whether the turn ended (final assistant reply without calls, or a later turn opened). */
  readonly finished: boolean;
}

/** The read-only face of a dialogue (the append-only log of one agent). */
export interface DialogueView {
  /** Number of entries in the raw log (replaced ones included). */
  readonly length: number;
  /**
   * How many of the first entries came from the snapshot the agent was started with (a
   * subagent's seed; 0 for the root and for `context: "none"`). Entries at and after this
   * position are the agent's own: a fork's inherited assistant replies are not its turns.
   */
  readonly seedLength: number;
  /**
   * The raw log's entries, so `JSON.stringify(runtime.transcript(path))` gives them (not the
   * view's fields).
   *
   * @example
   * ```ts
   * const entries = JSON.parse(JSON.stringify(runtime.transcript('/root'))) as Entry[];
   * ```
   */
  toJSON(): readonly Entry[];
  at(position: number): Entry | undefined;
  /** The raw log, replaced entries included. */
  readonly log: EntrySeq;
  /** What the model sees: the latest compaction, then the entries after its anchor. */
  effective(): EntrySeq;
  /** The latest compaction, if any. */
  latestCompaction(): CompactionEntry | undefined;
  /** Tool calls of the last assistant entry that have no result in the log yet, in call order (O(calls)). */
  pendingCalls(): readonly ToolCall[];
  /** Whether the last assistant entry has a call without a result (O(1)). */
  hasPendingCalls(): boolean;
  /**
   * Whether `callId` is a call of the last assistant entry still waiting for its result (none
   * in the log, none arrived and held for call order) (O(1)).
   */
  isPendingCall(callId: string): boolean;
  /** The turn in progress (started, not finished), if any. */
  activeTurn(): TurnInfo | undefined;
  /** All turns of the raw log, oldest first (O(turns)). */
  turns(): readonly TurnInfo[];

  // Index queries (added for context selection, so a snapshot costs O(log n), not O(n)).

  /** Log position of the last assistant entry, or -1 when there is none. */
  lastAssistantPosition(): number;
  /**
   * Log position where the effective dialogue's entries (after the summary) start: the latest
   * compaction's resolved anchor, or 0 without compactions.
   */
  effectiveStart(): number;
  /**
   * Number of turns in the effective dialogue: the turns opened at or after
   * {@link effectiveStart}, plus one for a leading partial turn whose opener was compacted away.
   */
  effectiveTurnCount(): number;
  /**
   * Log position where the last `n` turns of the effective dialogue start; `effectiveStart()`
   * when `n` covers them all, `length` when `n < 1`.
   */
  recentTurnsStart(n: number): number;
  /** The non-compaction entries of log positions `[from, to)` (default: to the end), as a view. */
  contentRange(from: number, to?: number): EntrySeq;
}
