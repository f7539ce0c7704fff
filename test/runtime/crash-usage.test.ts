/**
 * An agent whose actor crashes still gets a result the runtime completes (lifecycle.finished
 * through complete): its usage from its account, its subtree's with what its settled subagent
 * spent, and the elapsed time by the runtime's clock, not the bare figures its context holds.
 */
import { describe, expect, it } from 'vitest';
import { manualClock } from '../../src/model/clock.js';
import { scriptedModel } from '../../src/model/scripted.js';
import { createRuntime } from '../../src/runtime/runtime.js';
import type { AgentResult } from '../../src/runtime/types.js';
import { actorRefs } from './helpers.js';

const tokens = (inputTokens: number, outputTokens: number) => ({ inputTokens, outputTokens, cacheReadTokens: 0, cacheWriteTokens: 0 });

describe('a crashed agent', () => {
  it("gets a completed result: its subtree's usage counts its subagent's", async () => {
    const clock = manualClock();
    const { refs, inspect } = actorRefs();
    const model = scriptedModel(
      {
        '/root': { 0: [{ toolCalls: [{ name: 'Agent', arguments: { task_name: 'w', message: 'work' } }] }, { text: 'root saw it' }] },
        '/root/w': {
          0: [
            { toolCalls: [{ name: 'Agent', arguments: { task_name: 'g', message: 'help' } }], usage: tokens(10, 1) },
            { text: 'late', latencyMs: 1_000 },
          ],
        },
        '/root/w/g': { 0: [{ text: 'helped', usage: tokens(5, 2) }] },
      },
      { clock },
    );
    const rt = createRuntime({ model, inspect });
    const results: AgentResult[] = [];
    rt.on('result', (r) => results.push(r));
    const turn = rt.prompt('delegate');
    await clock.whenPending(1);
    expect(results.map((r) => r.path)).toEqual(['/root/w/g']);
    // An error event nobody handles makes XState fail the actor: only a bug could do this.
    refs.get('/root/w')!.send({ type: 'xstate.error.actor.bogus', error: new Error('boom') });
    await turn;
    const crashed = results.find((r) => r.path === '/root/w');
    expect(crashed).toMatchObject({ status: 'failed', stopReason: 'internal_error', usage: { inputTokens: 10, outputTokens: 1 }, subtreeUsage: { inputTokens: 15, outputTokens: 3 } });
  });
});
