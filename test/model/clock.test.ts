import { afterEach, describe, expect, it, vi } from 'vitest';
import { abortError, isAbortError, raceAbort, throwIfAborted } from '../../src/model/abort.js';
import { manualClock, systemClock } from '../../src/model/clock.js';
import { rejection, settled } from './helpers.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('systemClock', () => {
  it('sleeps on setTimeout, so fake timers drive it', async () => {
    vi.useFakeTimers();
    const nap = systemClock.sleep(100, new AbortController().signal);
    await vi.advanceTimersByTimeAsync(99);
    expect(await settled(nap)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await expect(nap).resolves.toBeUndefined();
  });

  it('rejects at once when already aborted, and clears its timer on abort', async () => {
    vi.useFakeTimers();
    const done = new AbortController();
    done.abort();
    expect((await rejection(systemClock.sleep(10, done.signal))).name).toBe('AbortError');
    const controller = new AbortController();
    const nap = systemClock.sleep(10, controller.signal);
    expect(vi.getTimerCount()).toBe(1);
    controller.abort();
    expect((await rejection(nap)).name).toBe('AbortError');
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('manualClock', () => {
  it('resolves sleeps in due order as time advances', async () => {
    const clock = manualClock();
    const order: number[] = [];
    const signal = new AbortController().signal;
    const naps = [30, 10, 20, 10].map((ms, i) => clock.sleep(ms, signal).then(() => order.push(i)));
    expect(clock.pending).toBe(4);
    clock.advance(15);
    clock.advance(-5);
    await Promise.all(naps.slice(1, 2).concat(naps.slice(3)));
    expect(order).toEqual([1, 3]);
    clock.advance(100);
    await Promise.all(naps);
    expect(order).toEqual([1, 3, 2, 0]);
    expect(clock.now).toBe(115);
  });

  it('waits for pending sleepers', async () => {
    const clock = manualClock();
    const signal = new AbortController().signal;
    await clock.whenPending(0);
    const waiting = clock.whenPending(2);
    void clock.sleep(1, signal);
    expect(await settled(waiting)).toBe(false);
    void clock.sleep(1, signal);
    await waiting;
    clock.advance(1);
  });

  it('rejects on abort, before or during a sleep', async () => {
    const clock = manualClock();
    const done = new AbortController();
    done.abort();
    expect((await rejection(clock.sleep(5, done.signal))).name).toBe('AbortError');
    const controller = new AbortController();
    const nap = clock.sleep(5, controller.signal);
    controller.abort();
    expect((await rejection(nap)).name).toBe('AbortError');
    expect(clock.pending).toBe(0);
  });
});

describe('abort helpers', () => {
  it('builds AbortErrors, reusing an AbortError reason and naming any other', () => {
    const plain = new AbortController();
    plain.abort();
    expect(abortError(plain.signal)).toBe(plain.signal.reason);
    const custom = new AbortController();
    custom.abort(new Error('parent cancelled'));
    const error = abortError(custom.signal);
    expect(error).toBeInstanceOf(DOMException);
    expect(error.name).toBe('AbortError');
    expect(error.message).toBe('The operation was aborted: parent cancelled');
    const noReason = { reason: undefined, aborted: true } as unknown as AbortSignal;
    expect(abortError(noReason).message).toBe('The operation was aborted');
    expect(() => throwIfAborted(custom.signal)).toThrow(/parent cancelled/);
    expect(() => throwIfAborted(new AbortController().signal)).not.toThrow();
    expect(isAbortError(error)).toBe(true);
    expect(isAbortError(new Error('x'))).toBe(false);
    expect(isAbortError('AbortError')).toBe(false);
  });

  it('races work against the signal', async () => {
    const signal = new AbortController().signal;
    await expect(raceAbort(Promise.resolve(1), signal)).resolves.toBe(1);
    await expect(raceAbort(Promise.reject(new Error('no')), signal)).rejects.toThrow('no');
    const controller = new AbortController();
    const never = raceAbort(new Promise<number>(() => undefined), controller.signal);
    controller.abort();
    expect((await rejection(never)).name).toBe('AbortError');
    expect((await rejection(raceAbort(Promise.resolve(2), controller.signal))).name).toBe('AbortError');
    // A late rejection of work raced against an aborted signal is not left unhandled.
    expect((await rejection(raceAbort(Promise.reject(new Error('late')), controller.signal))).name).toBe('AbortError');
  });
});
