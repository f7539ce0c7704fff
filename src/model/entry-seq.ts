/**
 * A minimal {@link EntrySeq} over an array, for requests the model layer builds itself
 * (summarization). Kept here rather than in `dialogue/` so this folder depends on the
 * dialogue layer's types only.
 */
import type { Entry } from '../dialogue/entry.js';
import type { EntrySeq } from '../dialogue/types.js';

/** Wraps a frozen copy of `entries` as an {@link EntrySeq}. */
export function entrySeq(entries: readonly Entry[]): EntrySeq {
  const items = Object.freeze([...entries]);
  return Object.freeze({
    length: items.length,
    at: (index: number): Entry | undefined => items[index],
    toArray: (): readonly Entry[] => Object.freeze([...items]),
    [Symbol.iterator]: (): Iterator<Entry> => items[Symbol.iterator](),
  });
}

/** Appends `extra` to the entries of `seq` (O(n): only for one-off requests). */
export function appendEntries(seq: EntrySeq, ...extra: Entry[]): EntrySeq {
  return entrySeq([...seq, ...extra]);
}
