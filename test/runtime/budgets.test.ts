import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { scriptedModel } from '../../src/model/scripted.js';
import { createRuntime } from '../../src/runtime/runtime.js';
import { resumeRuntime } from '../../src/runtime/resume.js';
import { createJsonlStore, openJsonlStore } from '../../src/store/jsonl.js';
import type { BudgetWarning } from '../../src/runtime/types.js';
import { deferred } from './helpers.js';

const tokens = (inputTokens: number, outputTokens: number) => ({ inputTokens, outputTokens, cacheReadTokens: 0, cacheWriteTokens: 0 });
const agent = (task_name: string, extra: Record<string, unknown> = {}) => ({ name: 'Agent', arguments: { task_name, message: `do ${task_name}`, ...extra } });

const dir = mkdtempSync(join(tmpdir(), 'budgets-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('budgets', () => {
  it('never sends the request that would cross a hard cap: the subagent settles budget_exceeded, with its one result', async () => {
    const model = scriptedModel({
      '/root': { 0: [{ toolCalls: [agent('a', { budget: { tokens: 150_000 } })], usage: tokens(10, 1) }, { text: 'root done', usage: tokens(10, 1) }] },
      // Its first step spends nearly all of its cap; the second request could not fit.
      '/root/a': { 0: [{ toolCalls: [{ name: 'list_agents', arguments: {} }], usage: tokens(149_000, 50) }, { text: 'never sent', usage: tokens(1, 1) }] },
    });
    const rt = createRuntime({ model, budget: { tokens: 1_000_000 }, maxOutputTokens: 100 });
    rt.prompt('go');
    await rt.whenQuiet();
    const a = await rt.result('/root/a');
    expect(a.status).toBe('failed');
    expect(a.stopReason).toBe('budget_exceeded');
    expect(a.error).toMatch(/budget exceeded: the next model request could use \d+ tokens \(input estimate \d+ \+ output limit 100\), more than its tokens budget has left \(950 tokens of 150000 tokens\)/);
    expect(model.calls.filter((c) => c.agentPath === '/root/a').map((c) => c.step)).toEqual([0]);
    // Its one result answered the Agent call; what it did not use went back.
    expect(rt.results.filter((r) => r.path === '/root/a')).toHaveLength(1);
    expect(rt.budgetOf('/root')).toEqual({ tokens: 1_000_000 - 149_050 - 22 });
  });

  it("ends the root's turn with budget_exceeded and keeps the session usable", async () => {
    const model = scriptedModel({ '/root': { 0: [{ toolCalls: [{ name: 'list_agents', arguments: {} }], usage: tokens(9_990, 0) }, { text: 'never sent' }] } });
    const rt = createRuntime({ model, budget: { tokens: 10_000 }, maxOutputTokens: 10 });
    const outcome = await rt.prompt('go');
    expect(outcome).toMatchObject({ status: 'failed', stopReason: 'budget_exceeded' });
    expect(model.calls).toHaveLength(1);
    expect(rt.stateOf('/root')).toBe('running.idle');
  });

  it('two spawns racing for the last of a budget: one wins, the other gets a budget error and holds nothing', async () => {
    const gate = deferred<{ approved: true }>();
    const model = scriptedModel({});
    const rt = createRuntime({ model, budget: { tokens: 100_000 }, confirm: () => gate.promise });
    // Both ask the host to confirm (an external directory), so both pass the early check first.
    const first = rt.spawn('/root', { task_name: 'x', message: 'x' }, { budget: { tokens: 60_000 }, externalDirectories: ['/tmp/x'] });
    const second = rt.spawn('/root', { task_name: 'y', message: 'y' }, { budget: { tokens: 60_000 }, externalDirectories: ['/tmp/y'] });
    gate.resolve({ approved: true });
    const settled = await Promise.allSettled([first, second]);
    expect(settled[0].status).toBe('fulfilled');
    expect(settled[1]).toMatchObject({ status: 'rejected', reason: { code: 'budget', dimension: 'tokens', asked: 60_000, remaining: 40_000 } });
    expect(rt.list().map((a) => a.path)).not.toContain('/root/y');
    expect(rt.list().map((a) => a.path)).toContain('/root/x');
    expect(rt.budgetOf('/root')).toEqual({ tokens: 40_000 });
    rt.stop();
  });

  it("two parents' subagents racing for the last of the root's budget: one wins, the other's Agent call reads a budget error", async () => {
    const model = scriptedModel({
      '/root': { 0: [{ toolCalls: [agent('p1'), agent('p2')], usage: tokens(10, 1) }, { text: 'done', usage: tokens(1, 1) }] },
      '/root/p1': { 0: [{ toolCalls: [agent('c', { budget: { tokens: 60_000 } })], usage: tokens(10, 1) }, { text: 'p1 done', usage: tokens(1, 1) }] },
      '/root/p2': { 0: [{ toolCalls: [agent('c', { budget: { tokens: 60_000 } })], usage: tokens(10, 1) }, { text: 'p2 done', usage: tokens(1, 1) }] },
      '/root/p1/c': { 0: [{ text: 'c1', usage: tokens(1, 1) }] },
      '/root/p2/c': { 0: [{ text: 'c2', usage: tokens(1, 1) }] },
    });
    const rt = createRuntime({ model, budget: { tokens: 100_000 }, maxOutputTokens: 100 });
    rt.prompt('go');
    await rt.whenQuiet();
    const ran = ['/root/p1/c', '/root/p2/c'].filter((p) => rt.results.some((r) => r.path === p));
    expect(ran).toHaveLength(1);
    const loser = ran[0] === '/root/p1/c' ? '/root/p2' : '/root/p1';
    const results = (rt.transcript(loser)?.log.toArray() ?? []).filter((e) => e.kind === 'tool_result');
    expect(results.map((e) => (e.kind === 'tool_result' ? e.content : ''))).toEqual([expect.stringMatching(/^Error \(budget\): \/root\/p\d\/c cannot get a budget of 60000 tokens/)]);
  });

  it('a model may ask for a smaller budget than its role, never a larger one', async () => {
    const model = scriptedModel({
      '/root': { 0: [{ toolCalls: [agent('big', { role: 'worker', budget: { tokens: 9_000 } }), agent('small', { role: 'worker', budget: { tokens: 2_000 } })], usage: tokens(1, 1) }, { text: 'done' }] },
      '/root/small': { 0: [{ text: 'ok', usage: tokens(1, 1) }] },
    });
    const rt = createRuntime({ model, roles: [{ name: 'worker', budget: { tokens: 5_000 } }], budget: { tokens: 1_000_000 }, maxOutputTokens: 10 });
    rt.prompt('go');
    await rt.whenQuiet();
    const log = rt.transcript('/root')?.log.toArray() ?? [];
    const contents = log.flatMap((e) => (e.kind === 'tool_result' ? [e.content] : []));
    expect(contents[0]).toMatch(/^Error \(budget\): a subagent may get a smaller budget than the budget of role "worker", never a larger one: tokens 9000 tokens asked, 5000 tokens allowed/);
    expect(rt.results.find((r) => r.path === '/root/small')?.status).toBe('completed');
  });

  it('caps spawns across the subtree', async () => {
    const model = scriptedModel({
      '/root': { 0: [{ toolCalls: [agent('a'), agent('b')], usage: tokens(1, 1) }, { text: 'done' }] },
      '/root/a': { 0: [{ text: 'a', usage: tokens(1, 1) }] },
    });
    const rt = createRuntime({ model, budget: { spawns: 1 } });
    rt.prompt('go');
    await rt.whenQuiet();
    const contents = (rt.transcript('/root')?.log.toArray() ?? []).flatMap((e) => (e.kind === 'tool_result' ? [e.content] : []));
    expect(contents.filter((c) => c.startsWith('Error (budget)'))).toHaveLength(1);
  });

  it('refuses a costUsd budget at start when the model has no price', () => {
    expect(() => createRuntime({ model: scriptedModel({}), modelId: 'm', budget: { costUsd: 1 } })).toThrow(TypeError);
    expect(() => createRuntime({ model: scriptedModel({}), modelId: 'm', budget: { costUsd: 1 } })).toThrow(/model m, which has no price/);
    expect(() => createRuntime({ model: scriptedModel({}), modelId: 'm', prices: { m: { input: 1, output: 1 } }, budget: { costUsd: 1 } })).not.toThrow();
  });

  it('emits one budget-warning at the soft limit, on the listener and the event stream', async () => {
    const model = scriptedModel({ '/root': { 0: [{ text: 'a', usage: tokens(8_500, 0) }], 1: [{ text: 'b', usage: tokens(100, 0) }] } });
    const rt = createRuntime({ model, budget: { tokens: 20_000, softLimit: 0.4 }, maxOutputTokens: 10 });
    const warnings: BudgetWarning[] = [];
    rt.on('budget-warning', (w) => warnings.push(w));
    const stream = rt.events();
    const seen = (async () => {
      for await (const event of stream) if (event.type === 'budget-warning') return event;
      return undefined;
    })();
    await rt.prompt('one');
    await rt.prompt('two');
    expect(warnings).toEqual([{ path: '/root', by: '/root', dimension: 'tokens', limit: 20_000, used: 8_500, remaining: 11_500 }]);
    expect(await seen).toMatchObject({ type: 'budget-warning', path: '/root', dimension: 'tokens' });
    rt.stop();
  });

  it('offers budget in the Agent schema only to sessions with budgets', async () => {
    const budgetProperty = async (options: { budget?: { steps: number } }) => {
      const model = scriptedModel({ '/root': { 0: [{ text: 'ok', usage: tokens(1, 1) }] } });
      const rt = createRuntime({ model, ...options });
      await rt.prompt('go');
      rt.stop();
      const schema = model.calls[0]!.request.system.tools.find((t) => t.name === 'Agent')!.inputSchema as { properties: Record<string, unknown> };
      return schema.properties['budget'];
    };
    expect(await budgetProperty({})).toBeUndefined();
    expect(await budgetProperty({ budget: { steps: 10 } })).toMatchObject({ type: 'object' });
  });

  it('keeps remaining budgets across a resume (JSON Lines)', async () => {
    const script = {
      '/root': { 0: [{ toolCalls: [agent('a', { budget: { tokens: 50_000, steps: 5 } }), agent('b', { budget: { tokens: 20_000 } })], usage: tokens(100, 10) }, { text: 'done', usage: tokens(100, 10) }] },
      '/root/a': { 0: [{ text: 'a', usage: tokens(1_000, 100) }] },
      '/root/b': { 0: [{ toolCalls: [{ name: 'list_agents', arguments: {} }], usage: tokens(500, 50) }, { text: 'b', usage: tokens(500, 50) }] },
    };
    const store = createJsonlStore({ dir, sessionId: 'budgets', fsync: 'never' });
    const rt = createRuntime({ model: scriptedModel(script), store, budget: { tokens: 100_000, spawns: 5 }, maxOutputTokens: 100 });
    rt.prompt('go');
    await rt.whenQuiet();
    const before = rt.budgetOf('/root');
    expect(before).toEqual({ tokens: 100_000 - 220 - 1_100 - 1_100, spawns: 3 });
    await store.close();
    const reopened = openJsonlStore({ dir, sessionId: 'budgets', fsync: 'never' });
    // The session's budget comes from the journal, not from the options given to resume.
    const resumed = resumeRuntime({ model: scriptedModel(script), store: reopened, budget: { tokens: 1 } });
    expect(resumed.budgetOf('/root')).toEqual(before);
    await reopened.close();
  });
});
