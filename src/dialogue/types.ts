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
  at(position: number): Entry | undefined;
  /** The raw log, replaced entries included. */
  readonly log: EntrySeq;
  /** What the model sees: the latest compaction, then the entries after its anchor. */
  effective(): EntrySeq;
  /** The latest compaction, if any. */
  latestCompaction(): CompactionEntry | undefined;
  /** Tool calls of the last assistant entry that have no result yet. */
  pendingCalls(): readonly ToolCall[];
  /** The turn in progress (started, not finished), if any. */
  activeTurn(): TurnInfo | undefined;
  /** All turns of the raw log, oldest first (O(turns)). */
  turns(): readonly TurnInfo[];
}
