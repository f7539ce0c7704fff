/**
 * The failure state both stores share: the first failure is kept, told to listeners once,
 * and every later append throws it.
 */
import { StoreError } from './types.js';

/** Holds a store's first failure and its listeners. */
export class FailureState {
  error: StoreError | undefined;
  closed = false;
  private readonly listeners = new Set<(error: StoreError) => void>();

  constructor(private readonly location: string) {}

  /** Records the first failure and tells the listeners; later failures are ignored. */
  fail(error: StoreError): void {
    if (this.error) return;
    this.error = error;
    for (const listener of [...this.listeners]) listener(error);
    this.listeners.clear();
  }

  /** Throws when nothing may be appended any more. */
  check(): void {
    if (this.error) throw this.error;
    if (this.closed) throw new StoreError('closed', `the journal at ${this.location} is closed`);
  }

  /** Adds a listener (called at once if the store already failed). */
  on(listener: (error: StoreError) => void): () => void {
    if (this.error) {
      listener(this.error);
      return () => {};
    }
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
