/**
 * Aborting a prompt cancels the turn it opened (lifecycle.cancelTurn): a one-shot subagent has
 * no turn to go back from, so it is cancelled and reports that once; an idle agent has no turn,
 * so an abort after its turn ended stops nothing.
 */
import { describe, expect, it } from 'vitest';
import { manualClock } from '../../src/model/clock.js';
import { scriptedModel } from '../../src/model/scripted.js';
import { createRuntime } from '../../src/runtime/runtime.js';

describe('aborting a prompt cancels its turn', () => {
  it('a one-shot subagent prompted mid-turn is cancelled as a whole, once', async () => {
    const clock = manualClock();
    const model = scriptedModel({ '/root/slow': { 0: [{ text: 'never seen', latencyMs: 1_000 }] } }, { clock });
    const rt = createRuntime({ model });
    const handle = await rt.spawn('/root', { task_name: 'slow', message: 'take your time' });
    expect(handle.lifetime).toBe('one-shot');
    await clock.whenPending(1);
    const controller = new AbortController();
    const pending = rt.prompt('and this', { to: '/root/slow', signal: controller.signal });
    controller.abort(new Error('changed my mind'));
    const result = await handle.result;
    expect(result).toMatchObject({ path: '/root/slow', status: 'cancelled', stopReason: 'cancelled', error: 'cancelled by the host: changed my mind' });
    expect(rt.stateOf('/root/slow')).toBeUndefined();
    const outcome = await pending.then((o) => o, (e: unknown) => e);
    expect(outcome).toMatchObject({ path: '/root/slow', status: 'cancelled', stopReason: 'cancelled', error: 'cancelled by the host: changed my mind' });
    expect(rt.slotsInUse).toBe(0);
    expect(clock.pending).toBe(0);
  });

  it('an abort after the turn ended stops nothing', async () => {
    const model = scriptedModel({ '/root': { 0: [{ text: 'done' }], 1: [{ text: 'again' }] } });
    const rt = createRuntime({ model });
    const controller = new AbortController();
    await expect(rt.prompt('hi', { signal: controller.signal })).resolves.toMatchObject({ status: 'completed' });
    controller.abort();
    expect(rt.stateOf('/root')).toBe('running.idle');
    await expect(rt.prompt('next')).resolves.toMatchObject({ status: 'completed', text: 'again' });
  });
});
