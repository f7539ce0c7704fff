import { describe, expect, it } from 'vitest';
import { scriptedModel } from '../../src/model/scripted.js';
import { createRuntime } from '../../src/runtime/runtime.js';
import type { TurnReport } from '../../src/runtime/types.js';

const tokens = (inputTokens: number, outputTokens: number, cacheReadTokens = 0) => ({ inputTokens, outputTokens, cacheReadTokens, cacheWriteTokens: 0 });

/** /root delegates to /root/a, which delegates to /root/a/b; every reply has explicit usage. */
function tree() {
  return scriptedModel({
    '/root': {
      0: [
        { toolCalls: [{ name: 'Agent', arguments: { task_name: 'a', message: 'do a' } }], usage: tokens(100, 10) },
        { text: 'root done', usage: tokens(200, 20) },
      ],
    },
    '/root/a': {
      0: [
        { toolCalls: [{ name: 'Agent', arguments: { task_name: 'b', message: 'do b' } }], usage: tokens(30, 3) },
        { text: 'a done', usage: tokens(40, 4) },
      ],
    },
    '/root/a/b': { 0: [{ text: 'b done', usage: tokens(5, 1, 2) }] },
  });
}

describe('usage roll-up', () => {
  it('every result carries its own usage and its subtree total; the root turn and runtime.usage() carry the session total', async () => {
    const rt = createRuntime({ model: tree() });
    const turns: TurnReport[] = [];
    rt.on('turn', (t) => turns.push(t));
    rt.prompt('go');
    await rt.whenQuiet();

    const b = await rt.result('/root/a/b');
    const a = await rt.result('/root/a');
    expect(b.usage).toMatchObject({ inputTokens: 5, outputTokens: 1, cacheReadTokens: 2, requests: 1, retries: 0 });
    expect(b.subtreeUsage).toEqual(b.usage);
    expect(a.usage).toMatchObject({ inputTokens: 70, outputTokens: 7, requests: 2 });
    expect(a.subtreeUsage).toMatchObject({ inputTokens: 75, outputTokens: 8, cacheReadTokens: 2, requests: 3 });

    const rootTurn = turns.find((t) => t.path === '/root')!;
    expect(rootTurn.usage).toMatchObject({ inputTokens: 300, outputTokens: 30, requests: 2 });
    expect(rootTurn.subtreeUsage).toMatchObject({ inputTokens: 375, outputTokens: 38, cacheReadTokens: 2, requests: 5, retries: 0 });
    expect(rt.usage()).toEqual(rootTurn.subtreeUsage);
    expect(rt.usage()).not.toHaveProperty('cost');
  });

  it('prices every reported usage when the host gives a price table', async () => {
    // Per million tokens: input 2, output 10, cache read 0.5.
    const rt = createRuntime({ model: tree(), modelId: 'm', prices: { m: { input: 2, output: 10, cacheRead: 0.5 } } });
    rt.prompt('go');
    await rt.whenQuiet();
    const b = await rt.result('/root/a/b');
    // 3 plain input, 2 cache read, 1 output.
    expect(b.usage.cost).toBeCloseTo((3 * 2 + 2 * 0.5 + 1 * 10) / 1e6, 12);
    const a = await rt.result('/root/a');
    expect(a.usage.cost).toBeCloseTo((70 * 2 + 7 * 10) / 1e6, 12);
    expect(a.subtreeUsage.cost).toBeCloseTo((70 * 2 + 7 * 10 + 3 * 2 + 2 * 0.5 + 10) / 1e6, 12);
    expect(rt.usage().cost).toBeCloseTo((370 * 2 + 37 * 10 + 3 * 2 + 2 * 0.5 + 10) / 1e6, 12);
  });

  it('leaves the cost out of any total that includes spending at a model with no price', async () => {
    const model = scriptedModel({
      '/root': {
        0: [{ toolCalls: [{ name: 'Agent', arguments: { task_name: 'x', message: 'go', model: 'pricey' } }], usage: tokens(10, 1) }, { text: 'ok', usage: tokens(10, 1) }],
      },
      '/root/x': { 0: [{ text: 'x done', usage: tokens(1, 1) }] },
    });
    const rt = createRuntime({ model, modelId: 'm', prices: { m: { input: 1, output: 1 } } });
    rt.prompt('go');
    await rt.whenQuiet();
    const x = await rt.result('/root/x');
    expect(x.usage).not.toHaveProperty('cost');
    expect(rt.usage()).not.toHaveProperty('cost');
    expect(rt.usage().requests).toBe(3);
  });

  it('counts a compaction the host asked for in the compacted agent\'s usage', async () => {
    const model = scriptedModel({
      '/root': { 0: [{ text: 'a1', usage: tokens(10, 1) }], 1: [{ text: 'a2', usage: tokens(10, 1) }], summary: { text: 'so far', usage: tokens(50, 5) } },
    });
    const rt = createRuntime({ model });
    rt.prompt('q1');
    await rt.whenQuiet();
    await rt.compact('/root');
    rt.prompt('q2');
    await rt.whenQuiet();
    expect(rt.usage()).toMatchObject({ inputTokens: 70, outputTokens: 7, requests: 3 });
  });

  it('counts a compaction the policy wrote before a request in that step', async () => {
    const big = 'x'.repeat(400);
    const model = scriptedModel({
      '/root': { 0: [{ text: big, usage: tokens(10, 1) }], 1: [{ text: big, usage: tokens(10, 1) }], 2: [{ text: 'ok', usage: tokens(10, 1) }], summary: { text: 'history', usage: tokens(50, 5) } },
    });
    const rt = createRuntime({ model, compaction: { maxRequestBytes: 1200 } });
    for (const q of ['q1', 'q2', 'q3']) {
      rt.prompt(q);
      await rt.whenQuiet();
    }
    expect(rt.transcript('/root')!.latestCompaction()).toBeDefined();
    const compactions = model.summaryCalls.length;
    expect(compactions).toBeGreaterThan(0);
    expect(rt.usage()).toMatchObject({ inputTokens: 30 + 50 * compactions, requests: 3 + compactions });
  });

  it('keeps a cancelled subagent\'s spending in its parent\'s subtree', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const model = scriptedModel({
      '/root': { 0: [{ text: 'idle', usage: tokens(1, 1) }] },
      '/root/w': {
        0: [
          { toolCalls: [{ name: 'Agent', arguments: { task_name: 'deep', message: 'wait' } }], usage: tokens(20, 2) },
          { text: 'never', usage: tokens(1, 1) },
        ],
      },
      '/root/w/deep': { 0: [async () => (await gate, { text: 'late' })] },
    });
    const rt = createRuntime({ model });
    rt.prompt('q');
    await rt.whenQuiet();
    const deepSampling = new Promise<void>((resolve) => rt.on('change', (c) => c.path === '/root/w/deep' && c.state === 'running.working.sampling' && resolve()));
    const handle = await rt.spawn('/root', { task_name: 'w', message: 'go' }, { delivery: 'parent' });
    await deepSampling;
    rt.cancel('/root/w');
    const w = await handle.result;
    release();
    expect(w.status).toBe('cancelled');
    expect(w.usage).toMatchObject({ inputTokens: 20, requests: 1 });
    expect(rt.usage()).toMatchObject({ inputTokens: 21, requests: 2 });
  });

  it('rejects a malformed price table with a TypeError that names the model and field', () => {
    const model = scriptedModel({});
    expect(() => createRuntime({ model, prices: { m: { input: -1, output: 1 } } })).toThrow(/prices\["m"\]\.input/);
    expect(() => createRuntime({ model, prices: { m: { input: 1, output: Number.NaN } } })).toThrow(TypeError);
  });
});
