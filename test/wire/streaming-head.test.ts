/**
 * Streaming never changes the request head: with the real `@ai-sdk/anthropic`, a host that
 * reads only the root's events (the root streams, its fork does not) sends the same tool
 * definitions in both agents' requests.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { aiSdkModel, type AiSdkModelOptions } from '../../src/model/ai-sdk.js';
import { createRuntime, defineRuntimeTool } from '../../src/runtime/runtime.js';
import { answersToolResult, list, useStandIn, wireModel } from './harness.js';
import { userTexts, type RecordedRequest, type WireReply } from './stand-in/index.js';

const standIn = useStandIn();

const readFile = defineRuntimeTool({ name: 'read_file', description: 'Reads a file.', schema: z.object({ path: z.string() }), execute: () => 'x' });

/** The root forks once; the fork answers; the root answers after its Agent call's result. */
function script(request: RecordedRequest): WireReply {
  if (userTexts(request).some((text) => text.includes('look deeper'))) return { text: 'fork done' };
  if (answersToolResult(request)) return { text: 'done' };
  return { toolCalls: [{ name: 'Agent', arguments: { task_name: 'fork', message: 'look deeper', context: 'all' } }] };
}

/** Runs one prompt reading only the root's events; returns the root's first and the fork's first request. */
async function rootOnlyStreaming(options: AiSdkModelOptions = {}): Promise<{ root: RecordedRequest; fork: RecordedRequest }> {
  standIn().clear();
  standIn().respondWith(script);
  const rt = createRuntime({ model: aiSdkModel(wireModel(standIn(), 'anthropic-messages'), { cacheHints: true, ...options }), tools: [readFile] });
  const watching = new AbortController();
  const reading = (async () => {
    for await (const _event of rt.events({ path: '/root', signal: watching.signal }));
  })();
  expect(await rt.prompt('Look at a.ts.')).toMatchObject({ status: 'completed' });
  rt.close('/root/fork');
  await rt.result('/root/fork');
  watching.abort();
  await reading;
  rt.stop();
  const requests = standIn().requestsTo('anthropic-messages');
  const fork = requests.find((r) => userTexts(r).some((text) => text.includes('look deeper')))!;
  return { root: requests[0]!, fork };
}

describe('streaming never changes the head (Anthropic)', () => {
  it('a host that reads only the root: the streamed root and its unstreamed fork send the same tools', async () => {
    const { root, fork } = await rootOnlyStreaming();
    expect(root.stream).toBe(true);
    expect(fork.stream).toBe(false);
    expect(list(root.body['tools']).length).toBeGreaterThan(1);
    expect(JSON.stringify(fork.body['tools'])).toBe(JSON.stringify(root.body['tools']));
    expect(list(root.body['tools']).some((tool) => 'eager_input_streaming' in tool)).toBe(false);
  });

  it('a host that asks for tool streaming gets it on every request alike', async () => {
    const { root, fork } = await rootOnlyStreaming({ providerOptions: { anthropic: { toolStreaming: true } } });
    expect(fork.stream).toBe(false);
    expect(list(root.body['tools']).every((tool) => tool['eager_input_streaming'] === true)).toBe(true);
    expect(JSON.stringify(fork.body['tools'])).toBe(JSON.stringify(root.body['tools']));
  });
});
