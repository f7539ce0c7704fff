import { describe, expect, it } from 'vitest';
import { scriptedModel } from '../../src/model/scripted.js';
import { createRuntime } from '../../src/runtime/runtime.js';
import type { Summarizer } from '../../src/model/summarizer.js';
import { ZERO_USAGE, type ReplyUsage } from '../../src/model/adapter.js';
import { actorRefs, deferred } from './helpers.js';

describe('robustness', () => {
  it('a reply repeating a tool call id ends that subagent as model_error; its parent and the session go on', async () => {
    const model = scriptedModel({
      '/root': {
        0: [{ toolCalls: [{ name: 'Agent', arguments: { task_name: 'research', message: 'look' } }] }, { text: 'root carries on' }],
        1: [{ text: 'still here' }],
      },
      '/root/research': { 0: [{ toolCalls: [{ name: 'list_agents', id: 'dup' }, { name: 'list_agents', id: 'dup' }] }] },
    });
    const rt = createRuntime({ model });
    rt.prompt('go');
    await rt.whenQuiet();
    const research = rt.results.find((r) => r.path === '/root/research');
    expect(research).toMatchObject({ status: 'failed', stopReason: 'model_error' });
    expect(research?.error).toMatch(/the model returned a reply the dialogue cannot hold/);
    expect(rt.slotsInUse).toBe(0);
    expect(rt.stateOf('/root')).toBe('running.idle');
    rt.prompt('are you there?');
    await rt.whenQuiet();
    const last = rt.transcript('/root')!.at(-1);
    expect(last?.kind === 'assistant' && last.text).toBe('still here');
  });

  it('an agent whose actor crashes still yields one failed result and frees its slot', async () => {
    const { refs, inspect } = actorRefs();
    const model = scriptedModel({ '/root/w': { 0: [{ text: 'late', latencyMs: 1e9 }] } });
    const rt = createRuntime({ model, inspect });
    const handle = await rt.spawn('/root', { task_name: 'w', message: 'work' });
    // An error event nobody handles makes XState fail the actor: only a bug could do this.
    refs.get('/root/w')!.send({ type: 'xstate.error.actor.bogus', error: new Error('boom') });
    await expect(handle.result).resolves.toMatchObject({ status: 'failed', stopReason: 'internal_error', error: 'internal error in /root/w: boom' });
    expect(rt.slotsInUse).toBe(0);
    expect(rt.results).toHaveLength(1);
    expect(rt.stateOf('/root')).toBe('running.idle');
  });

  it('a throwing host listener does not break the agent that triggered it', async () => {
    const model = scriptedModel({ '/root/x': { 0: [{ text: 'fine' }] } });
    const errors: unknown[] = [];
    const rt = createRuntime({ model, onListenerError: (error) => errors.push(error) });
    rt.on('result', () => {
      throw new Error('listener bug');
    });
    const result = await (await rt.spawn('/root', { task_name: 'x', message: 'go' })).result;
    expect(result.status).toBe('completed');
    expect(errors).toHaveLength(1);
    expect(rt.slotsInUse).toBe(0);
  });

  it('a host compaction finished after a turn ran is refused, so that turn is never erased', async () => {
    const gate = deferred<{ text: string; usage: typeof ZERO_USAGE }>();
    const summarizer: Summarizer = { summarize: () => gate.promise };
    const model = scriptedModel({ '/root': { 0: [{ text: 'a1' }], 1: [{ text: 'a2' }] } });
    const rt = createRuntime({ model, summarizer });
    rt.prompt('q1');
    await rt.whenQuiet();
    const compaction = rt.compact('/root');
    rt.prompt('q2');
    await rt.whenQuiet();
    gate.resolve({ text: 'summary of q1 only', usage: ZERO_USAGE });
    await compaction;
    const dialogue = rt.transcript('/root')!;
    expect(dialogue.latestCompaction()).toBeUndefined();
    expect(dialogue.effective().toArray().map((e) => (e.kind === 'user' || e.kind === 'assistant' ? e.text : e.kind))).toEqual(['q1', 'a1', 'q2', 'a2']);
  });

  it('a refused host compaction is still counted: the summary was paid for', async () => {
    const gate = deferred<{ text: string; usage: ReplyUsage }>();
    const summarizer: Summarizer = { summarize: () => gate.promise };
    const model = scriptedModel({ '/root': { 0: [{ text: 'a1' }], 1: [{ text: 'a2' }] } });
    const rt = createRuntime({ model, summarizer });
    rt.prompt('q1');
    await rt.whenQuiet();
    const compaction = rt.compact('/root');
    rt.prompt('q2');
    await rt.whenQuiet();
    const before = rt.usage();
    gate.resolve({ text: 'summary of q1 only', usage: { inputTokens: 700, outputTokens: 40, cacheReadTokens: 0, cacheWriteTokens: 0 } });
    await compaction;
    expect(rt.transcript('/root')!.latestCompaction()).toBeUndefined();
    expect(rt.usage()).toMatchObject({ inputTokens: before.inputTokens + 700, outputTokens: before.outputTokens + 40, requests: before.requests + 1 });
  });
});
