/**
 * aiSdkModel beyond one non-streaming model: a models table chosen by `request.model`,
 * streaming through `doStream`, and reasoning parts round-tripped with their provider
 * metadata, with the AI SDK's own mock models.
 */
import { APICallError, type LanguageModelV4GenerateResult, type LanguageModelV4StreamPart, type LanguageModelV4Usage } from '@ai-sdk/provider';
import { simulateReadableStream } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { assistantEntry, toolResultEntry, userEntry } from '../../src/dialogue/entry.js';
import type { ModelDelta } from '../../src/model/adapter.js';
import { aiSdkModel, UnknownModelError } from '../../src/model/ai-sdk.js';
import { createRuntime, defineRuntimeTool } from '../../src/runtime/runtime.js';
import type { RetryEvent } from '../../src/runtime/types.js';
import type { RuntimeStreamEvent } from '../../src/runtime/stream-events.js';
import { manualClock } from '../../src/model/clock.js';
import { ctx, rejection, request } from './helpers.js';

const usage = (input: number, output: number): LanguageModelV4Usage => ({
  inputTokens: { total: input, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: output, text: undefined, reasoning: undefined },
});

const textResult = (text: string): LanguageModelV4GenerateResult => ({
  content: [{ type: 'text', text }],
  finishReason: { unified: 'stop', raw: 'end_turn' },
  usage: usage(10, 1),
  warnings: [],
});

const mock = (modelId: string, ...results: LanguageModelV4GenerateResult[]): MockLanguageModelV4 =>
  new MockLanguageModelV4({ provider: 'anthropic.messages', modelId, doGenerate: results });

/** A stream mock that replays `chunks` without delays. */
const streaming = (chunks: LanguageModelV4StreamPart[]): MockLanguageModelV4 =>
  new MockLanguageModelV4({
    provider: 'anthropic.messages',
    modelId: 'claude-stream',
    doStream: async () => ({ stream: simulateReadableStream({ chunks, initialDelayInMs: null, chunkDelayInMs: null }) }),
  });

const hello = [userEntry({ text: 'hello', id: 'u1' })];

describe('aiSdkModel: a models table', () => {
  it("maps request.model to the table's model, by key or by the model's own id", async () => {
    const sonnet = mock('claude-sonnet-4-5', textResult('from sonnet'), textResult('sonnet again'));
    const haiku = mock('claude-haiku-4-5', textResult('from haiku'));
    const model = aiSdkModel({ models: { sonnet, haiku } });
    await expect(model.sample(request(hello, { model: 'haiku' }), ctx('/root'))).resolves.toMatchObject({ text: 'from haiku' });
    await expect(model.sample(request(hello, { model: 'sonnet' }), ctx('/root'))).resolves.toMatchObject({ text: 'from sonnet' });
    // A runtime `models` table may already have turned the alias into the model id.
    await expect(model.sample(request(hello, { model: 'claude-sonnet-4-5' }), ctx('/root'))).resolves.toMatchObject({ text: 'sonnet again' });
    expect([sonnet.doGenerateCalls.length, haiku.doGenerateCalls.length]).toEqual([2, 1]);
  });

  it('an unknown model is a typed error naming the known ones, and nothing is sent', async () => {
    const sonnet = mock('claude-sonnet-4-5', textResult('unused'));
    const error = await rejection(aiSdkModel({ models: { sonnet } }).sample(request(hello, { model: 'gpt-5' }), ctx('/root')));
    expect(error).toBeInstanceOf(UnknownModelError);
    expect(error).toMatchObject({ code: 'unknown_model', model: 'gpt-5', known: ['sonnet'] });
    expect(error.message).toMatch(/no model "gpt-5" \(its models: sonnet\)/);
    expect(sonnet.doGenerateCalls).toHaveLength(0);
  });

  it('in a runtime, an unknown model fails the turn at once, without retries; a `default` entry serves the default model id', async () => {
    const sonnet = mock('claude-sonnet-4-5', textResult('fine'));
    const rt = createRuntime({ model: aiSdkModel({ models: { default: sonnet } }), modelId: 'gpt-5' });
    const retries: RetryEvent[] = [];
    rt.on('retry', (e) => retries.push(e));
    await expect(rt.prompt('x')).resolves.toMatchObject({ status: 'failed', error: expect.stringMatching(/no model "gpt-5"/) });
    expect(retries).toEqual([]);
    // The table's `default` entry answers for the runtime's default model id.
    const rt2 = createRuntime({ model: aiSdkModel({ models: { default: sonnet } }) });
    await expect(rt2.prompt('x')).resolves.toMatchObject({ status: 'completed', text: 'fine' });
  });

  it('refuses a table that is empty or holds something other than a V4 model', () => {
    expect(() => aiSdkModel({ models: {} })).toThrow(/models table is empty/);
    expect(() => aiSdkModel({ models: { a: { modelId: 'x' } as never } })).toThrow(/models\.a is not an AI SDK language model/);
    expect(() => aiSdkModel({ specificationVersion: 'v1', doGenerate: () => undefined } as never)).toThrow(/expected an AI SDK language model \(specification v4\) or \{ models: \{ … \} \}, got a model of specification v1$/);
  });

  it('refuses an AI SDK 6 model (specification v3), alone or in a table, saying which SDK it takes', () => {
    const v3 = { specificationVersion: 'v3', provider: 'anthropic.messages', modelId: 'claude-old', doGenerate: () => undefined, doStream: () => undefined };
    expect(() => aiSdkModel(v3 as never)).toThrow(/got a model of specification v3: this is a model of an older AI SDK; aiSdkModel takes AI SDK 7 models/);
    expect(() => aiSdkModel({ models: { old: v3 as never } })).toThrow(/models\.old is not an AI SDK language model \(specification v4\): this is a model of an older AI SDK/);
  });

  it('keeps the single-model form: the request model is not consulted', async () => {
    const only = mock('claude-only', textResult('single'));
    await expect(aiSdkModel(only).sample(request(hello, { model: 'anything' }), ctx('/root'))).resolves.toMatchObject({ text: 'single' });
  });
});

describe('aiSdkModel: streaming through doStream', () => {
  const chunks: LanguageModelV4StreamPart[] = [
    { type: 'stream-start', warnings: [] },
    { type: 'reasoning-start', id: 'r1' },
    { type: 'reasoning-delta', id: 'r1', delta: 'Let me ' },
    { type: 'reasoning-delta', id: 'r1', delta: 'look.' },
    { type: 'reasoning-delta', id: 'r1', delta: '', providerMetadata: { anthropic: { signature: 'sig-1' } } },
    { type: 'reasoning-end', id: 'r1' },
    { type: 'text-start', id: 't1' },
    { type: 'text-delta', id: 't1', delta: 'Reading ' },
    { type: 'text-delta', id: 't1', delta: 'it.' },
    { type: 'text-end', id: 't1' },
    { type: 'tool-input-start', id: 'toolu_1', toolName: 'read_file' },
    { type: 'tool-input-delta', id: 'toolu_1', delta: '{"path":"a.ts"}' },
    { type: 'tool-input-end', id: 'toolu_1' },
    { type: 'tool-call', toolCallId: 'toolu_1', toolName: 'read_file', input: '{"path":"a.ts"}' },
    { type: 'finish', usage: usage(40, 12), finishReason: { unified: 'tool-calls', raw: 'tool_use' } },
  ];

  it('passes each text and reasoning delta on, in order, and resolves with the whole reply', async () => {
    const model = streaming(chunks);
    const deltas: ModelDelta[] = [];
    const response = await aiSdkModel(model).sample(request(hello), { ...ctx('/root'), onDelta: (d) => deltas.push(d) });
    expect(deltas).toEqual([
      { kind: 'reasoning', text: 'Let me ' },
      { kind: 'reasoning', text: 'look.' },
      { kind: 'text', text: 'Reading ' },
      { kind: 'text', text: 'it.' },
    ]);
    expect(response).toEqual({
      text: 'Reading it.',
      toolCalls: [{ id: 'toolu_1', name: 'read_file', arguments: { path: 'a.ts' } }],
      reasoning: [{ text: 'Let me look.', providerMetadata: { anthropic: { signature: 'sig-1' } } }],
      usage: { inputTokens: 40, outputTokens: 12, cacheReadTokens: 0, cacheWriteTokens: 0 },
      stopReason: 'tool_calls',
    });
    expect(model.doStreamCalls).toHaveLength(1);
    expect(model.doGenerateCalls).toHaveLength(0);
  });

  it('uses doGenerate when nobody listens for deltas, or when streaming is off', async () => {
    const model = new MockLanguageModelV4({ doGenerate: [textResult('whole'), textResult('whole again')], doStream: async () => ({ stream: simulateReadableStream({ chunks }) }) });
    await expect(aiSdkModel(model).sample(request(hello), ctx('/root'))).resolves.toMatchObject({ text: 'whole' });
    await expect(aiSdkModel(model, { streaming: false }).sample(request(hello), { ...ctx('/root'), onDelta: () => undefined })).resolves.toMatchObject({ text: 'whole again' });
    expect(model.doStreamCalls).toHaveLength(0);
  });

  it("an error part rejects with the provider's error, so its status reaches the retries", async () => {
    const limited = new APICallError({ message: 'rate limited', url: 'u', requestBodyValues: {}, statusCode: 429, responseHeaders: { 'retry-after': '2' } });
    const model = streaming([{ type: 'text-delta', id: 't', delta: 'par' }, { type: 'error', error: limited }]);
    const error = await rejection(aiSdkModel(model).sample(request(hello), { ...ctx('/root'), onDelta: () => undefined }));
    expect(error).toBe(limited);
  });

  it('an abort mid-stream cancels the stream and rejects with an AbortError at once', async () => {
    let cancelled: unknown = 'not cancelled';
    let push!: (part: LanguageModelV4StreamPart) => void;
    const stream = new ReadableStream<LanguageModelV4StreamPart>({
      start: (controller) => {
        push = (part) => controller.enqueue(part);
      },
      cancel: (reason) => {
        cancelled = reason;
      },
    });
    const model = new MockLanguageModelV4({ doStream: async () => ({ stream }) });
    const controller = new AbortController();
    const deltas: ModelDelta[] = [];
    let firstDelta!: () => void;
    const received = new Promise<void>((resolve) => (firstDelta = resolve));
    const onDelta = (d: ModelDelta): void => {
      deltas.push(d);
      firstDelta();
    };
    const pending = aiSdkModel(model).sample(request(hello), { ...ctx('/root', 0, 0, controller.signal), onDelta });
    push({ type: 'text-delta', id: 't', delta: 'first' });
    await received;
    controller.abort(new Error('user stopped'));
    const error = await rejection(pending);
    expect(error.name).toBe('AbortError');
    expect(cancelled).toBeInstanceOf(Error);
    expect(deltas).toEqual([{ kind: 'text', text: 'first' }]);
  });
});

describe('aiSdkModel: reasoning round-trip', () => {
  it('a streamed reply keeps its reasoning signature, and the next streamed step sends it back', async () => {
    const model = new MockLanguageModelV4({
      provider: 'anthropic.messages',
      modelId: 'claude-think',
      doStream: [
        {
          stream: simulateReadableStream<LanguageModelV4StreamPart>({
            initialDelayInMs: null,
            chunkDelayInMs: null,
            chunks: [
              { type: 'reasoning-start', id: 'r' },
              { type: 'reasoning-delta', id: 'r', delta: 'Need the file.' },
              { type: 'reasoning-end', id: 'r', providerMetadata: { anthropic: { signature: 'sig-end' } } },
              { type: 'tool-call', toolCallId: 'toolu_9', toolName: 'read_file', input: '{"path":"b.ts"}' },
              { type: 'finish', usage: usage(5, 5), finishReason: { unified: 'tool-calls', raw: 'tool_use' } },
            ],
          }),
        },
        {
          stream: simulateReadableStream<LanguageModelV4StreamPart>({
            initialDelayInMs: null,
            chunkDelayInMs: null,
            chunks: [
              { type: 'text-delta', id: 't', delta: 'b.ts is empty.' },
              { type: 'finish', usage: usage(9, 3), finishReason: { unified: 'stop', raw: 'end_turn' } },
            ],
          }),
        },
      ],
    });
    const adapter = aiSdkModel(model);
    const streamCtx = (step: number) => ({ ...ctx('/root', 0, step), onDelta: () => undefined });
    const first = await adapter.sample(request(hello), streamCtx(0));
    expect(first.reasoning).toEqual([{ text: 'Need the file.', providerMetadata: { anthropic: { signature: 'sig-end' } } }]);
    const log = [
      ...hello,
      assistantEntry({ text: first.text, toolCalls: first.toolCalls, reasoning: first.reasoning ?? [], id: 'a1' }),
      toolResultEntry({ callId: 'toolu_9', toolName: 'read_file', content: '', id: 'r1' }),
    ];
    await expect(adapter.sample(request(log), streamCtx(1))).resolves.toMatchObject({ text: 'b.ts is empty.', stopReason: 'stop' });
    expect(model.doStreamCalls[1]!.prompt.find((m) => m.role === 'assistant')?.content).toEqual([
      { type: 'reasoning', text: 'Need the file.', providerOptions: { anthropic: { signature: 'sig-end' } } },
      { type: 'tool-call', toolCallId: 'toolu_9', toolName: 'read_file', input: { path: 'b.ts' } },
    ]);
  });

  it('sends reasoning parts back with their provider metadata on the next step of a tool-using turn', async () => {
    const signature = { anthropic: { signature: 'EqQBCkYIAxgCIkD' } };
    const redacted = { anthropic: { redactedData: 'opaque-bytes' } };
    const model = new MockLanguageModelV4({
      provider: 'anthropic.messages',
      modelId: 'claude-think',
      doGenerate: [
        {
          content: [
            { type: 'reasoning', text: 'I should read the file first.', providerMetadata: signature },
            { type: 'reasoning', text: '', providerMetadata: redacted },
            { type: 'tool-call', toolCallId: 'toolu_1', toolName: 'read_file', input: '{"path":"a.ts"}' },
          ],
          finishReason: { unified: 'tool-calls', raw: 'tool_use' },
          usage: usage(50, 20),
          warnings: [],
        },
        textResult('a.ts exports a.'),
      ],
    });
    const readFile = defineRuntimeTool({ name: 'read_file', description: 'Reads a file.', schema: z.object({ path: z.string() }), execute: () => 'export const a = 1;' });
    const rt = createRuntime({ model: aiSdkModel(model), tools: [readFile] });
    await expect(rt.prompt('What does a.ts export?')).resolves.toMatchObject({ status: 'completed', text: 'a.ts exports a.' });

    const assistant = model.doGenerateCalls[1]!.prompt.find((m) => m.role === 'assistant');
    expect(assistant?.content).toEqual([
      { type: 'reasoning', text: 'I should read the file first.', providerOptions: signature },
      { type: 'reasoning', text: '', providerOptions: redacted },
      { type: 'tool-call', toolCallId: 'toolu_1', toolName: 'read_file', input: { path: 'a.ts' } },
    ]);
    // The transcript keeps them with the reply.
    const entry = rt.transcript('/root')!.log.toArray().find((e) => e.kind === 'assistant');
    expect(entry).toMatchObject({ reasoning: [{ text: 'I should read the file first.', providerMetadata: signature }, { text: '', providerMetadata: redacted }] });
  });
});

describe('aiSdkModel: tool-call provider metadata', () => {
  it("sends a tool call's provider metadata (Gemini's thought signature) back with the call", async () => {
    const model = new MockLanguageModelV4({
      provider: 'google.generative-ai',
      modelId: 'gemini-test',
      doGenerate: [
        {
          content: [{ type: 'tool-call', toolCallId: 'fc_1', toolName: 'read_file', input: '{"path":"c.ts"}', providerMetadata: { google: { thoughtSignature: 'ts-1' } } }],
          finishReason: { unified: 'tool-calls', raw: 'STOP' },
          usage: usage(5, 5),
          warnings: [],
        },
        textResult('c.ts is fine.'),
      ],
    });
    const readFile = defineRuntimeTool({ name: 'read_file', description: 'Reads a file.', schema: z.object({ path: z.string() }), execute: () => '' });
    const rt = createRuntime({ model: aiSdkModel(model), tools: [readFile] });
    await expect(rt.prompt('Check c.ts')).resolves.toMatchObject({ status: 'completed' });
    expect(model.doGenerateCalls[1]!.prompt.find((m) => m.role === 'assistant')?.content).toEqual([
      { type: 'tool-call', toolCallId: 'fc_1', toolName: 'read_file', input: { path: 'c.ts' }, providerOptions: { google: { thoughtSignature: 'ts-1' } } },
    ]);
  });
});

describe('aiSdkModel in a streaming runtime', () => {
  it('a host iterating events gets the deltas; a 429 in the stream is retried; the reasoning goes back on the tool step', async () => {
    const limited = new APICallError({ message: 'rate limited', url: 'u', requestBodyValues: {}, statusCode: 429, responseHeaders: { 'retry-after-ms': '20' } });
    const stream = (chunks: LanguageModelV4StreamPart[]) => ({ stream: simulateReadableStream({ chunks, initialDelayInMs: null, chunkDelayInMs: null }) });
    const model = new MockLanguageModelV4({
      provider: 'anthropic.messages',
      modelId: 'claude-think',
      doStream: [
        stream([{ type: 'error', error: limited }]),
        stream([
          { type: 'reasoning-start', id: 'r' },
          { type: 'reasoning-delta', id: 'r', delta: 'Read it first.' },
          { type: 'reasoning-end', id: 'r', providerMetadata: { anthropic: { signature: 'sig-rt' } } },
          { type: 'tool-call', toolCallId: 'toolu_1', toolName: 'read_file', input: '{"path":"a.ts"}' },
          { type: 'finish', usage: usage(30, 10), finishReason: { unified: 'tool-calls', raw: 'tool_use' } },
        ]),
        stream([
          { type: 'text-delta', id: 't', delta: 'a.ts ' },
          { type: 'text-delta', id: 't', delta: 'exports a.' },
          { type: 'finish', usage: usage(40, 4), finishReason: { unified: 'stop', raw: 'end_turn' } },
        ]),
      ],
    });
    const clock = manualClock();
    const readFile = defineRuntimeTool({ name: 'read_file', description: 'Reads a file.', schema: z.object({ path: z.string() }), execute: () => 'export const a = 1;' });
    const rt = createRuntime({ model: aiSdkModel(model), tools: [readFile], clock, requestTimeoutMs: Infinity });
    const watching = new AbortController();
    const seen: RuntimeStreamEvent[] = [];
    const reading = (async () => {
      for await (const event of rt.events({ signal: watching.signal })) {
        seen.push(event);
        // The retry's wait is registered on the clock when its event is emitted.
        if (event.type === 'retry') queueMicrotask(() => clock.advance(event.delayMs));
      }
    })();
    const outcome = await rt.prompt('What does a.ts export?');
    watching.abort();
    await reading;

    expect(outcome).toMatchObject({ status: 'completed', text: 'a.ts exports a.' });
    expect(outcome.usage.own).toMatchObject({ requests: 3, retries: 1 });
    expect(model.doStreamCalls).toHaveLength(3);
    expect(model.doGenerateCalls).toHaveLength(0);
    expect(seen.filter((e) => e.type === 'retry')).toEqual([expect.objectContaining({ path: '/root', attempt: 1, delayMs: 20, status: 429 })]);
    const deltas = seen.flatMap((e) => (e.type === 'text-delta' || e.type === 'reasoning-delta' ? [[e.type, e.text]] : []));
    expect(deltas).toEqual([
      ['reasoning-delta', 'Read it first.'],
      ['text-delta', 'a.ts '],
      ['text-delta', 'exports a.'],
    ]);
    expect(model.doStreamCalls[2]!.prompt.find((m) => m.role === 'assistant')?.content[0]).toEqual({
      type: 'reasoning',
      text: 'Read it first.',
      providerOptions: { anthropic: { signature: 'sig-rt' } },
    });
    expect(clock.pending).toBe(0);
  });
});

