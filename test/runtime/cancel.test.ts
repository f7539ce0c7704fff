import { describe, expect, it } from 'vitest';
import type { Summarizer } from '../../src/model/summarizer.js';
import { manualClock } from '../../src/model/clock.js';
import { scriptedModel } from '../../src/model/scripted.js';
import { ZERO_USAGE } from '../../src/model/adapter.js';
import { createRuntime } from '../../src/runtime/runtime.js';
import { defineRuntimeTool } from '../../src/runtime/runtime.js';
import { z } from 'zod';
import { deferred, waitForState } from './helpers.js';

describe('cancellation', () => {
  it('in reserved (hooks running): nothing runs, the slot is freed, one cancelled result', async () => {
    const gate = deferred<{ allow: true }>();
    const model = scriptedModel({});
    const rt = createRuntime({ model, taskHooks: [() => gate.promise] });
    const handle = await rt.spawn('/root', { task_name: 'r', message: 'x' });
    const report = rt.cancel('/root/r');
    expect(report.stopped).toEqual([{ path: '/root/r', state: 'reserved.runningHooks' }]);
    gate.resolve({ allow: true });
    await expect(handle.result).resolves.toMatchObject({ status: 'cancelled', stopReason: 'cancelled' });
    await rt.whenQuiet();
    expect(model.calls).toHaveLength(0);
    expect(rt.slotsInUse).toBe(0);
  });

  it('while a summary is generating: aborts it, and a late summary never dispatches the subagent', async () => {
    const late = deferred<{ text: string; usage: typeof ZERO_USAGE }>();
    let aborted = false;
    const summarizer: Summarizer = {
      summarize: (_input, signal) => {
        signal.addEventListener('abort', () => (aborted = true));
        return late.promise;
      },
    };
    const model = scriptedModel({ '/root': { 0: [{ text: 'hello' }] } });
    const rt = createRuntime({ model, summarizer });
    rt.prompt('some history');
    await rt.whenQuiet();
    const handle = await rt.spawn('/root', { task_name: 's', message: 'summarize me', context: 'summary' });
    expect(rt.stateOf('/root/s')).toBe('preparingSummary');
    expect(rt.cancel('/root/s').stopped).toEqual([{ path: '/root/s', state: 'preparingSummary' }]);
    expect(aborted).toBe(true);
    late.resolve({ text: 'too late', usage: ZERO_USAGE });
    const result = await handle.result;
    await late.promise;
    await rt.whenQuiet();
    expect(result).toMatchObject({ status: 'cancelled', text: '' });
    expect(model.calls.filter((c) => c.agentPath === '/root/s')).toHaveLength(0);
    // It never ran: its final dialogue holds no background and no answer.
    expect(rt.list().map((a) => a.path)).toEqual(['/root']);
    expect(rt.transcript('/root/s')?.log.toArray().some((e) => e.kind === 'assistant' || (e.kind === 'user' && e.text.includes('too late'))) ?? false).toBe(false);
    expect(rt.slotsInUse).toBe(0);
  });

  it('while sampling: aborts the model request and writes no reply', async () => {
    const clock = manualClock();
    const model = scriptedModel({ '/root/m': { 0: [{ text: 'never', latencyMs: 100 }] } }, { clock });
    const rt = createRuntime({ model });
    const handle = await rt.spawn('/root', { task_name: 'm', message: 'x' });
    await clock.whenPending(1);
    expect(rt.cancel('/root/m').stopped).toEqual([{ path: '/root/m', state: 'running.working.sampling' }]);
    expect(clock.pending).toBe(0); // the sleep was aborted with the request
    clock.advance(1000);
    await expect(handle.result).resolves.toMatchObject({ status: 'cancelled', text: '' });
  });

  it('while acting: aborts the tool call, and its late output is never written', async () => {
    const toolDone = deferred<string>();
    let signalAborted = false;
    const slow = defineRuntimeTool({
      name: 'slow',
      description: 'A slow tool.',
      schema: z.object({}),
      execute: (_args, ctx) => {
        ctx.signal.addEventListener('abort', () => (signalAborted = true));
        return toolDone.promise;
      },
    });
    const model = scriptedModel({ '/root/t': { 0: [{ toolCalls: [{ name: 'slow' }] }, { text: 'after' }] } });
    const rt = createRuntime({ model, tools: [slow] });
    const handle = await rt.spawn('/root', { task_name: 't', message: 'x' });
    await waitForState(rt, '/root/t', 'running.working.acting');
    expect(rt.cancel('/root/t').stopped).toEqual([{ path: '/root/t', state: 'running.working.acting' }]);
    expect(signalAborted).toBe(true);
    toolDone.resolve('late output');
    const result = await handle.result;
    expect(result.status).toBe('cancelled');
    expect(model.calls).toHaveLength(1);
  });

  it('while idle (continuable): one cancelled result', async () => {
    const model = scriptedModel({ '/root/c': { 0: [{ text: 'idle now' }] } });
    const rt = createRuntime({ model, defaults: { lifetime: 'continuable' } });
    const handle = await rt.spawn('/root', { task_name: 'c', message: 'x' });
    await handle.firstReport;
    expect(rt.cancel('/root/c').stopped).toEqual([{ path: '/root/c', state: 'running.idle' }]);
    await expect(handle.result).resolves.toMatchObject({ status: 'cancelled', text: 'idle now' });
  });

  it('a subtree is cancelled children first, with a report of every path and its state', async () => {
    const model = scriptedModel({
      '/root/lead': { 0: [{ toolCalls: [{ name: 'Agent', arguments: { task_name: 'worker', message: 'dig' } }] }] },
      '/root/lead/worker': {
        0: [{ toolCalls: [{ name: 'Agent', arguments: { task_name: 'deep', message: 'dig deeper' } }] }],
      },
      '/root/lead/worker/deep': { 0: [{ text: 'never', latencyMs: 1e9 }] },
    });
    const rt = createRuntime({ model });
    const results: string[] = [];
    rt.on('result', (r) => results.push(`${r.path}:${r.status}`));
    const handle = await rt.spawn('/root', { task_name: 'lead', message: 'organize' });
    await waitForState(rt, '/root/lead/worker/deep', 'running.working.sampling');
    const report = rt.cancel('/root/lead');
    expect(report.stopped).toEqual([
      { path: '/root/lead/worker/deep', state: 'running.working.sampling' },
      { path: '/root/lead/worker', state: 'running.working.acting' },
      { path: '/root/lead', state: 'running.working.acting' },
    ]);
    expect(results).toEqual(['/root/lead/worker/deep:cancelled', '/root/lead/worker:cancelled', '/root/lead:cancelled']);
    await handle.result;
    expect(rt.slotsInUse).toBe(0);
    expect(rt.list().map((a) => a.path)).toEqual(['/root']);
  });

  it('cancelling the root stops the whole session', async () => {
    const model = scriptedModel({ '/root/**': { 0: [{ text: 'x', latencyMs: 1e9 }] } });
    const rt = createRuntime({ model, defaults: { delivery: 'parent' } });
    await rt.spawn('/root', { task_name: 'a', message: 'x' });
    await rt.spawn('/root', { task_name: 'b', message: 'x' });
    const report = rt.stop();
    expect(report.stopped.map((s) => s.path)).toEqual(['/root/a', '/root/b', '/root']);
    expect(rt.stateOf('/root')).toBeUndefined();
    expect(rt.results.map((r) => r.path).sort()).toEqual(['/root', '/root/a', '/root/b']);
    await expect(rt.spawn('/root', { task_name: 'c', message: 'x' })).rejects.toThrow(/not running/);
  });

  it('a parent that settles cancels the subagents it left running, and each reports once', async () => {
    const model = scriptedModel({
      '/root/p': { 0: [{ toolCalls: [{ name: 'Agent', arguments: { task_name: 'bg', message: 'x' } }] }, { text: 'p done' }] },
      '/root/p/bg': { 0: [{ text: 'never', latencyMs: 1e9 }] },
    });
    const rt = createRuntime({ model, defaults: { delivery: 'parent' } });
    const handle = await rt.spawn('/root', { task_name: 'p', message: 'x' });
    await expect(handle.result).resolves.toMatchObject({ status: 'completed' });
    expect(rt.results.map((r) => `${r.path}:${r.status}`)).toEqual(['/root/p/bg:cancelled', '/root/p:completed']);
    expect(rt.slotsInUse).toBe(0);
  });
});

describe('capacity and names', () => {
  it('two parents racing for the last slot in the same tick: exactly one wins, the other gets a clear error', async () => {
    const model = scriptedModel({
      '/root/a': { 0: [{ toolCalls: [{ name: 'Agent', arguments: { task_name: 'x', message: 'race' } }] }, { text: 'a' }] },
      '/root/b': { 0: [{ toolCalls: [{ name: 'Agent', arguments: { task_name: 'x', message: 'race' } }] }, { text: 'b' }] },
      '/root/*/x': { 0: [{ text: 'won' }] },
    });
    const rt = createRuntime({ model, limits: { maxTotal: 3 }, defaults: { delivery: 'parent' } });
    const [a, b] = await Promise.all([rt.spawn('/root', { task_name: 'a', message: 'go' }), rt.spawn('/root', { task_name: 'b', message: 'go' })]);
    await Promise.all([a.result, b.result]);
    await rt.whenQuiet();
    const xs = rt.results.filter((r) => r.path.endsWith('/x'));
    expect(xs).toHaveLength(1);
    const loser = xs[0]!.path === '/root/a/x' ? '/root/b' : '/root/a';
    const loserRequest = model.calls.find((c) => c.agentPath === loser && c.step === 1)!.request;
    const err = loserRequest.messages.at(2);
    expect(err?.kind === 'tool_result' && err.content).toMatch(/^Error \(capacity\): cannot start \/root\/[ab]\/x: the runtime already runs 3 of at most 3; wait for one to finish$/);
    expect(rt.slotsInUse).toBe(0);
  });

  it('limits: depth, per-agent fan-out, duplicate live names and bad names are refused with nothing held', async () => {
    const model = scriptedModel({ '**': { 0: [{ text: 'x', latencyMs: 1e9 }] } });
    const rt = createRuntime({ model, limits: { maxDepth: 1, maxChildren: 1 }, defaults: { delivery: 'parent' } });
    await rt.spawn('/root', { task_name: 'one', message: 'x' });
    await expect(rt.spawn('/root', { task_name: 'one', message: 'x' })).rejects.toMatchObject({ code: 'name_taken' });
    await expect(rt.spawn('/root', { task_name: 'two', message: 'x' })).rejects.toMatchObject({ code: 'capacity' });
    await waitForState(rt, '/root/one', 'running');
    await expect(rt.spawn('/root/one', { task_name: 'deep', message: 'x' })).rejects.toMatchObject({ code: 'depth_limit' });
    await expect(rt.spawn('/root', { task_name: 'Bad Name', message: 'x' })).rejects.toMatchObject({ code: 'invalid_arguments' });
    expect(rt.slotsInUse).toBe(1);
    rt.stop();
    expect(rt.slotsInUse).toBe(0);
  });
});
