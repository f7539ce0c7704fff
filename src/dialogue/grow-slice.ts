/**
 * A persistent append-only sequence that shares one backing array between versions, like
 * a Go slice: appending to the newest version pushes in place (amortized O(1)); appending
 * to an older version copies its prefix first, so no version ever sees another's entries.
 */

/** An immutable version of an append-only list over a shared backing array (internal, so not frozen: appends are hot). */
export class GrowSlice<T> {
  static readonly #EMPTY: GrowSlice<never> = new GrowSlice<never>(Object.freeze([]) as never[], 0);
  readonly #buf: T[];
  /** Number of items in this version; the backing array may hold more (newer versions). */
  readonly length: number;

  private constructor(buf: T[], length: number) {
    this.#buf = buf;
    this.length = length;
  }

  /**
   * The empty slice. One instance serves every caller: its backing array is frozen and never
   * written (a first item always starts a backing array of its own, see {@link push}), so it
   * cannot pin anyone's items, and an index that never gets an item costs nothing per dialogue.
   */
  static empty<T>(): GrowSlice<T> {
    return GrowSlice.#EMPTY as GrowSlice<T>;
  }

  /** The item at `index`, or undefined outside `[0, length)`. */
  at(index: number): T | undefined {
    return index >= 0 && index < this.length ? this.#buf[index] : undefined;
  }

  /** The last item, if any. */
  last(): T | undefined {
    return this.length > 0 ? this.#buf[this.length - 1] : undefined;
  }

  /** A version with `item` appended; this version is unchanged. */
  push(item: T): GrowSlice<T> {
    // A first item gets a backing array of exactly one slot (an array grown by a first push
    // from empty reserves 17), and the empty slice's frozen array is never written.
    if (this.length === 0) return new GrowSlice([item], 1);
    const buf = this.#buf.length === this.length ? this.#buf : this.#buf.slice(0, this.length);
    buf.push(item);
    return new GrowSlice(buf, this.length + 1);
  }

  /**
   * First index whose key is `>= value`, assuming keys ascend (O(log n)); `length` when none.
   * Dialogue indexes hold ascending log positions, so this finds positions by binary search.
   */
  lowerBound(value: number, key: (item: T) => number): number {
    let lo = 0;
    let hi = this.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (key(this.#buf[mid] as T) < value) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
