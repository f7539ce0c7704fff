import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import type { LanguageModelV4, LanguageModelV4CallOptions, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStandIn, systemText, userTexts, type StandIn, type WireApi, type WireReply } from './stand-in/index.js';

let standIn: StandIn;
beforeAll(async () => {
  standIn = await startStandIn({ deltaSize: 3 });
});
afterAll(() => standIn.close());

const models: Record<WireApi, () => LanguageModelV4> = {
  'anthropic-messages': () => createAnthropic({ baseURL: standIn.baseURL, apiKey: 'test-key' })('claude-sonnet-4-5'),
  'openai-chat': () => createOpenAI({ baseURL: standIn.baseURL, apiKey: 'test-key' }).chat('gpt-4.1'),
  'openai-responses': () => createOpenAI({ baseURL: standIn.baseURL, apiKey: 'test-key' }).responses('gpt-4.1'),
};

const call: LanguageModelV4CallOptions = {
  prompt: [
    { role: 'system', content: 'You are terse.' },
    { role: 'user', content: [{ type: 'text', text: 'Read a.ts' }] },
  ],
  tools: [{ type: 'function', name: 'read', description: 'Reads a file.', inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } }],
};

const reply: WireReply = {
  reasoning: [{ text: 'The user wants a file read.', signature: 'sig-1' }],
  text: 'Reading it now.',
  toolCalls: [{ id: 'call-a', name: 'read', arguments: { path: 'a.ts' } }],
  usage: { input: 40, output: 12, cacheRead: 100, cacheWrite: 20 },
};

async function partsOf(stream: ReadableStream<LanguageModelV4StreamPart>): Promise<LanguageModelV4StreamPart[]> {
  const parts: LanguageModelV4StreamPart[] = [];
  for await (const part of stream) parts.push(part);
  return parts;
}

describe.each(Object.keys(models) as WireApi[])('the stand-in, as %s, with the real provider package', (api) => {
  it('answers JSON with text, a tool call and usage, and records the request', async () => {
    standIn.clear();
    standIn.respondWith(() => reply);
    const result = await models[api]().doGenerate(call);
    const text = result.content.filter((part) => part.type === 'text').map((part) => part.text).join('');
    expect(text).toBe('Reading it now.');
    const toolCall = result.content.find((part) => part.type === 'tool-call');
    expect(toolCall).toMatchObject({ toolCallId: 'call-a', toolName: 'read' });
    expect(JSON.parse((toolCall as { input: string }).input)).toEqual({ path: 'a.ts' });
    expect(result.finishReason.unified).toBe('tool-calls');
    expect(result.usage.inputTokens.cacheRead).toBe(100);
    expect(result.usage.outputTokens.total).toBe(12);
    if (api === 'anthropic-messages') {
      expect(result.usage.inputTokens.cacheWrite).toBe(20);
      expect(result.usage.inputTokens.total).toBe(160);
    } else {
      expect(result.usage.inputTokens.total).toBe(160);
    }
    if (api !== 'openai-chat') {
      const reasoning = result.content.find((part) => part.type === 'reasoning');
      expect(reasoning).toMatchObject({ text: 'The user wants a file read.' });
    }
    if (api === 'anthropic-messages') {
      expect(result.content.find((part) => part.type === 'reasoning')?.providerMetadata).toMatchObject({ anthropic: { signature: 'sig-1' } });
    }

    const [recorded] = standIn.requests;
    expect(recorded?.api).toBe(api);
    expect(recorded?.stream).toBe(false);
    expect(JSON.parse(recorded?.rawBody ?? '')).toEqual(recorded?.body);
    expect(recorded?.headers[api === 'anthropic-messages' ? 'x-api-key' : 'authorization']).toMatch(/test-key/);
    expect(systemText(recorded!)).toBe('You are terse.');
    expect(userTexts(recorded!)).toEqual(['Read a.ts']);
  });

  it('streams the same reply as SSE, in several deltas', async () => {
    standIn.clear();
    standIn.respondWith(() => reply);
    const { stream } = await models[api]().doStream(call);
    const parts = await partsOf(stream);
    const textDeltas = parts.filter((part) => part.type === 'text-delta');
    expect(textDeltas.length).toBeGreaterThan(1);
    expect(textDeltas.map((part) => part.delta).join('')).toBe('Reading it now.');
    const toolCall = parts.find((part) => part.type === 'tool-call');
    expect(toolCall).toMatchObject({ toolCallId: 'call-a', toolName: 'read' });
    expect(JSON.parse((toolCall as { input: string }).input)).toEqual({ path: 'a.ts' });
    const finish = parts.find((part) => part.type === 'finish');
    expect(finish).toMatchObject({ finishReason: { unified: 'tool-calls' } });
    expect((finish as Extract<LanguageModelV4StreamPart, { type: 'finish' }>).usage.inputTokens.cacheRead).toBe(100);
    expect(parts.find((part) => part.type === 'error')).toBeUndefined();
    if (api !== 'openai-chat') {
      expect(parts.filter((part) => part.type === 'reasoning-delta').map((part) => part.delta).join('')).toBe('The user wants a file read.');
    }
    expect(standIn.requests[0]?.stream).toBe(true);
  });

  it('answers a scripted error with the status and headers, as the provider reports it', async () => {
    standIn.respondWith(() => ({ error: { status: 429, message: 'slow down', headers: { 'retry-after': '0' } } }));
    const failure = await Promise.resolve(models[api]().doGenerate(call)).catch((error: unknown) => error);
    expect(failure).toMatchObject({ statusCode: 429, isRetryable: true, responseHeaders: { 'retry-after': '0' } });
    expect(String((failure as Error).message)).toMatch(/slow down/);
  });

  it('derives the same ids from the same request bytes, whenever it arrives', async () => {
    standIn.respondWith(() => ({ toolCalls: [{ name: 'read', arguments: { path: 'b.ts' } }] }));
    const first = await models[api]().doGenerate(call);
    const second = await models[api]().doGenerate(call);
    const id = (result: typeof first): unknown => result.content.find((part) => part.type === 'tool-call')?.toolCallId;
    expect(id(first)).toEqual(id(second));
    expect(id(first)).toMatch(/^(toolu_|call_)/);
  });
});

describe('the stand-in', () => {
  it('refuses a path it does not serve and a body that is not a JSON object', async () => {
    const missing = await fetch(`${standIn.baseURL}/embeddings`, { method: 'POST', body: '{}' });
    expect(missing.status).toBe(404);
    const malformed = await fetch(`${standIn.baseURL}/messages`, { method: 'POST', body: '[1]' });
    expect(malformed.status).toBe(400);
  });

  it('answers a responder that throws with a 500 naming the error', async () => {
    standIn.respondWith(() => {
      throw new Error('no script for this');
    });
    const response = await fetch(`${standIn.baseURL}/chat/completions`, { method: 'POST', body: '{"messages":[]}' });
    expect(response.status).toBe(500);
    expect(await response.text()).toMatch(/no script for this/);
  });

  it('refuses a delta size that is not a positive integer', async () => {
    await expect(startStandIn({ deltaSize: 0 })).rejects.toThrow(/deltaSize/);
  });
});
