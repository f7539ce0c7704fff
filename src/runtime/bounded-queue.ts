/**
 * A FIFO that never holds more than its capacity: a ring over an array that grows (doubling)
 * up to the capacity and then wraps, overwriting the oldest item. Every slot it frees is
 * cleared, so an item dropped or read is no longer referenced; whether or not anyone reads,
 * it holds at most `capacity` items in at most `capacity` slots.
 */
export class BoundedQueue<T> {
  private slots: Array<T | undefined> = [];
  /** Index of the oldest item. */
  private start = 0;
  private count = 0;

  /** @param capacity the most items held (a positive integer). */
  constructor(readonly capacity: number) {}

  /** Items held. */
  get size(): number {
    return this.count;
  }

  /**
   * Appends `item`; when full, drops the oldest first.
   *
   * @returns whether an item was dropped.
   *
   * @example
   * ```ts
   * const q = new BoundedQueue<number>(2);
   * q.push(1); q.push(2); q.push(3); // true: 1 was dropped
   * q.shift(); // 2
   * ```
   */
  push(item: T): boolean {
    if (this.count === this.capacity) {
      this.slots[this.start] = item;
      this.start = (this.start + 1) % this.capacity;
      return true;
    }
    if (this.count === this.slots.length) this.grow();
    this.slots[(this.start + this.count) % this.slots.length] = item;
    this.count++;
    return false;
  }

  /** Removes and returns the oldest item, or `undefined` when empty. */
  shift(): T | undefined {
    if (this.count === 0) return undefined;
    const item = this.slots[this.start];
    this.slots[this.start] = undefined;
    this.start = (this.start + 1) % this.slots.length;
    this.count--;
    if (this.count === 0) this.start = 0;
    return item;
  }

  /** Drops every item and gives the slots back. */
  clear(): void {
    this.slots = [];
    this.start = 0;
    this.count = 0;
  }

  /** Re-lays the items from index 0 in an array twice as large (at most `capacity` slots). */
  private grow(): void {
    const size = Math.min(this.capacity, Math.max(16, this.slots.length * 2));
    const next = new Array<T | undefined>(size);
    for (let i = 0; i < this.count; i++) next[i] = this.slots[(this.start + i) % this.slots.length];
    this.slots = next;
    this.start = 0;
  }
}
