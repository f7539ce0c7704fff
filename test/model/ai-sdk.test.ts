import { describe, expect, it } from 'vitest';
import type { LanguageModelV4GenerateResult, LanguageModelV4Usage } from '@ai-sdk/provider';
import { MockLanguageModelV4 } from 'ai/test';
import { assistantEntry, compactionEntry, toolResultEntry, userEntry } from '../../src/dialogue/entry.js';
import type { Entry } from '../../src/dialogue/entry.js';
import { aiSdkModel, passThroughEffort, providerKey } from '../../src/model/ai-sdk.js';
import { attachmentText, compactionText, toV4Prompt } from '../../src/model/ai-sdk-prompt.js';
import { fromV4FinishReason, fromV4Usage, parseToolInput } from '../../src/model/ai-sdk-result.js';
import { ctx, readTool, rejection, request, system } from './helpers.js';

const usage = (input: Partial<LanguageModelV4Usage['inputTokens']> = {}, output: Partial<LanguageModelV4Usage['outputTokens']> = {}): LanguageModelV4Usage => ({
  inputTokens: { total: undefined, noCache: undefined, cacheRead: undefined, cacheWrite: undefined, ...input },
  outputTokens: { total: undefined, text: undefined, reasoning: undefined, ...output },
});

const textResult = (text: string): LanguageModelV4GenerateResult => ({
  content: [{ type: 'text', text }],
  finishReason: { unified: 'stop', raw: 'end_turn' },
  usage: usage({ total: 10 }, { total: 1 }),
  warnings: [],
});

const mockReturning = (...results: LanguageModelV4GenerateResult[]): MockLanguageModelV4 =>
  new MockLanguageModelV4({ provider: 'anthropic.messages', modelId: 'claude-test', doGenerate: results });

const dialogue: Entry[] = [
  compactionEntry({ summary: 'We set up the repo.', anchorId: null, id: 'c1' }),
  userEntry({ text: 'Read both files.', attachments: [{ name: 'notes.md', content: '# Notes' }], id: 'u1' }),
  assistantEntry({
    text: 'Reading.',
    toolCalls: [
      { id: 'call_1', name: 'read_file', arguments: { path: 'a.ts' } },
      { id: 'call_2', name: 'read_file', arguments: { path: 'missing.ts' } },
    ],
    id: 'a1',
  }),
  toolResultEntry({ callId: 'call_1', toolName: 'read_file', content: 'export const a = 1;', id: 'r1' }),
  toolResultEntry({ callId: 'call_2', toolName: 'read_file', content: 'ENOENT', isError: true, id: 'r2' }),
  assistantEntry({ toolCalls: [{ id: 'call_3', name: 'read_file', arguments: '{"path": oops' }], id: 'a2' }),
  toolResultEntry({ callId: 'call_3', toolName: 'read_file', content: 'invalid arguments', isError: true, id: 'r3' }),
  assistantEntry({ text: '', id: 'a3' }),
  userEntry({ text: 'Thanks.', origin: { kind: 'message', from: '/root/x' }, id: 'u2' }),
];

describe('aiSdkModel: request conversion', () => {
  it('converts every entry kind, the system prompt and the tools', async () => {
    const mock = mockReturning(textResult('ok'));
    await aiSdkModel(mock).sample(request(dialogue), ctx('/root'));
    const call = mock.doGenerateCalls[0];
    expect(call?.prompt).toEqual([
      { role: 'system', content: 'You are a careful engineer.' },
      { role: 'user', content: [{ type: 'text', text: '<agent_input kind="compaction" from="runtime">\nSummary of the earlier conversation:\nWe set up the repo.\n</agent_input>' }] },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Read both files.' },
          { type: 'text', text: '<attachment name="notes.md">\n# Notes\n</attachment>' },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Reading.' },
          { type: 'tool-call', toolCallId: 'call_1', toolName: 'read_file', input: { path: 'a.ts' } },
          { type: 'tool-call', toolCallId: 'call_2', toolName: 'read_file', input: { path: 'missing.ts' } },
        ],
      },
      {
        role: 'tool',
        content: [
          { type: 'tool-result', toolCallId: 'call_1', toolName: 'read_file', output: { type: 'text', value: 'export const a = 1;' } },
          { type: 'tool-result', toolCallId: 'call_2', toolName: 'read_file', output: { type: 'error-text', value: 'ENOENT' } },
        ],
      },
      // Malformed arguments are replayed as {}; the empty assistant entry a3 is left out.
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'call_3', toolName: 'read_file', input: {} }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call_3', toolName: 'read_file', output: { type: 'error-text', value: 'invalid arguments' } }] },
      { role: 'user', content: [{ type: 'text', text: '<agent_input kind="message" from="/root/x">\nThanks.\n</agent_input>' }] },
    ]);
    // An Anthropic model's tools say eagerInputStreaming alike, streamed or not (off by default).
    expect(call?.tools).toEqual([
      { type: 'function', name: 'read_file', description: 'Reads a file.', inputSchema: readTool.inputSchema, providerOptions: { anthropic: { eagerInputStreaming: false } } },
    ]);
    expect(call?.toolChoice).toEqual({ type: 'auto' });
    expect(call?.providerOptions).toBeUndefined();
    expect(call?.maxOutputTokens).toBeUndefined();
    expect(compactionText('s')).toBe('<agent_input kind="compaction" from="runtime">\nSummary of the earlier conversation:\ns\n</agent_input>');
    expect(attachmentText('a"b', 'c')).toBe('<attachment name="a\\"b">\nc\n</attachment>');
  });

  it('keeps tool order, omits tools and the system message when there are none', async () => {
    const second = { ...readTool, name: 'write_file', description: 'Writes a file.' };
    const mock = mockReturning(textResult('a'), textResult('b'));
    const model = aiSdkModel(mock);
    await model.sample(request([userEntry({ text: 'hi', id: 'u' })], { system: { ...system, tools: [second, readTool] } }), ctx('/root'));
    expect(mock.doGenerateCalls[0]?.tools?.map((t) => t.name)).toEqual(['write_file', 'read_file']);
    await model.sample(request([userEntry({ text: 'hi', id: 'u' })], { system: { preset: 'p', systemPrompt: '', tools: [] } }), ctx('/root'));
    expect(mock.doGenerateCalls[1]?.tools).toBeUndefined();
    expect(mock.doGenerateCalls[1]?.toolChoice).toBeUndefined();
    expect(mock.doGenerateCalls[1]?.prompt).toEqual([{ role: 'user', content: [{ type: 'text', text: 'hi' }] }]);
  });

  it('marks the system message and the last message with cache hints when asked', async () => {
    const mock = mockReturning(textResult('ok'));
    await aiSdkModel(mock, { cacheHints: true }).sample(request(dialogue), ctx('/root'));
    const prompt = mock.doGenerateCalls[0]?.prompt ?? [];
    const hint = { anthropic: { cacheControl: { type: 'ephemeral' } } };
    expect(prompt[0]?.providerOptions).toEqual(hint);
    expect(prompt.at(-1)?.providerOptions).toEqual(hint);
    expect(prompt.slice(1, -1).every((m) => m.providerOptions === undefined)).toBe(true);
    // Without a system prompt only the last message is marked; an empty prompt is left alone.
    expect(toV4Prompt(request([userEntry({ text: 'x', id: 'u' })], { system: { preset: 'p', systemPrompt: '', tools: [] } }), { cacheHints: true })).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'x' }], providerOptions: hint },
    ]);
    expect(toV4Prompt(request([], { system: { preset: 'p', systemPrompt: '', tools: [] } }), { cacheHints: true })).toEqual([]);
  });

  it('maps effort to provider options only when the request has one', async () => {
    const mock = mockReturning(textResult('1'), textResult('2'), textResult('3'), textResult('4'));
    const base = { anthropic: { sendReasoning: true } };
    await aiSdkModel(mock, { providerOptions: base, maxOutputTokens: 512, effort: passThroughEffort }).sample(request([], { effort: 'high' }), ctx('/root'));
    expect(mock.doGenerateCalls[0]?.providerOptions).toEqual({ anthropic: { sendReasoning: true, reasoningEffort: 'high' } });
    expect(mock.doGenerateCalls[0]?.maxOutputTokens).toBe(512);
    expect(base).toEqual({ anthropic: { sendReasoning: true } });

    await aiSdkModel(mock, { providerOptions: base }).sample(request([]), ctx('/root'));
    expect(mock.doGenerateCalls[1]?.providerOptions).toEqual(base);

    await aiSdkModel(mock, { effort: (effort) => ({ anthropic: { thinking: { type: 'enabled', budgetTokens: effort === 'low' ? 1024 : 8192 } } }) }).sample(
      request([], { effort: 'low' }),
      ctx('/root'),
    );
    expect(mock.doGenerateCalls[2]?.providerOptions).toEqual({ anthropic: { thinking: { type: 'enabled', budgetTokens: 1024 } } });

    await aiSdkModel(mock, { effort: false }).sample(request([], { effort: 'medium' }), ctx('/root'));
    expect(mock.doGenerateCalls[3]?.providerOptions).toBeUndefined();

    expect(providerKey(mock)).toBe('anthropic');
    expect(passThroughEffort('medium', mock)).toEqual({ anthropic: { reasoningEffort: 'medium' } });
  });
});

describe('aiSdkModel: result conversion', () => {
  it('joins text, parses tool calls (malformed JSON kept raw) and skips provider-executed calls', async () => {
    const mock = mockReturning({
      content: [
        { type: 'reasoning', text: 'thinking...' },
        { type: 'text', text: 'Let me ' },
        { type: 'text', text: 'check.' },
        { type: 'tool-call', toolCallId: 'tc1', toolName: 'read_file', input: '{"path":"a.ts"}' },
        { type: 'tool-call', toolCallId: 'tc2', toolName: 'read_file', input: '{"path": "a.ts"' },
        { type: 'tool-call', toolCallId: 'tc3', toolName: 'list_agents', input: '' },
        { type: 'tool-call', toolCallId: 'tc4', toolName: 'web_search', input: '{"q":"x"}', providerExecuted: true },
        { type: 'tool-result', toolCallId: 'tc4', toolName: 'web_search', result: { hits: 0 } },
      ],
      finishReason: { unified: 'tool-calls', raw: 'tool_use' },
      usage: usage({ total: 100 }, { total: 20 }),
      warnings: [],
    });
    const reply = await aiSdkModel(mock).sample(request([]), ctx('/root'));
    expect(reply.text).toBe('Let me check.');
    expect(reply.toolCalls).toEqual([
      { id: 'tc1', name: 'read_file', arguments: { path: 'a.ts' } },
      { id: 'tc2', name: 'read_file', arguments: '{"path": "a.ts"' },
      { id: 'tc3', name: 'list_agents', arguments: {} },
    ]);
    expect(reply.stopReason).toBe('tool_calls');
    expect(parseToolInput('"just a string"')).toBe('just a string');
    expect(parseToolInput('  ')).toEqual({});
  });

  it('maps usage, including cache reads and writes', () => {
    expect(fromV4Usage(usage({ total: 1000, noCache: 100, cacheRead: 800, cacheWrite: 100 }, { total: 50, text: 40, reasoning: 10 }))).toEqual({
      inputTokens: 1000,
      outputTokens: 50,
      cacheReadTokens: 800,
      cacheWriteTokens: 100,
    });
    // No totals: rebuilt from the parts.
    expect(fromV4Usage(usage({ noCache: 10, cacheRead: 30 }, { text: 4, reasoning: 6 }))).toEqual({
      inputTokens: 40,
      outputTokens: 10,
      cacheReadTokens: 30,
      cacheWriteTokens: 0,
    });
    expect(fromV4Usage(usage())).toEqual({ inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 });
  });

  it('maps finish reasons to stop reasons', () => {
    const cases = [
      ['stop', 'stop'],
      ['length', 'length'],
      ['content-filter', 'content_filter'],
      ['tool-calls', 'tool_calls'],
      // New in specification v4: the stream ended without a finish event.
      ['interrupted', 'interrupted'],
      ['error', 'error'],
      ['other', 'other'],
    ] as const;
    for (const [unified, expected] of cases) expect(fromV4FinishReason({ unified, raw: undefined })).toBe(expected);
    const future = { unified: 'paused', raw: 'pause_turn' } as unknown as Parameters<typeof fromV4FinishReason>[0];
    expect(fromV4FinishReason(future)).toBe('pause_turn');
    expect(fromV4FinishReason({ ...future, raw: undefined })).toBe('other');
  });

  it('reports usage with cache tokens through sample()', async () => {
    const mock = mockReturning({ ...textResult('cached'), usage: usage({ total: 500, noCache: 20, cacheRead: 480, cacheWrite: 0 }, { total: 3 }) });
    const reply = await aiSdkModel(mock).sample(request([]), ctx('/root'));
    expect(reply.usage).toEqual({ inputTokens: 500, outputTokens: 3, cacheReadTokens: 480, cacheWriteTokens: 0 });
    expect(reply.stopReason).toBe('stop');
  });
});

describe('aiSdkModel: abort', () => {
  it('passes the signal through and rejects promptly on abort, even if the provider ignores it', async () => {
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const mock = new MockLanguageModelV4({
      doGenerate: () => {
        started();
        return new Promise<LanguageModelV4GenerateResult>(() => undefined);
      },
    });
    const controller = new AbortController();
    const reply = aiSdkModel(mock).sample(request([]), ctx('/root', 0, 0, controller.signal));
    await running;
    expect(mock.doGenerateCalls[0]?.abortSignal).toBe(controller.signal);
    controller.abort();
    expect((await rejection(reply)).name).toBe('AbortError');
  });

  it('rejects at once, sending nothing, when already aborted', async () => {
    const mock = new MockLanguageModelV4({
      doGenerate: async ({ abortSignal }) => {
        abortSignal?.throwIfAborted();
        return textResult('never');
      },
    });
    const controller = new AbortController();
    controller.abort();
    expect((await rejection(aiSdkModel(mock).sample(request([]), ctx('/root', 0, 0, controller.signal)))).name).toBe('AbortError');
    // Nothing is sent for a request that was cancelled before it started.
    expect(mock.doGenerateCalls).toHaveLength(0);
  });

  it('propagates provider errors', async () => {
    const mock = new MockLanguageModelV4({
      doGenerate: async () => {
        throw new Error('overloaded');
      },
    });
    expect((await rejection(aiSdkModel(mock).sample(request([]), ctx('/root')))).message).toBe('overloaded');
  });
});

describe('aiSdkModel: a multi-step exchange', () => {
  it('runs tool call → tool result → final answer with the transcript growing between steps', async () => {
    const mock = mockReturning(
      {
        content: [{ type: 'tool-call', toolCallId: 'toolu_1', toolName: 'read_file', input: '{"path":"README.md"}' }],
        finishReason: { unified: 'tool-calls', raw: 'tool_use' },
        usage: usage({ total: 200, cacheWrite: 200 }, { total: 15 }),
        warnings: [],
      },
      {
        content: [{ type: 'text', text: 'The README describes the runtime.' }],
        finishReason: { unified: 'stop', raw: 'end_turn' },
        usage: usage({ total: 260, cacheRead: 200, cacheWrite: 60 }, { total: 8 }),
        warnings: [],
      },
    );
    const model = aiSdkModel(mock, { cacheHints: true });
    expect(model.name).toBe('anthropic.messages:claude-test');

    const log: Entry[] = [userEntry({ text: 'What does the README say?', id: 'u1' })];
    const first = await model.sample(request(log), ctx('/root', 0, 0));
    expect(first.toolCalls).toEqual([{ id: 'toolu_1', name: 'read_file', arguments: { path: 'README.md' } }]);

    log.push(assistantEntry({ text: first.text, toolCalls: first.toolCalls, id: 'a1' }));
    log.push(toolResultEntry({ callId: 'toolu_1', toolName: 'read_file', content: '# subagent-actors', id: 'r1' }));
    const second = await model.sample(request(log), ctx('/root', 0, 1));
    expect(second).toEqual({
      text: 'The README describes the runtime.',
      toolCalls: [],
      usage: { inputTokens: 260, outputTokens: 8, cacheReadTokens: 200, cacheWriteTokens: 60 },
      stopReason: 'stop',
    });

    const prompt = mock.doGenerateCalls[1]?.prompt ?? [];
    expect(prompt.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool']);
    expect(prompt[2]).toEqual({ role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'toolu_1', toolName: 'read_file', input: { path: 'README.md' } }] });
    expect(prompt[3]?.providerOptions).toEqual({ anthropic: { cacheControl: { type: 'ephemeral' } } });
    // The first request's messages are a prefix of the second's (cache hints aside).
    const strip = (m: (typeof prompt)[number]): unknown => ({ ...m, providerOptions: undefined });
    expect((mock.doGenerateCalls[0]?.prompt ?? []).slice(0, 2).map(strip)).toEqual(prompt.slice(0, 2).map(strip));
  });
});
