/**
 * aiSdkModel with the real AI SDK 7 provider packages (`@ai-sdk/anthropic` 4, `@ai-sdk/openai` 4,
 * Chat Completions and Responses) against the provider stand-in: a runtime's turn with a tool
 * step, generated and streamed, with reasoning that goes back to the provider on the next step.
 */
import type { LanguageModelV4 } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { aiSdkModel } from '../../src/model/ai-sdk.js';
import { createRuntime, defineRuntimeTool } from '../../src/runtime/runtime.js';
import type { RuntimeStreamEvent } from '../../src/runtime/stream-events.js';
import { answersToolResult, list, useStandIn, WIRE_APIS, wireModel } from './harness.js';
import type { RecordedRequest, WireApi, WireReply } from './stand-in/index.js';

const standIn = useStandIn({ deltaSize: 4 });

/** Responses is tested with a reasoning model, whose reasoning items go back as references. */
const models: Record<WireApi, () => LanguageModelV4> = {
  'anthropic-messages': () => wireModel(standIn(), 'anthropic-messages'),
  'openai-chat': () => wireModel(standIn(), 'openai-chat'),
  'openai-responses': () => wireModel(standIn(), 'openai-responses', 'o4-mini'),
};

/** Reads a file, then answers; the first reply thinks aloud first. */
const script = (request: RecordedRequest): WireReply =>
  answersToolResult(request)
    ? { text: 'a.ts exports a.', usage: { input: 30, output: 5, cacheRead: 200 } }
    : { reasoning: [{ text: 'Read the file first.', signature: 'sig-wire' }], toolCalls: [{ name: 'read_file', arguments: { path: 'a.ts' } }], usage: { input: 20, output: 8 } };

const readFile = defineRuntimeTool({ name: 'read_file', description: 'Reads a file.', schema: z.object({ path: z.string() }), execute: ({ path }) => `export const a = 1; // ${path}` });

/** The tool-result text of the request, in the API's own shape. */
function toolResultText(request: RecordedRequest): string | undefined {
  if (request.api === 'openai-responses') return list(request.body['input']).find((item) => item['type'] === 'function_call_output')?.['output'] as string | undefined;
  const messages = list(request.body['messages']);
  if (request.api === 'openai-chat') return messages.find((m) => m['role'] === 'tool')?.['content'] as string | undefined;
  const block = messages.flatMap((m) => list(m['content'])).find((b) => b['type'] === 'tool_result');
  const content = block?.['content'];
  return typeof content === 'string' ? content : list(content).map((part) => String(part['text'])).join('');
}

describe.each(WIRE_APIS)('aiSdkModel with the real provider package, as %s', (api) => {
  it.each([false, true])('runs a tool step and answers (streamed: %s), sending the reasoning back where the API takes it', async (streamed) => {
    standIn().clear();
    standIn().respondWith(script);
    const rt = createRuntime({ model: aiSdkModel(models[api](), { cacheHints: api === 'anthropic-messages' }), tools: [readFile] });
    const watching = new AbortController();
    const seen: RuntimeStreamEvent[] = [];
    const reading = streamed
      ? (async () => {
          for await (const event of rt.events({ signal: watching.signal })) seen.push(event);
        })()
      : Promise.resolve();
    const outcome = await rt.prompt('What does a.ts export?');
    watching.abort();
    await reading;

    expect(outcome).toMatchObject({ status: 'completed', text: 'a.ts exports a.' });
    const requests = standIn().requestsTo(api);
    expect(requests.map((r) => r.stream)).toEqual([streamed, streamed]);
    expect(toolResultText(requests[1]!)).toBe('export const a = 1; // a.ts');
    // The provider's usage reaches the result, cache reads included.
    expect(outcome.usage.own).toMatchObject({ requests: 2, cacheReadTokens: 200 });
    if (streamed) {
      const deltas = seen.flatMap((e) => (e.type === 'text-delta' ? [e.text] : []));
      expect(deltas.length).toBeGreaterThan(1);
      expect(deltas.join('')).toBe('a.ts exports a.');
      if (api !== 'openai-chat') expect(seen.filter((e) => e.type === 'reasoning-delta').map((e) => (e as { text: string }).text).join('')).toBe('Read the file first.');
    }
    if (api === 'anthropic-messages') {
      // Anthropic checks a turn's thinking blocks during tool use: the signed block goes back first.
      const assistant = list(requests[1]!.body['messages']).find((m) => m['role'] === 'assistant');
      expect(list(assistant?.['content'])[0]).toEqual({ type: 'thinking', thinking: 'Read the file first.', signature: 'sig-wire' });
      expect(list(requests[0]!.body['system']).at(-1)).toMatchObject({ cache_control: { type: 'ephemeral' } });
    }
    if (api === 'openai-responses') {
      // The reasoning item is referenced (or resent) ahead of the function call it led to.
      const input = list(requests[1]!.body['input']);
      const reasoningAt = input.findIndex((item) => item['type'] === 'reasoning' || (item['type'] === 'item_reference' && String(item['id']).startsWith('rs_')));
      const callAt = input.findIndex((item) => item['type'] === 'function_call' || (item['type'] === 'item_reference' && !String(item['id']).startsWith('rs_')));
      expect(reasoningAt).toBeGreaterThanOrEqual(0);
      expect(reasoningAt).toBeLessThan(callAt);
    }
  });

  it("passes a provider's error on with its status, so the runtime retries a 429", async () => {
    standIn().clear();
    let failed = false;
    standIn().respondWith((request) => {
      if (!failed) {
        failed = true;
        return { error: { status: 429, message: 'slow down', headers: { 'retry-after-ms': '0' } } };
      }
      return script(request);
    });
    const rt = createRuntime({ model: aiSdkModel(models[api]()), tools: [readFile] });
    const outcome = await rt.prompt('What does a.ts export?');
    expect(outcome).toMatchObject({ status: 'completed', text: 'a.ts exports a.' });
    // Three requests reached the provider: the refused one, its retry, and the step after the tool.
    expect(outcome.usage.own).toMatchObject({ requests: 3, retries: 1 });
    expect(standIn().requestsTo(api)).toHaveLength(3);
  });
});
