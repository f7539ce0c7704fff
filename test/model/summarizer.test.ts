import { describe, expect, it } from 'vitest';
import { MockLanguageModelV4 } from 'ai/test';
import { assistantEntry, userEntry } from '../../src/dialogue/entry.js';
import type { ModelRequest } from '../../src/request/types.js';
import { aiSdkModel } from '../../src/model/ai-sdk.js';
import { EntryView } from '../../src/dialogue/entry-seq.js';
import { scriptedModel } from '../../src/model/scripted.js';
import { modelSummarizer, SUMMARY_SYSTEM_PROMPT, summaryInstruction } from '../../src/model/summarizer.js';
import { rejection } from './helpers.js';

const entries = EntryView.of([
  userEntry({ text: 'Please migrate the billing tables.', id: 'u1' }),
  assistantEntry({ text: 'Billing uses Postgres 15; the invoices table has 40M rows.', id: 'a1' }),
]);

describe('modelSummarizer', () => {
  it('sends the entries plus a task-naming instruction under a background-only system prompt', async () => {
    const seen: ModelRequest[] = [];
    const model = scriptedModel({
      '/root/migrate': (req) => {
        seen.push(req);
        return { text: '  Postgres 15, invoices has 40M rows.  ', usage: { inputTokens: 120, outputTokens: 9 } };
      },
    });
    const summarizer = modelSummarizer(model, { model: 'small', effort: 'low' });
    const result = await summarizer.summarize({ entries, task: 'Plan the invoices migration', agentPath: '/root/migrate' }, new AbortController().signal);

    expect(result.text).toBe('Postgres 15, invoices has 40M rows.');
    expect(result.usage).toMatchObject({ inputTokens: 120, outputTokens: 9 });
    const req = seen[0];
    expect(req?.system).toEqual({ preset: 'summarizer', systemPrompt: SUMMARY_SYSTEM_PROMPT, tools: [] });
    expect(req?.model).toBe('small');
    expect(req?.effort).toBe('low');
    const messages = req?.messages.toArray() ?? [];
    expect(messages.slice(0, 2)).toEqual(entries.toArray());
    expect(messages[2]).toMatchObject({ kind: 'user', text: summaryInstruction('Plan the invoices migration') });
    expect(summaryInstruction('X')).toContain('<task>\nX\n</task>');
    expect(SUMMARY_SYSTEM_PROMPT).toMatch(/Do not replay instructions/);
    expect(model.calls[0]).toMatchObject({ agentPath: '/root/migrate', turn: 0, step: 0 });
  });

  it('accepts a custom system prompt and preset', async () => {
    const model = scriptedModel({ '/root/x': { 0: [{ text: 'bg' }] } });
    await modelSummarizer(model, { model: 'm', systemPrompt: 'Custom.', preset: 'bg' }).summarize(
      { entries, task: 't', agentPath: '/root/x' },
      new AbortController().signal,
    );
    expect(model.calls[0]?.request.system).toMatchObject({ preset: 'bg', systemPrompt: 'Custom.' });
    expect(model.calls[0]?.request.effort).toBeUndefined();
  });

  it('fails on an empty reply and passes aborts through', async () => {
    const empty = scriptedModel({ '/root/x': { 0: [{ text: '   ' }] } });
    const error = await rejection(modelSummarizer(empty, { model: 'm' }).summarize({ entries, task: 't', agentPath: '/root/x' }, new AbortController().signal));
    expect(error.message).toBe('summarizer: scripted returned no background for /root/x');

    const controller = new AbortController();
    controller.abort();
    const aborted = await rejection(
      modelSummarizer(scriptedModel({}), { model: 'm' }).summarize({ entries, task: 't', agentPath: '/root/x' }, controller.signal),
    );
    expect(aborted.name).toBe('AbortError');
  });

  it('works with an AI SDK model', async () => {
    const mock = new MockLanguageModelV4({
      doGenerate: {
        content: [{ type: 'text', text: 'Background.' }],
        finishReason: { unified: 'stop', raw: 'end_turn' },
        usage: {
          inputTokens: { total: 50, noCache: 50, cacheRead: undefined, cacheWrite: undefined },
          outputTokens: { total: 2, text: 2, reasoning: undefined },
        },
        warnings: [],
      },
    });
    const result = await modelSummarizer(aiSdkModel(mock), { model: 'm' }).summarize({ entries, task: 'Plan', agentPath: '/root/p' }, new AbortController().signal);
    expect(result).toEqual({ text: 'Background.', usage: { inputTokens: 50, outputTokens: 2, cacheReadTokens: 0, cacheWriteTokens: 0 } });
    const call = mock.doGenerateCalls[0];
    expect(call?.prompt[0]).toEqual({ role: 'system', content: SUMMARY_SYSTEM_PROMPT });
    // The instruction is marked as the summary's task, not sent as a person's words.
    expect(call?.prompt.at(-1)).toEqual({ role: 'user', content: [{ type: 'text', text: `<agent_input kind="task" from="/root/p">\n${summaryInstruction('Plan')}\n</agent_input>` }] });
    expect(call?.tools).toBeUndefined();
  });
});
