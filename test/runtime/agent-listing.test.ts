/**
 * What the runtime says about its agents (the directory): `list()` names each live agent with
 * its role, state, context, delivery, lifetime, last task, time since its reservation by the
 * runtime's clock and turns finished; `sessionIdOf` and `transcript` answer for live agents and
 * for settled ones whose result is retained; a result's elapsed time is never negative.
 */
import { describe, expect, it } from 'vitest';
import { scriptedModel } from '../../src/model/scripted.js';
import { createRuntime } from '../../src/runtime/runtime.js';

describe('the runtime lists its agents', () => {
  it('with role, state, task, elapsed time since reservation and turns finished', async () => {
    let now = 1_000;
    const model = scriptedModel({ '/root/rev': { 0: [{ text: 'first' }], 1: [{ text: 'second' }] } });
    const rt = createRuntime({ model, now: () => now, roles: [{ name: 'reviewer', description: 'Reviews.' }] });
    now = 1_100;
    const rev = await rt.spawn('/root', { task_name: 'rev', message: 'review it', role: 'reviewer' }, { lifetime: 'continuable' });
    await expect(rev.firstReport).resolves.toMatchObject({ kind: 'turn', text: 'first' });
    await rt.whenQuiet();
    now = 1_600;
    expect(rt.list()).toEqual([
      { path: '/root', role: undefined, state: 'running.idle', context: 'none', delivery: 'caller', lifetime: 'continuable', lastTask: null, elapsedMs: 600, turns: 0 },
      { path: '/root/rev', role: 'reviewer', state: 'running.idle', context: 'none', delivery: 'caller', lifetime: 'continuable', lastTask: 'review it', elapsedMs: 500, turns: 1 },
    ]);
    await rt.prompt('again', { to: '/root/rev' });
    expect(rt.list()[1]).toMatchObject({ path: '/root/rev', turns: 2 });
  });

  it('session ids and transcripts of live agents and of settled ones while retained', async () => {
    let now = 0;
    const model = scriptedModel({ '/root/job': { 0: [{ text: 'done' }] } });
    const rt = createRuntime({ model, now: () => now });
    const job = await rt.spawn('/root', { task_name: 'job', message: 'do' });
    const live = rt.sessionIdOf('/root/job');
    expect(live).toMatch(/^agent_/);
    expect(live).not.toBe(rt.sessionIdOf('/root'));
    now = 250;
    const result = await job.result;
    expect(result.elapsedMs).toBe(250);
    expect(rt.stateOf('/root/job')).toBeUndefined();
    // Settled: answered from the retained result and final dialogue.
    expect(rt.sessionIdOf('/root/job')).toBe(live);
    expect(result.sessionId).toBe(live);
    expect(rt.transcript('/root/job')?.log.toArray().map((e) => e.kind)).toEqual(['user', 'assistant']);
    expect(rt.release('/root/job')).toBe(true);
    expect(rt.sessionIdOf('/root/job')).toBeUndefined();
    expect(rt.transcript('/root/job')).toBeUndefined();
    expect(rt.sessionIdOf('/root/nobody')).toBeUndefined();
  });

  it("a clock that steps back gives a result an elapsed time of 0, not a negative one", async () => {
    let now = 5_000;
    const rt = createRuntime({ model: scriptedModel({ '/root/job': { 0: [{ text: 'done' }] } }), now: () => now });
    const job = await rt.spawn('/root', { task_name: 'job', message: 'do' });
    now = 4_000;
    await expect(job.result).resolves.toMatchObject({ status: 'completed', elapsedMs: 0 });
  });
});
