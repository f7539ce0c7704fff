/**
 * Time as the simulated models see it. Latency goes through an injectable clock so tests
 * never sleep for real: they use vitest fake timers with {@link systemClock}, or drive a
 * {@link manualClock} by hand.
 */
import { abortError } from './abort.js';

/** Something that can wait. `sleep` must reject with an AbortError as soon as `signal` aborts. */
export interface Clock {
  sleep(ms: number, signal: AbortSignal): Promise<void>;
}

/**
 * The default clock: global `setTimeout`, looked up at call time so vitest fake timers
 * (which replace the global) control it.
 */
export const systemClock: Clock = Object.freeze({
  sleep(ms: number, signal: AbortSignal): Promise<void> {
    if (signal.aborted) return Promise.reject(abortError(signal));
    return new Promise<void>((resolve, reject) => {
      const onAbort = (): void => {
        clearTimeout(timer);
        reject(abortError(signal));
      };
      const timer = setTimeout(() => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  },
});

/** A clock that only moves when told to. */
export interface ManualClock extends Clock {
  /** Milliseconds advanced so far. */
  readonly now: number;
  /** Number of sleeps not yet due nor aborted. */
  readonly pending: number;
  /** Moves time forward, resolving every sleep that falls due, earliest first. */
  advance(ms: number): void;
  /**
   * Resolves once at least `count` sleeps are pending. Adapters reach their sleep after a few
   * microtasks; awaiting this instead of guessing keeps tests deterministic.
   */
  whenPending(count?: number): Promise<void>;
}

interface Sleeper {
  readonly due: number;
  readonly seq: number;
  readonly resolve: () => void;
}

/** Creates a {@link ManualClock} starting at time 0. */
export function manualClock(): ManualClock {
  let now = 0;
  let seq = 0;
  let sleepers: Sleeper[] = [];
  let waiters: { count: number; resolve: () => void }[] = [];

  const notify = (): void => {
    const ready = waiters.filter((w) => sleepers.length >= w.count);
    waiters = waiters.filter((w) => sleepers.length < w.count);
    for (const w of ready) w.resolve();
  };

  return {
    get now() {
      return now;
    },
    get pending() {
      return sleepers.length;
    },
    sleep(ms: number, signal: AbortSignal): Promise<void> {
      if (signal.aborted) return Promise.reject(abortError(signal));
      return new Promise<void>((resolve, reject) => {
        const sleeper: Sleeper = {
          due: now + Math.max(0, ms),
          seq: seq++,
          resolve: () => {
            signal.removeEventListener('abort', onAbort);
            resolve();
          },
        };
        const onAbort = (): void => {
          sleepers = sleepers.filter((s) => s !== sleeper);
          reject(abortError(signal));
        };
        signal.addEventListener('abort', onAbort, { once: true });
        sleepers.push(sleeper);
        notify();
      });
    },
    advance(ms: number): void {
      now += Math.max(0, ms);
      const due = sleepers.filter((s) => s.due <= now).sort((a, b) => a.due - b.due || a.seq - b.seq);
      sleepers = sleepers.filter((s) => s.due > now);
      for (const s of due) s.resolve();
    },
    whenPending(count = 1): Promise<void> {
      if (sleepers.length >= count) return Promise.resolve();
      return new Promise<void>((resolve) => waiters.push({ count, resolve }));
    },
  };
}
