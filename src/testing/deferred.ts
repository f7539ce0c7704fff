/**
 * A promise with its resolve and reject exposed, so a test decides when an async step ends.
 */

/** A promise settled from outside. */
export interface Deferred<T> {
  readonly promise: Promise<T>;
  resolve(value: T): void;
  reject(error: unknown): void;
  /** Whether resolve or reject was called. */
  readonly settled: boolean;
}

/** Creates a {@link Deferred}. Settling twice is a no-op, like a promise's own. */
export function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  let settled = false;
  return {
    promise,
    resolve: (value) => {
      settled = true;
      resolve(value);
    },
    reject: (error) => {
      settled = true;
      reject(error);
    },
    get settled() {
      return settled;
    },
  };
}

/** The real `setImmediate`, taken before a test can install fake timers. */
const immediate = globalThis.setImmediate;

/**
 * Resolves after every pending microtask has run (one macrotask turn, unaffected by fake
 * timers installed later). Use it to show that something did NOT happen after a promise
 * settled; never as a wait for work to finish.
 */
export function afterMicrotasks(): Promise<void> {
  return new Promise((resolve) => immediate(resolve));
}
