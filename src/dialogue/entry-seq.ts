/**
 * Entry sequences as views: a list of chunks over backing stores (a dialogue's append-only
 * buffers, or any other {@link EntrySeq}) plus single entries placed in between. Building
 * one costs O(chunks), never O(entries), which is what lets snapshots and effective
 * dialogues share structure with the log they come from.
 */
import type { Entry } from './entry.js';
import type { EntrySeq } from './types.js';

/**
 * A run of entries `[start, end)` of an array or of a foreign sequence: the unit a view
 * is made of. Exposed for {@link EntrySeqBuilder}; not meant for other callers.
 */
export type EntryRun =
  | { readonly arr: readonly Entry[]; readonly start: number; readonly end: number }
  | { readonly seq: EntrySeq; readonly start: number; readonly end: number };

/**
 * A frozen, immutable view implementing {@link EntrySeq}. `at` is O(log chunks), iteration
 * O(1) per entry. The backing stores are held in private fields: the only enumerable
 * property is `length`, so a deep-freeze check sees a fully frozen value.
 */
export class EntryView implements EntrySeq {
  /** The empty view. */
  static readonly EMPTY: EntryView = new EntryView([]);

  readonly length: number;
  readonly #runs: readonly EntryRun[];
  /** `#starts[i]`: view index of chunk i's first entry (ascending, for binary search). */
  readonly #starts: readonly number[];

  private constructor(chunks: readonly EntryRun[]) {
    const starts: number[] = [];
    let length = 0;
    for (const c of chunks) {
      starts.push(length);
      length += c.end - c.start;
    }
    this.#runs = Object.freeze(chunks);
    this.#starts = Object.freeze(starts);
    this.length = length;
    Object.freeze(this);
  }

  /** A view over a frozen copy of `entries` (O(n): for building small sequences by hand). */
  static of(entries: Iterable<Entry>): EntryView {
    const copy = Object.freeze([...entries]);
    return copy.length === 0 ? EntryView.EMPTY : new EntryView([{ arr: copy, start: 0, end: copy.length }]);
  }

  /** `seq` as an EntryView: itself when it already is one, otherwise a one-chunk view over it. */
  static from(seq: EntrySeq): EntryView {
    return seq instanceof EntryView ? seq : new EntrySeqBuilder().all(seq).build();
  }

  /** The entry at `index` (negative counts from the end, like `Array.prototype.at`). */
  at(index: number): Entry | undefined {
    if (!Number.isInteger(index)) return undefined;
    const i = index < 0 ? index + this.length : index;
    if (i < 0 || i >= this.length) return undefined;
    const starts = this.#starts;
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if ((starts[mid] as number) <= i) lo = mid;
      else hi = mid - 1;
    }
    const chunk = this.#runs[lo] as EntryRun;
    const at = chunk.start + i - (starts[lo] as number);
    return 'arr' in chunk ? chunk.arr[at] : chunk.seq.at(at);
  }

  /** Iterates the entries in order, O(1) per entry. */
  *[Symbol.iterator](): Iterator<Entry> {
    for (const chunk of this.#runs) {
      if ('arr' in chunk) {
        for (let i = chunk.start; i < chunk.end; i++) yield chunk.arr[i] as Entry;
      } else {
        for (let i = chunk.start; i < chunk.end; i++) yield chunk.seq.at(i) as Entry;
      }
    }
  }

  /** A fresh frozen array of the entries (O(n)). */
  toArray(): readonly Entry[] {
    return Object.freeze([...this]);
  }

  /** The entries `[start, end)` as a view (negative bounds count from the end, like `Array.prototype.slice`). */
  slice(start = 0, end = this.length): EntryView {
    const norm = (n: number): number => Math.min(this.length, Math.max(0, n < 0 ? n + this.length : Math.trunc(n)));
    return new EntrySeqBuilder().range(this, norm(start), norm(end)).build();
  }

  /** Number of chunks (a cost figure for tests and benchmarks, not for logic). */
  get runCount(): number {
    return this.#runs.length;
  }

  /** Adds this view's chunks overlapping `[start, end)` to `out`, clipped; lets builders flatten views. */
  static appendRuns(view: EntryView, start: number, end: number, out: (chunk: EntryRun) => void): void {
    const chunks = view.#runs;
    const starts = view.#starts;
    for (let k = 0; k < chunks.length; k++) {
      const chunk = chunks[k] as EntryRun;
      const from = starts[k] as number;
      const to = from + chunk.end - chunk.start;
      if (to <= start) continue;
      if (from >= end) break;
      const s = chunk.start + Math.max(start, from) - from;
      const e = chunk.start + Math.min(end, to) - from;
      out('arr' in chunk ? { arr: chunk.arr, start: s, end: e } : { seq: chunk.seq, start: s, end: e });
    }
  }

  /** Builds a view from chunks; the builder's back door to the private constructor. */
  static fromRuns(chunks: readonly EntryRun[]): EntryView {
    return chunks.length === 0 ? EntryView.EMPTY : new EntryView(chunks);
  }
}

/**
 * Assembles an {@link EntryView} from ranges and single entries in O(parts). Ranges over
 * other EntryViews are flattened (so views of views of views stay one level deep) and
 * adjacent ranges of the same store are merged.
 */
export class EntrySeqBuilder {
  readonly #runs: EntryRun[] = [];

  /** Adds one entry (a summary in front, a trimmed replacement). */
  entry(entry: Entry): this {
    this.#push({ arr: Object.freeze([entry]), start: 0, end: 1 });
    return this;
  }

  /** Adds the entries `[start, end)` of `seq`, clamped to its bounds. */
  range(seq: EntrySeq, start: number, end: number): this {
    const s = Math.max(0, start);
    const e = Math.min(seq.length, end);
    if (s >= e) return this;
    if (seq instanceof EntryView) EntryView.appendRuns(seq, s, e, (c) => this.#push(c));
    else this.#push({ seq, start: s, end: e });
    return this;
  }

  /** Adds every entry of `seq`. */
  all(seq: EntrySeq): this {
    return this.range(seq, 0, seq.length);
  }

  /**
   * Adds `[start, end)` of an array without copying it. The caller guarantees those
   * positions never change: dialogues pass their append-only buffers, whose filled
   * positions are never written again.
   */
  array(arr: readonly Entry[], start: number, end: number): this {
    const s = Math.max(0, start);
    const e = Math.min(arr.length, end);
    if (s < e) this.#push({ arr, start: s, end: e });
    return this;
  }

  /** The view built so far; the builder may keep being used. */
  build(): EntryView {
    return EntryView.fromRuns([...this.#runs]);
  }

  #push(chunk: EntryRun): void {
    const last = this.#runs[this.#runs.length - 1];
    if (last !== undefined && last.end === chunk.start && sameStore(last, chunk)) {
      this.#runs[this.#runs.length - 1] = 'arr' in last ? { arr: last.arr, start: last.start, end: chunk.end } : { seq: last.seq, start: last.start, end: chunk.end };
    } else {
      this.#runs.push(chunk);
    }
  }
}

function sameStore(a: EntryRun, b: EntryRun): boolean {
  return 'arr' in a ? 'arr' in b && a.arr === b.arr : 'seq' in b && a.seq === b.seq;
}
