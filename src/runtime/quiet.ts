/**
 * Quiet tracking: which agents are doing work, and `whenQuiet` waiters, released once no agent
 * is busy (looked at a microtask later, so a report on its way to a parent it will wake counts).
 */

/** The busy agents of one runtime and who waits for none to be. */
export class QuietTracker {
  private readonly busy = new Set<string>();
  private waiters: Array<() => void> = [];

  /** Whether the agent at `path` is doing work. */
  has(path: string): boolean {
    return this.busy.has(path);
  }

  /** How many agents are doing work. */
  get size(): number {
    return this.busy.size;
  }

  /** The agent at `path` is doing work. */
  add(path: string): void {
    this.busy.add(path);
  }

  /** The agent at `path` is idle or finished; waiters are released if none is busy now. */
  delete(path: string): void {
    if (!this.busy.delete(path) || this.busy.size > 0 || this.waiters.length === 0) return;
    // Checked a microtask later: an agent that just settled or ended a turn reports to its
    // parent a microtask later, and a parent it wakes is busy again by then.
    queueMicrotask(() => {
      if (this.busy.size > 0) return;
      this.release();
    });
  }

  /** Forgets every busy agent and releases every waiter (the session halted). */
  clear(): void {
    this.busy.clear();
    this.release();
  }

  /** Resolves when no agent is busy. */
  whenQuiet(): Promise<void> {
    // Looked at a microtask later: a report an agent just sent is still on its way to the
    // parent it will wake (agents report to their parents a microtask after they settle).
    return new Promise((resolve) =>
      queueMicrotask(() => {
        if (this.busy.size === 0) resolve();
        else this.waiters.push(resolve);
      }),
    );
  }

  private release(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const resolve of waiters) resolve();
  }
}
