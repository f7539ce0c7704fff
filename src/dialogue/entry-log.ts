/**
 * The raw log storage of a dialogue: an optional immutable base (a seeding snapshot, never
 * copied) followed by an own append-only buffer shared between versions like a Go slice,
 * plus the user-entry id index compactions resolve their anchors with.
 *
 * Internal: instances never leave the dialogue folder, so they are not frozen (appends are
 * hot); immutability holds by construction (readonly fields, append-only buffers).
 */
import type { Entry } from './entry.js';
import { EntryView, type EntrySeqBuilder } from './entry-seq.js';
import { jsonLength } from './json-length.js';
import type { EntrySeq } from './types.js';

/**
 * What versions share: the own buffer, and an index of user-entry ids built lazily (only
 * compactions need it, so the common append path never touches a large hash table).
 */
interface Store {
  /**
   * The own part's entries. Replaced, never changed, while it holds fewer than two (see
   * `push`), so a reader that took the array before sees what it held.
   */
  entries: Entry[];
  /**
   * User-entry id → latest log position among positions `< indexed` (one linear history);
   * made on the first lookup, so a log nobody looks up in holds no map.
   */
  userIds: Map<string, number> | undefined;
  /** Log positions below this are in `userIds`. */
  indexed: number;
  /**
   * The JSON length of the non-compaction entries at log positions `[sizedFrom, sizedTo)`:
   * a dialogue grows by appending, so the next measure from the same start only walks what
   * was appended since (positions below the buffer's length never change).
   */
  sizedFrom: number;
  sizedTo: number;
  sized: number;
}

/** One immutable version of a dialogue's raw log. */
export class EntryLog {
  readonly #base: EntrySeq;
  readonly #baseLength: number;
  readonly #store: Store;
  /** Number of entries in this version (base included). */
  readonly length: number;

  private constructor(base: EntrySeq, baseLength: number, store: Store, length: number) {
    this.#base = base;
    this.#baseLength = baseLength;
    this.#store = store;
    this.length = length;
  }

  /** An empty log with its own buffer. */
  static empty(base?: EntrySeq): EntryLog {
    const b = base ?? EntryView.EMPTY;
    return new EntryLog(b, b.length, newStore([]), b.length);
  }

  /**
   * A log whose first entries are `base`, read in place. `visit` sees each base entry with
   * its position (it validates against what came before, and may throw to reject the seed).
   */
  static seeded(base: EntrySeq, visit: (entry: Entry, position: number, log: EntryLog) => void): EntryLog {
    const log = EntryLog.empty(base);
    let position = 0;
    for (const entry of base) visit(entry, position++, log);
    return log;
  }

  /** Length of the base (seed) part. */
  get baseLength(): number {
    return this.#baseLength;
  }

  /** The entry at log position `position` (0 ≤ position < length), else undefined. */
  at(position: number): Entry | undefined {
    if (position < 0 || position >= this.length) return undefined;
    return position < this.#baseLength ? this.#base.at(position) : this.#store.entries[position - this.#baseLength];
  }

  /**
   * Log position of the latest user entry with this id before `before` (default: the whole
   * version), if any. Indexes positions lazily, each once per buffer, so the cost is
   * amortized O(1) per entry.
   */
  userPosition(id: string, before: number = this.length): number | undefined {
    const store = this.#store;
    const userIds = (store.userIds ??= new Map());
    for (; store.indexed < before; store.indexed++) {
      const entry = this.at(store.indexed) as Entry;
      if (entry.kind === 'user') userIds.set(entry.id, store.indexed);
    }
    const position = userIds.get(id);
    if (position === undefined || position < before) return position;
    // The latest one lies past `before` (a newer version's entry, or a later seed entry):
    // an earlier one is possible only with duplicate ids, so this scan is rare.
    for (let p = before - 1; p >= 0; p--) {
      const entry = this.at(p) as Entry;
      if (entry.kind === 'user' && entry.id === id) return p;
    }
    return undefined;
  }

  /**
   * This log with `entry` appended. In place on the shared buffer when this version is its
   * newest (amortized O(1)); otherwise the own part is copied first, so the versions that
   * already extended the buffer keep their contents.
   */
  push(entry: Entry): EntryLog {
    const own = this.length - this.#baseLength;
    let store = this.#store;
    if (store.entries.length !== own) {
      // Appending to an older version: copy its own part; the id index is rebuilt when needed.
      store = newStore(store.entries.slice(0, own));
    }
    // The first two entries get an array of exactly their length (a first push onto an empty
    // array reserves 17 slots; most subagents' own part is a task and an answer), later ones
    // grow it in place.
    const entries = store.entries;
    if (own === 0) store.entries = [entry];
    else if (own === 1) store.entries = [entries[0] as Entry, entry];
    else entries.push(entry);
    return new EntryLog(this.#base, this.#baseLength, store, this.length + 1);
  }

  /**
   * The summed {@link jsonLength} of the non-compaction entries at log positions
   * `[from, this.length)`. Amortized O(entries appended since the last measure from the same
   * `from`): the sum is kept with the buffer, which every later version of this log shares.
   */
  contentJsonLength(from: number): number {
    const store = this.#store;
    let start = from;
    let total = 0;
    if (store.sizedFrom === from && store.sizedTo <= this.length) {
      start = store.sizedTo;
      total = store.sized;
    }
    const base = this.#baseLength;
    for (let p = start; p < Math.min(base, this.length); p++) {
      const entry = this.#base.at(p) as Entry;
      if (entry.kind !== 'compaction') total += jsonLength(entry);
    }
    const own = store.entries;
    for (let i = Math.max(start, base) - base; i < this.length - base; i++) {
      const entry = own[i] as Entry;
      if (entry.kind !== 'compaction') total += jsonLength(entry);
    }
    // An older version than the one measured last (its end is below sizedTo) keeps the newer sum.
    if (!(store.sizedFrom === from && store.sizedTo > this.length)) {
      store.sizedFrom = from;
      store.sizedTo = this.length;
      store.sized = total;
    }
    return total;
  }

  /** Adds log positions `[from, to)` to `builder` without copying entries. */
  addRange(builder: EntrySeqBuilder, from: number, to: number): void {
    const end = Math.min(to, this.length);
    if (from < this.#baseLength) builder.range(this.#base, from, Math.min(end, this.#baseLength));
    builder.array(this.#store.entries, Math.max(from, this.#baseLength) - this.#baseLength, end - this.#baseLength);
  }
}

function newStore(entries: Entry[]): Store {
  return { entries, userIds: undefined, indexed: 0, sizedFrom: 0, sizedTo: 0, sized: 0 };
}
