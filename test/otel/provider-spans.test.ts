/**
 * Spans the provider code starts nest under the request's `chat` span: an AI SDK model wrapped
 * with a middleware that traces each call (as telemetry middleware does), run through
 * `aiSdkModel` with an AsyncLocalStorage context manager registered. And the adapters name
 * their provider for `gen_ai.provider.name`.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as api from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import type { LanguageModelV4GenerateResult } from '@ai-sdk/provider';
import { wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { aiSdkModel } from '../../src/model/ai-sdk.js';
import { createRuntime } from '../../src/runtime/runtime.js';
import { scriptedModel } from '../../src/testing/index.js';

/** The smallest AsyncLocalStorage context manager (what the Node SDK registers). */
class AlsContextManager implements api.ContextManager {
  private readonly storage = new AsyncLocalStorage<api.Context>();
  active(): api.Context {
    return this.storage.getStore() ?? api.ROOT_CONTEXT;
  }
  with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(context: api.Context, fn: F, thisArg?: ThisParameterType<F>, ...args: A): ReturnType<F> {
    return this.storage.run(context, () => fn.apply(thisArg, args));
  }
  bind<T>(_context: api.Context, target: T): T {
    return target;
  }
  enable(): this {
    return this;
  }
  disable(): this {
    this.storage.disable();
    return this;
  }
}

const exporter = new InMemorySpanExporter();
const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
beforeAll(() => {
  api.context.setGlobalContextManager(new AlsContextManager());
  api.trace.setGlobalTracerProvider(provider);
});
afterAll(() => {
  api.trace.disable();
  api.context.disable();
});

const result = (text: string): LanguageModelV4GenerateResult => ({
  content: [{ type: 'text', text }],
  finishReason: { unified: 'stop', raw: 'end_turn' },
  usage: { inputTokens: { total: 7, noCache: undefined, cacheRead: 2, cacheWrite: undefined }, outputTokens: { total: 1, text: undefined, reasoning: undefined } },
  warnings: [],
});

describe('provider spans', () => {
  it('nest under the chat span of the request they serve', async () => {
    const base = new MockLanguageModelV4({ provider: 'anthropic.messages', modelId: 'claude-x', doGenerate: async () => result('hi') });
    // A middleware that traces each provider call under whatever context is active, after an await.
    const traced = wrapLanguageModel({
      model: base,
      middleware: {
        specificationVersion: 'v4',
        wrapGenerate: async ({ doGenerate }) => {
          await Promise.resolve();
          return api.trace.getTracer('provider').startActiveSpan('ai.generate', async (span) => {
            try {
              return await doGenerate();
            } finally {
              span.end();
            }
          });
        },
      },
    });
    // No tracer given: the global provider's is used.
    const runtime = createRuntime({ model: aiSdkModel(traced), modelId: 'claude-x', telemetry: {} });
    await runtime.prompt('hello');
    runtime.stop();
    await provider.forceFlush();
    const spans = exporter.getFinishedSpans();
    const chat = spans.find((s) => s.name === 'chat claude-x')!;
    const inner = spans.find((s) => s.name === 'ai.generate')!;
    expect(inner.parentSpanContext?.spanId).toBe(chat.spanContext().spanId);
    expect(inner.spanContext().traceId).toBe(chat.spanContext().traceId);
    expect(chat.attributes).toMatchObject({ 'gen_ai.provider.name': 'anthropic', 'gen_ai.usage.input_tokens': 7, 'gen_ai.usage.cache_read.input_tokens': 2 });
  });

  it('name the provider: aiSdkModel per model of its table, any adapter by its name otherwise', async () => {
    const table = aiSdkModel({
      models: {
        default: new MockLanguageModelV4({ provider: 'openai.responses', modelId: 'gpt', doGenerate: async () => result('a') }),
        other: new MockLanguageModelV4({ provider: 'anthropic.messages', modelId: 'c', doGenerate: async () => result('b') }),
      },
    });
    expect(typeof table.provider === 'function' && [table.provider('default'), table.provider('other')]).toEqual(['openai', 'anthropic']);
    exporter.reset();
    const runtime = createRuntime({ model: scriptedModel({ '/root': { 0: [{ text: 'ok' }] } }), telemetry: {} });
    await runtime.prompt('hi');
    runtime.stop();
    await provider.forceFlush();
    const chat = exporter.getFinishedSpans().find((s) => s.name.startsWith('chat '))!;
    expect(chat.attributes['gen_ai.provider.name']).toBe('scripted');
  });
});
