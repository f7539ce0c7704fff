/**
 * A session whose store fails halts (lifecycle.halt): hosts hear `halted` once, with the store's
 * error; whoever waits for quiet is released though agents were mid-request; every entry that
 * would start work refuses with `session_halted` naming the store's message; `result()` of an
 * agent that was live rejects with the store's error, of a path never held says so as before;
 * each stopped agent's last change says `cancelled`, and no result is invented.
 */
import { describe, expect, it } from 'vitest';
import { manualClock } from '../../src/model/clock.js';
import { scriptedModel } from '../../src/model/scripted.js';
import { createRuntime } from '../../src/runtime/runtime.js';
import { StoreError } from '../../src/store/types.js';
import { memoryStore } from './memory-store.js';

describe('a session whose store fails', () => {
  it('halts once: one halted event with the first error, quiet waiters released, work refused with session_halted', async () => {
    const clock = manualClock();
    const model = scriptedModel({ '/root': { 0: [{ text: 'never', latencyMs: 1_000 }] }, '/root/job': { 0: [{ text: 'never', latencyMs: 1_000 }] } }, { clock });
    const store = memoryStore();
    const rt = createRuntime({ model, store });
    const halted: StoreError[] = [];
    rt.on('halted', (event) => halted.push(event.error));
    const prompt = rt.prompt('work');
    const job = await rt.spawn('/root', { task_name: 'job', message: 'do it' });
    await clock.whenPending(2);
    let quiet = false;
    const whenQuiet = rt.whenQuiet().then(() => {
      quiet = true;
    });
    await Promise.resolve();
    expect(quiet).toBe(false);

    const changes: string[] = [];
    rt.on('change', (change) => changes.push(`${change.path} ${change.state}`));
    const failure = new StoreError('store_failed', 'disk gone');
    store.fail(failure);
    // A second word from the store (or a later failure) changes nothing: the session halted once.
    store.fail(new StoreError('lease_lost', 'taken over'));
    expect(halted).toEqual([failure]);
    await whenQuiet;
    await expect(prompt).rejects.toBe(failure);
    await expect(job.result).rejects.toBe(failure);
    await expect(rt.result('/root/job')).rejects.toBe(failure);
    // A path the session never held is not the store's doing.
    await expect(rt.result('/root/nobody')).rejects.toMatchObject({ code: 'unknown_agent', message: 'no agent at /root/nobody' });

    const refused = { code: 'session_halted', message: 'the session stopped taking work: disk gone' };
    await expect(rt.spawn('/root', { task_name: 'later', message: 'more' })).rejects.toMatchObject(refused);
    expect(() => rt.send('/root', '/root/job', 'hello')).toThrow(expect.objectContaining(refused));
    expect(rt.list().map((a) => a.path)).not.toContain('/root/later');
    // Nothing the stopped actors did after the halt was news: no result reached the host.
    expect(rt.results).toEqual([]);
    // The host still sees each stopped agent leave (a UI would show it working forever), children first.
    expect(changes).toEqual(['/root/job cancelled', '/root cancelled']);
    await rt.whenQuiet();
  });
});
