/**
 * A subagent whose actor crashes (a bug, never a model's doing) still reports to its parent
 * (lifecycle.reportForCrashed): the parent's Agent call gets the failed result, and the
 * parent's turn goes on with it; a crash while the parent is gone reports to nobody.
 */
import { describe, expect, it } from 'vitest';
import { manualClock } from '../../src/model/clock.js';
import { scriptedModel } from '../../src/model/scripted.js';
import { createRuntime } from '../../src/runtime/runtime.js';
import { actorRefs } from './helpers.js';

describe('a subagent whose actor crashes', () => {
  it("reports the failure to its parent's Agent call, and the parent's turn goes on", async () => {
    const clock = manualClock();
    const { refs, inspect } = actorRefs();
    const model = scriptedModel(
      {
        '/root': { 0: [{ toolCalls: [{ name: 'Agent', arguments: { task_name: 'w', message: 'work' } }] }, (request) => ({ text: `saw: ${JSON.stringify(request.messages.at(-1))}` })] },
        '/root/w': { 0: [{ text: 'late', latencyMs: 1_000 }] },
      },
      { clock },
    );
    const rt = createRuntime({ model, inspect });
    const changes: string[] = [];
    rt.on('change', (change) => {
      if (change.path === '/root/w') changes.push(change.state);
    });
    const turn = rt.prompt('delegate');
    await clock.whenPending(1);
    // An error event nobody handles makes XState fail the actor: only a bug could do this.
    refs.get('/root/w')!.send({ type: 'xstate.error.actor.bogus', error: new Error('boom') });
    const outcome = await turn;
    expect(outcome).toMatchObject({ status: 'completed', text: expect.stringContaining('internal error in /root/w: boom') });
    expect(outcome.subagents.map((r) => [r.path, r.status, r.stopReason])).toEqual([['/root/w', 'failed', 'internal_error']]);
    expect(changes.at(-1)).toBe('settled');
    await rt.whenQuiet();
    expect(rt.slotsInUse).toBe(0);
  });
});
