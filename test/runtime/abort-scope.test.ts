/**
 * Aborting a prompt cancels what its turn affects (lifecycle.cancelTurn with the router's
 * selection): the subagents the turn started, and older ones still working; an older subagent
 * that sits idle is left alone, and the agent itself goes idle, its turn reported last.
 */
import { describe, expect, it } from 'vitest';
import { manualClock } from '../../src/model/clock.js';
import { scriptedModel } from '../../src/model/scripted.js';
import { createRuntime } from '../../src/runtime/runtime.js';

describe('aborting a prompt', () => {
  it('cancels the subagents its turn started and older busy ones, not an older idle one', async () => {
    const clock = manualClock();
    const model = scriptedModel(
      {
        '/root': { 0: [{ toolCalls: [{ name: 'Agent', arguments: { task_name: 'fresh', message: 'take your time' } }] }] },
        '/root/fresh': { 0: [{ text: 'never seen', latencyMs: 1_000 }] },
        '/root/busy': { 0: [{ text: 'never seen', latencyMs: 1_000 }] },
        '/root/idle': { 0: [{ text: 'ready' }] },
      },
      { clock },
    );
    const rt = createRuntime({ model });
    const idle = await rt.spawn('/root', { task_name: 'idle', message: 'get ready' }, { lifetime: 'continuable' });
    await expect(idle.firstReport).resolves.toMatchObject({ kind: 'turn', text: 'ready' });
    const busy = await rt.spawn('/root', { task_name: 'busy', message: 'keep working' });
    await clock.whenPending(1);
    const controller = new AbortController();
    const pending = rt.prompt('start', { signal: controller.signal });
    await clock.whenPending(2);
    controller.abort(new Error('enough'));
    const outcome = await pending;
    expect(outcome.status).toBe('cancelled');
    expect(outcome.cancelled?.stopped.map((s) => s.path)).toEqual(['/root/busy', '/root/fresh', '/root']);
    expect(outcome.cancelled?.stopped.at(-1)).toEqual({ path: '/root', state: expect.stringMatching(/^running\.working/) });
    await expect(busy.result).resolves.toMatchObject({ status: 'cancelled' });
    expect(rt.stateOf('/root/idle')).toBe('running.idle');
    expect(rt.stateOf('/root')).toBe('running.idle');
  });
});
