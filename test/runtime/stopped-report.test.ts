/**
 * A root whose actor is stopped from outside (`stop()` on the actor an inspection observer was
 * shown) without reaching a final state still yields its one result (lifecycle.watch's
 * `complete`): cancelled, "was stopped", completed by the runtime, to the prompt waiting on it,
 * with one `cancelled` change; its subagent is cancelled first by its supervisor, and nothing
 * stays held.
 */
import { describe, expect, it } from 'vitest';
import { manualClock } from '../../src/model/clock.js';
import { scriptedModel } from '../../src/model/scripted.js';
import { createRuntime } from '../../src/runtime/runtime.js';
import type { AgentResult } from '../../src/runtime/types.js';
import { actorRefs } from './helpers.js';

const tokens = (inputTokens: number, outputTokens: number) => ({ inputTokens, outputTokens, cacheReadTokens: 0, cacheWriteTokens: 0 });

describe('a root whose actor is stopped from outside', () => {
  it('reports once: cancelled, was stopped, its subtree usage counted, after its subagent', async () => {
    const clock = manualClock();
    const { refs, inspect } = actorRefs();
    const model = scriptedModel(
      {
        '/root': { 0: [{ toolCalls: [{ name: 'Agent', arguments: { task_name: 'w', message: 'work' } }], usage: tokens(3, 1) }] },
        '/root/w': { 0: [{ toolCalls: [{ name: 'list_agents', arguments: {} }], usage: tokens(7, 1) }, { text: 'late', latencyMs: 1_000 }] },
      },
      { clock },
    );
    const rt = createRuntime({ model, inspect });
    const results: AgentResult[] = [];
    rt.on('result', (r) => results.push(r));
    const changes: string[] = [];
    rt.on('change', (change) => changes.push(`${change.path} ${change.state}`));
    const turn = rt.prompt('delegate');
    await clock.whenPending(1);
    changes.length = 0;
    refs.get('/root')!.stop();
    const outcome = await turn;
    expect(results.map((r) => [r.path, r.status, r.stopReason, r.error])).toEqual([
      ['/root/w', 'cancelled', 'cancelled', expect.stringContaining('stopped')],
      ['/root', 'cancelled', 'cancelled', '/root was stopped'],
    ]);
    expect(results[1]).toMatchObject({ usage: { inputTokens: 3 }, subtreeUsage: { inputTokens: 10 } });
    expect(outcome).toMatchObject({ path: '/root', status: 'cancelled', stopReason: 'cancelled', error: '/root was stopped' });
    expect(changes.filter((change) => change.startsWith('/root '))).toEqual(['/root cancelled']);
    await rt.whenQuiet();
    expect(rt.list()).toEqual([]);
    expect(rt.slotsInUse).toBe(0);
  });
});
