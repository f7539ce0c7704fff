/**
 * Simulated time for a whole session: a clock whose sleeps fall due in the order of their due
 * times, one at a time, and only once nothing else can run. The session plays out at its
 * real latencies, in the order they give, without waiting for any of them.
 */
import { abortError } from '../../src/model/abort.js';
import type { Clock } from '../../src/testing/index.js';

interface Sleeper {
  readonly due: number;
  readonly seq: number;
  readonly resolve: () => void;
}

/** Turns of the event loop without a sleep falling due, after which the session is taken as idle. */
const IDLE_TURNS = 8;

/** One turn of the event loop (every microtask and I/O callback before it runs). */
const turn = (): Promise<void> => new Promise<void>((resolve) => setImmediate(resolve));

export interface VirtualClock extends Clock {
  /** Simulated milliseconds so far. */
  readonly now: number;
  /**
   * Settles with `work`; meanwhile, whenever the process is idle, moves time to the earliest
   * pending sleep and wakes it (sleeps due at the same time wake in the order they began).
   */
  drive<T>(work: Promise<T>): Promise<T>;
}

export function virtualClock(): VirtualClock {
  let now = 0;
  let seq = 0;
  let sleepers: Sleeper[] = [];
  return {
    get now() {
      return now;
    },
    sleep(ms: number, signal: AbortSignal): Promise<void> {
      if (signal.aborted) return Promise.reject(abortError(signal));
      return new Promise<void>((resolve, reject) => {
        const onAbort = (): void => {
          sleepers = sleepers.filter((s) => s !== sleeper);
          reject(abortError(signal));
        };
        const sleeper: Sleeper = {
          due: now + Math.max(0, ms),
          seq: seq++,
          resolve: () => {
            signal.removeEventListener('abort', onAbort);
            resolve();
          },
        };
        signal.addEventListener('abort', onAbort, { once: true });
        sleepers.push(sleeper);
      });
    },
    async drive<T>(work: Promise<T>): Promise<T> {
      let done = false;
      const settled = work.finally(() => {
        done = true;
      });
      while (!done) {
        const before = seq;
        for (let i = 0; i < IDLE_TURNS && !done; i++) await turn();
        if (done || before !== seq) continue; // something started sleeping: let it settle
        const next = [...sleepers].sort((a, b) => a.due - b.due || a.seq - b.seq)[0];
        if (!next) continue;
        sleepers = sleepers.filter((s) => s !== next);
        now = Math.max(now, next.due);
        next.resolve();
      }
      return settled;
    },
  };
}
