/**
 * A subagent of a host-run root whose actor crashes reports like any other (lifecycle
 * reportForCrashed): its failure is handed over to the host as a notice, and the root's
 * machine, whose loop the host runs, never samples.
 */
import { describe, expect, it } from 'vitest';
import { createRuntime } from '../../src/index.js';
import { manualClock } from '../../src/model/clock.js';
import { scriptedModel } from '../../src/testing/index.js';
import { actorRefs, collectingHostRoot } from './helpers.js';

describe("a host-run root's subagent whose actor crashes", () => {
  it('is handed over to the host as a failure notice; the root never samples', async () => {
    const clock = manualClock();
    const { refs, inspect } = actorRefs();
    const { hostRoot, delivered } = collectingHostRoot();
    const model = scriptedModel({ '/root/bg': { 0: [{ text: 'late', latencyMs: 1_000 }] } }, { clock });
    const rt = createRuntime({ model, inspect, hostRoot });
    const handle = await rt.spawn('/root', { task_name: 'bg', message: 'work' }, { delivery: 'parent' });
    await clock.whenPending(1);
    // An error event nobody handles makes XState fail the actor: only a bug could do this.
    refs.get('/root/bg')!.send({ type: 'xstate.error.actor.bogus', error: new Error('boom') });
    await expect(handle.result).resolves.toMatchObject({ status: 'failed', stopReason: 'internal_error' });
    await rt.whenQuiet();
    expect(delivered.map((d) => d.origin)).toEqual([{ kind: 'notice', from: '/root/bg' }]);
    expect(delivered[0]!.text).toContain('internal error in /root/bg: boom');
    expect(model.calls.some((c) => c.agentPath === '/root')).toBe(false);
    expect(rt.stateOf('/root')).toBe('running.idle');
  });
});
