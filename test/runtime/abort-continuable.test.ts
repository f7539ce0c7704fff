/**
 * Aborting a prompt to a continuable subagent mid-turn (lifecycle.cancelTurn) interrupts that
 * turn only: the subagent goes idle, is not cancelled, and takes the next prompt.
 */
import { describe, expect, it } from 'vitest';
import { manualClock } from '../../src/model/clock.js';
import { scriptedModel } from '../../src/model/scripted.js';
import { createRuntime } from '../../src/runtime/runtime.js';

describe('aborting a prompt to a continuable subagent', () => {
  it('interrupts its turn; it goes idle and answers the next prompt', async () => {
    const clock = manualClock();
    const model = scriptedModel({ '/root/rev': { 0: [{ text: 'ready' }], 1: [{ text: 'never seen', latencyMs: 1_000 }], 2: [{ text: 'again' }] } }, { clock });
    const rt = createRuntime({ model });
    const rev = await rt.spawn('/root', { task_name: 'rev', message: 'get ready' }, { lifetime: 'continuable' });
    await expect(rev.firstReport).resolves.toMatchObject({ kind: 'turn', text: 'ready' });
    const controller = new AbortController();
    const pending = rt.prompt('take your time', { to: '/root/rev', signal: controller.signal });
    await clock.whenPending(1);
    controller.abort(new Error('enough'));
    const outcome = await pending;
    expect(outcome).toMatchObject({ path: '/root/rev', turn: 1, status: 'cancelled' });
    expect(outcome.cancelled?.stopped).toEqual([{ path: '/root/rev', state: 'running.working.sampling' }]);
    expect(rt.stateOf('/root/rev')).toBe('running.idle');
    await expect(rt.prompt('once more', { to: '/root/rev' })).resolves.toMatchObject({ status: 'completed', text: 'again' });
    expect(rt.list().map((a) => a.path)).toEqual(['/root', '/root/rev']);
  });
});
