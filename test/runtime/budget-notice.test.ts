/**
 * RuntimeOptions.budgetNotice (#26): a soft limit reached puts one notice into the next model
 * request of the agent whose cap it is and of the agent whose spending reached it, written
 * into their dialogues (so later requests, the journal and a resume hold it), once per limit.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Entry } from '../../src/dialogue/entry.js';
import { scriptedModel, type ScriptedModel } from '../../src/model/scripted.js';
import { createRuntime } from '../../src/runtime/runtime.js';
import { resumeRuntime } from '../../src/runtime/resume.js';
import { createJsonlStore, openJsonlStore } from '../../src/store/jsonl.js';

const tokens = (inputTokens: number, outputTokens: number) => ({ inputTokens, outputTokens, cacheReadTokens: 0, cacheWriteTokens: 0 });
const listAgents = { name: 'list_agents', arguments: {} };
const isNotice = (e: Entry): boolean => e.kind === 'user' && e.text.startsWith('Budget notice');
/** The budget notices in each request of `path`, in request order. */
const noticesPerRequest = (model: ScriptedModel, path: string): string[][] =>
  model.calls.filter((c) => c.agentPath === path).map((c) => [...c.request.messages].filter(isNotice).map((e) => (e.kind === 'user' ? e.text : '')));

const dir = mkdtempSync(join(tmpdir(), 'budget-notice-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('budget notices', () => {
  // Step 0 spends 6,000 of 10,000 tokens: past the 50% soft limit. Steps 1 and 2 follow.
  const script = { '/root': { 0: [{ toolCalls: [listAgents], usage: tokens(5_990, 10) }, { toolCalls: [listAgents], usage: tokens(90, 10) }, { text: 'done', usage: tokens(90, 10) }] } };

  it("puts one notice into the agent's next request, naming the dimension, what is used and what remains", async () => {
    const model = scriptedModel(script);
    const rt = createRuntime({ model, budget: { tokens: 10_000, softLimit: 0.5 }, maxOutputTokens: 10, budgetNotice: true });
    expect(await rt.prompt('go')).toMatchObject({ status: 'completed' });
    const [first, second, third] = noticesPerRequest(model, '/root');
    expect(first).toEqual([]);
    expect(second).toEqual([
      'Budget notice from the runtime:\n' +
        '- your tokens budget (you and every agent under you spend from it) reached 50%: 6000 tokens used of 10000 tokens, 4000 tokens left.\n' +
        'A model request that could cross a budget is not sent: finish within what is left.',
    ]);
    // The next request still holds it (it is dialogue now), and no second one is added.
    expect(third).toEqual(second);
    const log = rt.transcript('/root')!.log.toArray();
    const at = log.findIndex(isNotice);
    expect(log.filter(isNotice)).toHaveLength(1);
    // After the first step's tool result, before the reply it went out with; it opens no turn.
    expect(log[at - 1]?.kind).toBe('tool_result');
    expect(log[at + 1]?.kind).toBe('assistant');
    expect(log[at]).toMatchObject({ kind: 'user', opensTurn: false, origin: { kind: 'notice', from: '/root' } });
    expect(rt.transcript('/root')!.turns()).toHaveLength(1);
    rt.stop();
  });

  it('adds nothing without the option: the budget-warning event alone', async () => {
    const model = scriptedModel(script);
    const rt = createRuntime({ model, budget: { tokens: 10_000, softLimit: 0.5 }, maxOutputTokens: 10 });
    const warnings: unknown[] = [];
    rt.on('budget-warning', (w) => warnings.push(w));
    await rt.prompt('go');
    expect(warnings).toHaveLength(1);
    expect(noticesPerRequest(model, '/root')).toEqual([[], [], []]);
    rt.stop();
  });

  it("tells both the agent whose spending reached the limit and the agent whose cap it is, each in its own words", async () => {
    const model = scriptedModel({
      '/root': { 0: [{ toolCalls: [{ name: 'Agent', arguments: { task_name: 'a', message: 'work' } }], usage: tokens(90, 10) }, { text: 'root done', usage: tokens(90, 10) }] },
      '/root/a': { 0: [{ toolCalls: [listAgents], usage: tokens(5_990, 10) }, { text: 'a done', usage: tokens(90, 10) }] },
    });
    const rt = createRuntime({ model, budget: { tokens: 10_000, softLimit: 0.5 }, maxOutputTokens: 10, budgetNotice: true });
    await rt.prompt('go');
    await rt.whenQuiet();
    expect(noticesPerRequest(model, '/root/a')).toEqual([[], [expect.stringContaining("- /root's tokens budget (you spend from it) reached 50%: 6100 tokens used of 10000 tokens")]]);
    expect(noticesPerRequest(model, '/root')).toEqual([[], [expect.stringContaining('- your tokens budget (you and every agent under you spend from it) reached 50%')]]);
    rt.stop();
  });

  it('a request that fails without a reply leaves the notice for the next one', async () => {
    const model = scriptedModel({ '/root': { 0: [{ toolCalls: [listAgents], usage: tokens(5_990, 10) }, { fail: 'the provider is down' }], 1: [{ text: 'ok', usage: tokens(90, 10) }] } });
    const rt = createRuntime({ model, budget: { tokens: 10_000, softLimit: 0.5 }, maxOutputTokens: 10, budgetNotice: true, retry: { maxRetries: 0 } });
    expect(await rt.prompt('go')).toMatchObject({ status: 'failed' });
    expect(await rt.prompt('again')).toMatchObject({ status: 'completed' });
    const per = noticesPerRequest(model, '/root');
    expect(per.map((n) => n.length)).toEqual([0, 1, 1]);
    expect(rt.transcript('/root')!.log.toArray().filter(isNotice)).toHaveLength(1);
    rt.stop();
  });

  it('a request the budget refuses keeps its notice in the dialogue, for the turn after', async () => {
    const model = scriptedModel({ '/root': { 0: [{ toolCalls: [listAgents], usage: tokens(9_990, 0) }, { text: 'never sent' }] } });
    const rt = createRuntime({ model, budget: { tokens: 10_000, softLimit: 0.5 }, maxOutputTokens: 10, budgetNotice: true });
    expect(await rt.prompt('go')).toMatchObject({ status: 'failed', stopReason: 'budget_exceeded' });
    expect(model.calls).toHaveLength(1);
    expect(rt.transcript('/root')!.log.toArray().filter(isNotice)).toEqual([expect.objectContaining({ text: expect.stringContaining('9990 tokens used of 10000 tokens, 10 tokens left') })]);
    rt.stop();
  });

  it('is journaled with the dialogue: a resumed session holds it once and adds no second one for the same limit', async () => {
    const store = createJsonlStore({ dir, sessionId: 'notice', fsync: 'never' });
    const rt = createRuntime({ model: scriptedModel(script), store, budget: { tokens: 10_000, softLimit: 0.5 }, maxOutputTokens: 10, budgetNotice: true });
    await rt.prompt('go');
    await rt.whenQuiet();
    const before = rt.transcript('/root')!.log.toArray().filter(isNotice);
    expect(before).toHaveLength(1);
    await store.close();
    const reopened = openJsonlStore({ dir, sessionId: 'notice', fsync: 'never' });
    const model = scriptedModel({ '/root': { 1: [{ text: 'again', usage: tokens(90, 10) }] } });
    const resumed = resumeRuntime({ model, store: reopened, budgetNotice: true, maxOutputTokens: 10 });
    expect(resumed.transcript('/root')!.log.toArray().filter(isNotice)).toEqual(before);
    await resumed.prompt('again');
    expect(noticesPerRequest(model, '/root')).toEqual([[before[0]!.kind === 'user' ? before[0]!.text : '']]);
    resumed.stop();
    await reopened.close();
  });
});
