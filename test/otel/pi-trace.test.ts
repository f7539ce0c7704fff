/**
 * The Pi extension traces with `piSubagents({ runtime: { telemetry } })`: the Pi session is the
 * root agent, its `Agent` call an `execute_tool Agent` span, the subagent under it with its
 * request to Pi's model as a `chat` span named by Pi's provider.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { fauxAssistantMessage, fauxToolCall } from '@earendil-works/pi-ai';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { createPiHarness, lastText, type PiHarness } from '../pi/harness.js';

let harness: PiHarness | undefined;
afterEach(() => {
  harness?.dispose();
  harness = undefined;
});

describe('Pi extension telemetry', () => {
  it('puts the subagent under the Pi session’s Agent call', async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
    harness = await createPiHarness({
      options: { runtime: { telemetry: { tracer: provider.getTracer('pi-test') } } },
      respond: (r) => {
        if (r.context.messages.at(-1)?.role === 'user' && lastText(r).includes('CHILD-TASK')) return fauxAssistantMessage('child done');
        if (r.context.messages.at(-1)?.role === 'toolResult') return fauxAssistantMessage('ok');
        return fauxAssistantMessage([fauxToolCall('Agent', { task_name: 'helper', message: 'CHILD-TASK look around', context: 'none' }, { id: 'call_pi_agent' })], { stopReason: 'toolUse' });
      },
    });
    await harness.session.prompt('please delegate');
    await harness.shutdown();
    await provider.forceFlush();
    const spans = exporter.getFinishedSpans();
    const child = spans.find((s) => s.name === 'invoke_agent helper')!;
    const call = spans.find((s) => s.spanContext().spanId === child.parentSpanContext?.spanId)!;
    expect(call.name).toBe('execute_tool Agent');
    expect(call.attributes['gen_ai.tool.call.id']).toBe('call_pi_agent');
    const root = spans.find((s) => s.spanContext().spanId === call.parentSpanContext?.spanId)!;
    expect(root.attributes).toMatchObject({ 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.id': '/root' });
    const chat = spans.find((s) => s.attributes['gen_ai.operation.name'] === 'chat' && s.parentSpanContext?.spanId === child.spanContext().spanId)!;
    expect(chat.attributes['gen_ai.provider.name']).toBe(harness.faux.getModel().provider);
    expect(child.attributes['subagent_actors.status']).toBe('completed');
  });
});
