/**
 * Slices of the event loop: how the runtime keeps a large fan-out from holding the loop.
 *
 * A zero-latency model (a stub, a cache, a local model answering from memory) resolves every
 * request in a microtask, so a fan-out of thousands of subagents would otherwise run to the
 * end in one turn of the event loop: seconds in which no timer fires (a Postgres lease
 * renewal among them), no socket is read and no abort arrives. The runtime calls
 * {@link sliceYield} at its yield points (before each model request and each tool call);
 * once the current turn has run for {@link SLICE_MS}, every yield point waits in one FIFO
 * queue, and a drain in a later turn releases the waiters, in order, for one slice each turn.
 *
 * The state is the process's, not a runtime's: the event loop is shared, so 200 runtimes
 * fanning out at once share one slice per turn.
 */
import { performance } from 'node:perf_hooks';
// node:timers, not the global: test fake timers replace only the globals.
import { setImmediate } from 'node:timers';

/**
 * How long one turn of the event loop runs runtime work before the yield points wait (ms).
 * Work already started runs on to its next yield point, so a turn runs a few times it at most.
 */
export const SLICE_MS = 10;

/** When the current slice began, or undefined between slices. */
let sliceStart: number | undefined;
/** Counts slices, so a slice's end marker cannot end a later slice. */
let sliceId = 0;
/** Continuations waiting for a later slice, oldest first. */
const waiting: Array<() => void> = [];
let drainScheduled = false;

/** Starts a slice now; it ends at the next macrotask (a turn of the loop that ran something else). */
function openSlice(now: number): void {
  sliceStart = now;
  const id = ++sliceId;
  setImmediate(() => {
    if (sliceId === id) sliceStart = undefined;
  });
}

function scheduleDrain(): void {
  if (drainScheduled) return;
  drainScheduled = true;
  setImmediate(drain);
}

/** A later turn: releases waiters in order while its slice lasts, one per microtask. */
function drain(): void {
  drainScheduled = false;
  openSlice(performance.now());
  releaseNext();
}

function releaseNext(): void {
  if (waiting.length === 0) return;
  if (performance.now() - sliceStart! >= SLICE_MS) return scheduleDrain();
  waiting.shift()!();
  // After the released continuation's first step: the slice's time includes what it did.
  queueMicrotask(releaseNext);
}

/**
 * A yield point: `undefined` while the current turn has time left (go on at once, no promise
 * made), else a promise that resolves in a later turn of the event loop, after the waiters
 * before it. While anyone waits, every yield point waits behind them (first come, first
 * served: no agent overtakes another that yielded before it).
 *
 * @example
 * ```ts
 * const wait = sliceYield();
 * if (wait) await wait;
 * ```
 */
export function sliceYield(): Promise<void> | undefined {
  const now = performance.now();
  if (sliceStart === undefined) {
    openSlice(now);
    if (waiting.length === 0) return undefined;
  } else if (waiting.length === 0 && now - sliceStart < SLICE_MS) {
    return undefined;
  }
  return new Promise<void>((resolve) => {
    waiting.push(resolve);
    scheduleDrain();
  });
}
