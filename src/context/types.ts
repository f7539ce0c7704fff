/**
 * Context specs and snapshots: what a spawn asks for and the frozen slice it gets.
 */
import type { AssistantEntry, CompactionEntry } from '../dialogue/entry.js';
import type { EntrySeq } from '../dialogue/types.js';

/** The canonical context values. `none` is also spelled `independent`, `all` also `fork`. */
export type ContextSpec = 'none' | 'all' | 'summary' | { readonly turns: number };

/** The mode family a spec belongs to, as metadata and policy name it. */
export type ContextMode = 'none' | 'all' | 'turns' | 'summary';

/** A spec as a stable string: `none`, `all`, `summary` or the decimal N. */
export type ContextLabel = string;

/** What a snapshot records about the dialogue it was taken from. */
export interface SnapshotSource {
  /** Raw log length of the parent's dialogue when the snapshot was taken. */
  readonly length: number;
  /** Zero-based index of the parent's active turn then, or null when none was active. */
  readonly activeTurn: number | null;
  /** Id of the triggering tool call that was excluded, if one was given. */
  readonly triggeringCallId: string | null;
}

/**
 * The immutable slice of the parent's effective dialogue a subagent is seeded with.
 * Deeply frozen; `entries` holds the parent's own entry objects, except `trimmed.entry`,
 * which is a frozen copy of the last assistant entry without its unrealized tool calls.
 */
export interface ContextSnapshot {
  readonly spec: ContextSpec;
  readonly mode: ContextMode;
  /** Entries the child is seeded with (empty for `none` and `summary`). */
  readonly entries: EntrySeq;
  /** For `summary`: the `all` selection the summarizer reads. Empty otherwise. */
  readonly summarizerInput: EntrySeq;
  /** The governing compaction placed in front, if any. */
  readonly summary: CompactionEntry | undefined;
  /** Set when the last assistant entry had calls without results and was trimmed. */
  readonly trimmed: { readonly original: AssistantEntry; readonly entry: AssistantEntry | null; readonly droppedCallIds: readonly string[] } | undefined;
  readonly source: SnapshotSource;
}
