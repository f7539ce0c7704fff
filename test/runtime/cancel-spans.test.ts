/**
 * A traced runtime's cancellations (lifecycle.cancel and finished): each stopped agent's span
 * gets a `cancelled` event (its state, the reason, the subtree's top) and ends `cancelled`; the
 * report of what was stopped goes on the `cancel_agent` call that asked for it, or on the
 * cancelled agent's own span when the host asked.
 */
import { describe, expect, it } from 'vitest';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider, type ReadableSpan } from '@opentelemetry/sdk-trace';
import { manualClock } from '../../src/model/clock.js';
import { scriptedModel } from '../../src/model/scripted.js';
import { createRuntime } from '../../src/runtime/runtime.js';

const agentSpan = (spans: readonly ReadableSpan[], path: string): ReadableSpan | undefined => spans.find((s) => s.attributes['gen_ai.operation.name'] === 'invoke_agent' && s.attributes['gen_ai.agent.id'] === path);
const events = (span: ReadableSpan | undefined): Array<[string, unknown]> => (span?.events ?? []).map((e) => [e.name, e.attributes]);

describe('the spans of a cancellation', () => {
  it("put the report on the cancel_agent call, or on the agent's own span when the host cancels", async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
    const clock = manualClock();
    const model = scriptedModel(
      {
        '/root': { 0: [{ toolCalls: [{ name: 'cancel_agent', arguments: { agent_id: '/root/job' } }] }, { text: 'ok' }] },
        '/root/job': { 0: [{ text: 'never', latencyMs: 1_000 }] },
        '/root/other': { 0: [{ text: 'never', latencyMs: 1_000 }] },
      },
      { clock },
    );
    const rt = createRuntime({ model, telemetry: { tracer: provider.getTracer('t') } });
    await rt.spawn('/root', { task_name: 'job', message: 'j' });
    await clock.whenPending(1);
    await rt.prompt('cancel it');
    await rt.spawn('/root', { task_name: 'other', message: 'o' });
    await clock.whenPending(1);
    rt.cancel('/root/other', 'not needed');
    await rt.whenQuiet();
    await provider.forceFlush();
    const spans = exporter.getFinishedSpans();

    const job = agentSpan(spans, '/root/job');
    expect(job?.attributes['subagent_actors.status']).toBe('cancelled');
    expect(events(job)).toEqual([['subagent_actors.cancelled', { state: 'running.working.sampling', reason: 'cancelled by /root', 'cancelled.root': '/root/job' }]]);
    const call = spans.find((s) => s.name === 'execute_tool cancel_agent');
    const report = { target: '/root/job', reason: 'cancelled by /root', 'stopped.paths': ['/root/job'], 'stopped.states': ['running.working.sampling'] };
    expect(events(call)).toEqual([['subagent_actors.cancel_report', report]]);

    const other = agentSpan(spans, '/root/other');
    expect(other?.attributes['subagent_actors.status']).toBe('cancelled');
    expect(events(other)).toEqual([
      ['subagent_actors.cancelled', { state: 'running.working.sampling', reason: 'not needed', 'cancelled.root': '/root/other' }],
      ['subagent_actors.cancel_report', { target: '/root/other', reason: 'not needed', 'stopped.paths': ['/root/other'], 'stopped.states': ['running.working.sampling'] }],
    ]);
  });
});
