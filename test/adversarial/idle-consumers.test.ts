/**
 * Idle event consumers (the second campaign's sixth defect). An iterator that stopped reading
 * was meant to keep at most `bufferSize` events, but its queue only moved a head index past
 * the dropped ones and compacted when read, so one that was never read again kept every event
 * published after it stopped (about 75 B each). Measured by which events the garbage collector
 * can still not reclaim, never by heap size or time.
 */
import { setImmediate as nextMacrotask } from 'node:timers/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { createRuntime } from '../../src/runtime/runtime.js';
import { BoundedQueue } from '../../src/runtime/bounded-queue.js';
import { hostileModel } from './helpers.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const usage = { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 };

/** Events still reachable from anything but `refs` after a full collection. */
async function alive(refs: ReadonlyArray<WeakRef<object>>): Promise<number> {
  // A WeakRef's target is kept until the job that made or read it ends.
  await nextMacrotask();
  gc();
  await nextMacrotask();
  gc();
  return refs.filter((ref) => ref.deref() !== undefined).length;
}

describe('an iterator that stops reading', () => {
  it.each([
    ['never read', 0],
    ['read a few, then stopped', 5],
  ])('%s: holds at most bufferSize events, however many are published', async (_name, reads) => {
    const bufferSize = 20;
    const rt = createRuntime({ model: hostileModel(() => ({ text: 'ok', toolCalls: [], usage })) });
    const idle = rt.events({ bufferSize });
    // A second iterator reads everything and remembers each event weakly (both get the same objects).
    const refs: Array<WeakRef<object>> = [];
    const reader = (async () => {
      for await (const event of rt.events()) refs.push(new WeakRef(event));
    })();
    const first = Array.from({ length: reads }, () => idle.next());
    for (let i = 0; i < 120; i++) await (await rt.spawn('/root', { task_name: `w${i}`, message: 'work' })).result;
    await rt.whenQuiet();
    // The events it did read are the test's; let go of them.
    await Promise.all(first.splice(0));
    expect(refs.length).toBeGreaterThan(30 * bufferSize);
    expect(await alive(refs)).toBeLessThanOrEqual(bufferSize);
    // What it holds is the newest, after one lagged event counting the rest.
    const lagged = await idle.next();
    expect(lagged.value).toMatchObject({ type: 'lagged', dropped: refs.length - reads - bufferSize });
    void idle.return?.();
    rt.stop();
    await reader;
  });
});

describe('BoundedQueue', () => {
  it('holds at most its capacity, in order, and frees what it drops or hands out', async () => {
    const queue = new BoundedQueue<object>(3);
    const refs: Array<WeakRef<object>> = [];
    let dropped = 0;
    for (let i = 0; i < 1_000; i++) {
      const item = { i };
      refs.push(new WeakRef(item));
      if (queue.push(item)) dropped++;
    }
    expect(dropped).toBe(997);
    expect(queue.size).toBe(3);
    expect(await alive(refs)).toBe(3);
    expect([queue.shift(), queue.shift()]).toEqual([{ i: 997 }, { i: 998 }]);
    expect(await alive(refs)).toBe(1);
    queue.push({ i: 1_000 });
    expect([queue.shift(), queue.shift(), queue.shift()]).toEqual([{ i: 999 }, { i: 1_000 }, undefined]);
    queue.clear();
    expect(queue.size).toBe(0);
  });

  it('wraps correctly while growing and after filling', () => {
    const queue = new BoundedQueue<number>(40);
    const seen: number[] = [];
    for (let i = 0; i < 500; i++) {
      queue.push(i);
      if (i % 3 === 0) seen.push(queue.shift()!);
    }
    const rest: number[] = [];
    while (queue.size > 0) rest.push(queue.shift()!);
    // Everything that came out is increasing, and what was left is the newest 40.
    expect([...seen, ...rest]).toEqual([...seen, ...rest].slice().sort((a, b) => a - b));
    expect(rest).toEqual(Array.from({ length: 40 }, (_, i) => 460 + i));
  });
});
