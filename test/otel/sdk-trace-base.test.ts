/**
 * The tracer a host brings may come from the older SDK package, `@opentelemetry/sdk-trace-base`
 * 2 (`BasicTracerProvider`, `InMemorySpanExporter`), which many setups still install: the
 * runtime only needs the tracer's shape, so its spans nest the same way there.
 */
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { expect, it } from 'vitest';
import { createRuntime } from '../../src/index.js';
import { scriptedModel } from '../../src/model/scripted.js';

it('a tracer from @opentelemetry/sdk-trace-base 2 gets the agent tree, each subagent under the Agent call that spawned it', async () => {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const model = scriptedModel({
    '/root': { 0: [{ toolCalls: [{ name: 'Agent', arguments: { task_name: 'worker', message: 'look' } }] }, { text: 'done' }] },
    '**': { 0: [{ text: 'ok' }] },
  });
  const rt = createRuntime({ model, telemetry: { tracer: provider.getTracer('test') } });
  await rt.prompt('go');
  rt.stop();
  await provider.forceFlush();
  const spans = exporter.getFinishedSpans();
  const byId = new Map(spans.map((span) => [span.spanContext().spanId, span]));
  const agentSpan = (path: string) => spans.find((span) => span.name.startsWith('invoke_agent') && span.attributes['gen_ai.agent.id'] === path);
  const worker = agentSpan('/root/worker');
  const root = agentSpan('/root');
  expect(worker?.name).toBe('invoke_agent worker');
  const spawnedBy = byId.get(worker?.parentSpanContext?.spanId ?? '');
  expect(spawnedBy?.name).toBe('execute_tool Agent');
  // The Agent call is the root's, so the whole tree is one trace.
  expect(new Set(spans.map((span) => span.spanContext().traceId)).size).toBe(1);
  expect(spans.some((span) => span.parentSpanContext?.spanId === root?.spanContext().spanId && span.name.startsWith('chat'))).toBe(true);
  await provider.shutdown();
});
