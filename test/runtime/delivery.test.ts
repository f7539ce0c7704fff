import { describe, expect, it } from 'vitest';
import { manualClock } from '../../src/model/clock.js';
import { scriptedModel } from '../../src/model/scripted.js';
import { createRuntime } from '../../src/runtime/runtime.js';
import { kinds, userTexts, waitForState } from './helpers.js';

describe('delivery and lifetime', () => {
  it('parent delivery returns a receipt at once and the notice later wakes the idle parent', async () => {
    const clock = manualClock();
    const model = scriptedModel({
      '/root': {
        0: [{ toolCalls: [{ name: 'Agent', arguments: { task_name: 'bg', message: 'background job' } }] }, { text: 'started it' }],
        1: [{ text: 'got the notice' }],
      },
      '/root/bg': { 0: [{ text: 'bg result', latencyMs: 10 }] },
    }, { clock });
    const rt = createRuntime({ model, defaults: { delivery: 'parent' } });
    rt.prompt('go');
    // The root finishes its turn while the subagent's request is still pending.
    await clock.whenPending(1);
    await waitForState(rt, '/root', 'running.idle');
    clock.advance(10);
    await rt.whenQuiet();
    const log = rt.transcript('/root')!.log.toArray();
    const receipt = log[2];
    expect(receipt?.kind === 'tool_result' && JSON.parse(receipt.content)).toMatchObject({ agent_id: '/root/bg', status: 'started' });
    // The notice woke the root for a second turn.
    const notice = log.find((e) => e.kind === 'user' && e.origin.kind === 'notice');
    expect(notice?.kind === 'user' && notice.opensTurn).toBe(true);
    expect(notice?.kind === 'user' && notice.text).toContain('bg result');
    expect(kinds(rt, '/root').at(-1)).toBe('assistant');
    expect(rt.results.filter((r) => r.path === '/root/bg')).toHaveLength(1);
  });

  it('a continuable subagent answers its first turn to the caller, takes follow-ups, and reports once when closed', async () => {
    const model = scriptedModel({
      '/root/helper': {
        0: [{ text: 'first answer' }],
        1: [{ text: 'follow-up answer' }],
      },
      '/root': { 1: [{ text: 'root saw the report' }] },
    });
    const rt = createRuntime({ model, defaults: { lifetime: 'continuable' } });
    const handle = await rt.spawn('/root', { task_name: 'helper', message: 'help' });
    const first = await handle.firstReport;
    expect(first).toEqual({ kind: 'turn', text: 'first answer', turn: 0 });
    expect(rt.stateOf('/root/helper')).toBe('running.idle');
    rt.send('/root', '/root/helper', 'one more thing');
    await rt.whenQuiet();
    // The follow-up's answer reached the parent as a turn report (and woke it).
    expect(userTexts(rt, '/root').some((t) => t.includes('follow-up answer'))).toBe(true);
    expect(rt.results).toHaveLength(0);
    rt.close('/root/helper');
    const result = await handle.result;
    expect(result).toMatchObject({ status: 'completed', stopReason: 'closed', text: 'follow-up answer', turns: 2 });
    expect(rt.results.filter((r) => r.path === '/root/helper')).toHaveLength(1);
    expect(() => rt.send('/root', '/root/helper', 'still there?')).toThrow(/closed/);
  });

  it('close during a turn settles at the end of that turn', async () => {
    const clock = manualClock();
    const model = scriptedModel({ '/root/w': { 0: [{ text: 'done', latencyMs: 5 }] } }, { clock });
    const rt = createRuntime({ model, defaults: { lifetime: 'continuable' } });
    const handle = await rt.spawn('/root', { task_name: 'w', message: 'go' });
    await clock.whenPending(1);
    expect(rt.stateOf('/root/w')).toBe('running.working.sampling');
    rt.close('/root/w');
    clock.advance(5);
    await expect(handle.result).resolves.toMatchObject({ status: 'completed', stopReason: 'closed' });
  });

  it('a subagent whose model fails yields one failed result with the error', async () => {
    const model = scriptedModel({ '/root/bad': { 0: [{ fail: 'provider overloaded' }] } });
    const rt = createRuntime({ model });
    const handle = await rt.spawn('/root', { task_name: 'bad', message: 'try' });
    await expect(handle.result).resolves.toMatchObject({ status: 'failed', stopReason: 'model_error', error: 'provider overloaded' });
    expect(rt.slotsInUse).toBe(0);
    expect(rt.results).toHaveLength(1);
  });

  it('maxSteps stops a runaway turn with max_steps', async () => {
    const loop = { toolCalls: [{ name: 'list_agents' }] };
    const model = scriptedModel({ '/root/loop': { 0: [loop, loop, loop, loop] } });
    const rt = createRuntime({ model, defaults: { maxSteps: 2 } });
    const handle = await rt.spawn('/root', { task_name: 'loop', message: 'spin' });
    await expect(handle.result).resolves.toMatchObject({ status: 'failed', stopReason: 'max_steps' });
  });

  it('a role\'s maxSteps (front matter maxTurns) bounds the model requests of its turn, over the runtime default', async () => {
    const loop = { toolCalls: [{ name: 'list_agents' }] };
    const model = scriptedModel({ '/root/loop': { 0: [loop, loop, loop, loop, loop] } });
    const rt = createRuntime({ model, roles: [{ name: 'spinner', maxSteps: 3 }], defaults: { maxSteps: 10 } });
    const handle = await rt.spawn('/root', { task_name: 'loop', message: 'spin', role: 'spinner' });
    await expect(handle.result).resolves.toMatchObject({ status: 'failed', stopReason: 'max_steps', usage: { requests: 3 } });
  });

  it('a summary subagent\'s usage includes what generating its background cost', async () => {
    const model = scriptedModel({
      '/root': { 0: [{ text: 'history' }] },
      '/root/s': { 0: [{ text: 'done', usage: { inputTokens: 3, outputTokens: 1 } }], summary: { text: 'background', usage: { inputTokens: 7, outputTokens: 2 } } },
    });
    const rt = createRuntime({ model });
    rt.prompt('q');
    await rt.whenQuiet();
    const result = await (await rt.spawn('/root', { task_name: 's', message: 'go', context: 'summary' })).result;
    // Two requests: the background and the reply.
    expect(result.usage).toEqual({ inputTokens: 10, outputTokens: 3, cacheReadTokens: 0, cacheWriteTokens: 0, requests: 2, retries: 0 });
  });

  it('results carry their compact metadata and no transcript', async () => {
    let t = 1000;
    const model = scriptedModel({ '/root/m': { 0: [{ text: 'final', usage: { inputTokens: 10, outputTokens: 2, cacheReadTokens: 4 } }] } });
    const rt = createRuntime({ model, now: () => (t += 5), sessionId: 'sess-1' });
    const handle = await rt.spawn('/root', { task_name: 'm', message: 'measure', role: 'analyst' });
    const result = await handle.result;
    expect(Object.keys(result).sort()).toEqual(
      ['context', 'contextMode', 'elapsedMs', 'error', 'path', 'prefix', 'role', 'sessionId', 'status', 'stopReason', 'subtreeUsage', 'text', 'treeId', 'turns', 'usage'].sort(),
    );
    expect(result).toMatchObject({ text: 'final', role: 'analyst', path: '/root/m', treeId: 'sess-1', status: 'completed' });
    expect(result.sessionId).not.toBe('sess-1');
    expect(result.usage).toEqual({ inputTokens: 10, outputTokens: 2, cacheReadTokens: 4, cacheWriteTokens: 0, requests: 1, retries: 0 });
    expect(result.elapsedMs).toBeGreaterThan(0);
  });
});
