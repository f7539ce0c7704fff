/**
 * Which agents are in a turn (directory.inTurn, read by `turnInProgress`): a subagent still
 * reserved (its task hooks running) is not, though it does not wait for input; it is once it
 * works, and is not again once idle.
 */
import { describe, expect, it } from 'vitest';
import { scriptedModel } from '../../src/model/scripted.js';
import { createRuntime } from '../../src/runtime/runtime.js';
import { deferred, waitForState } from './helpers.js';

describe('a turn in progress', () => {
  it('is none while a subagent is reserved, its turn while it works, none once idle', async () => {
    const gate = deferred<{ allow: true }>();
    const reply = deferred<void>();
    const model = scriptedModel({ '/root/r': { 0: [async () => (await reply.promise, { text: 'worked' })] } });
    const rt = createRuntime({ model, taskHooks: [() => gate.promise] });
    await rt.spawn('/root', { task_name: 'r', message: 'x' }, { lifetime: 'continuable' });
    expect(rt.stateOf('/root/r')).toBe('reserved.runningHooks');
    expect(rt.turnInProgress('/root/r')).toBeUndefined();
    gate.resolve({ allow: true });
    await waitForState(rt, '/root/r', 'running.working');
    const turn = rt.turnInProgress('/root/r');
    expect(turn).toBeDefined();
    reply.resolve();
    await expect(turn).resolves.toMatchObject({ path: '/root/r', turn: 0, status: 'completed', text: 'worked' });
    expect(rt.stateOf('/root/r')).toBe('running.idle');
    expect(rt.turnInProgress('/root/r')).toBeUndefined();
  });
});
