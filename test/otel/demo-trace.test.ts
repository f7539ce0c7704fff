/**
 * The demo session traced into an InMemorySpanExporter: the span tree has the shape of the
 * agent tree (every subagent under the `execute_tool Agent` span that spawned it), the
 * attributes use the GenAI conventions' names, the cancelled subtree's spans end with the
 * cancellation events, and a session resumed from its journal continues the trace.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider, type ReadableSpan } from '@opentelemetry/sdk-trace';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { manualClock } from '../../src/testing/index.js';
import { DEMO_PATHS } from '../../src/cli/demo-script.js';
import { runDemoSession, type DemoSessionOutcome } from '../../src/cli/session.js';
import { createJsonlStore, openJsonlStore } from '../../src/index.js';

const work = mkdtempSync(join(tmpdir(), 'demo-trace-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function sink() {
  return { isTTY: false, columns: 160, write: () => true };
}

async function traced(extra: Partial<Parameters<typeof runDemoSession>[0]> = {}): Promise<{ outcome: DemoSessionOutcome; spans: ReadableSpan[] }> {
  const exporter = new InMemorySpanExporter();
  const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
  const outcome = await runDemoSession({ out: sink(), tty: false, latencyScale: 0, clock: manualClock(), telemetry: { tracer: provider.getTracer('demo-test') }, ...extra });
  await provider.forceFlush();
  return { outcome, spans: exporter.getFinishedSpans() };
}

const agentSpans = (spans: readonly ReadableSpan[]): Map<string, ReadableSpan> =>
  new Map(spans.filter((s) => s.attributes['gen_ai.operation.name'] === 'invoke_agent' && s.attributes['subagent_actors.turn'] === undefined).map((s) => [s.attributes['gen_ai.agent.id'] as string, s]));

/** The nearest agent span above a span (turn spans count as their agent's). */
function owningAgent(span: ReadableSpan, byId: Map<string, ReadableSpan>): string | undefined {
  let parent = span.parentSpanContext ? byId.get(span.parentSpanContext.spanId) : undefined;
  while (parent && parent.attributes['gen_ai.operation.name'] !== 'invoke_agent') parent = parent.parentSpanContext ? byId.get(parent.parentSpanContext.spanId) : undefined;
  return parent?.attributes['gen_ai.agent.id'] as string | undefined;
}

describe('demo session trace', () => {
  it('has the shape of the agent tree, every subagent under the Agent call that spawned it', async () => {
    const { outcome, spans } = await traced();
    const byId = new Map(spans.map((s) => [s.spanContext().spanId, s]));
    const agents = agentSpans(spans);
    expect([...agents.keys()].sort()).toEqual(['/root', ...outcome.spawned].sort());
    expect(new Set(spans.map((s) => s.spanContext().traceId)).size).toBe(1);
    for (const path of outcome.spawned) {
      const span = agents.get(path)!;
      const call = byId.get(span.parentSpanContext!.spanId)!;
      expect(call.name, path).toBe('execute_tool Agent');
      expect(call.attributes['gen_ai.tool.call.id']).toEqual(expect.any(String));
      expect(owningAgent(span, byId), path).toBe(path.slice(0, path.lastIndexOf('/')));
      expect(span.kind).toBe(SpanKind.INTERNAL);
      const result = outcome.results.find((r) => r.path === path)!;
      expect(span.attributes).toMatchObject({
        'gen_ai.agent.id': path,
        'gen_ai.agent.name': path.slice(path.lastIndexOf('/') + 1),
        'gen_ai.conversation.id': result.sessionId,
        'subagent_actors.context.mode': result.contextMode,
        'subagent_actors.status': result.status,
      });
      expect(span.attributes['subagent_actors.context']).toBe(result.context === result.contextMode ? undefined : result.context);
      expect(span.attributes['subagent_actors.delivery']).toMatch(/^(caller|parent)$/);
      expect(span.attributes['subagent_actors.lifetime']).toMatch(/^(one-shot|continuable)$/);
    }
    // Every chat span sits under the agent whose conversation it continues, every tool span under an agent.
    const conversations = new Map([...agents].map(([path, span]) => [span.attributes['gen_ai.conversation.id'], path]));
    for (const span of spans) {
      const op = span.attributes['gen_ai.operation.name'];
      if (op === 'chat') expect(owningAgent(span, byId), span.name).toBe(conversations.get(span.attributes['gen_ai.conversation.id']));
      if (op === 'execute_tool') expect(agents.has(owningAgent(span, byId) ?? ''), span.name).toBe(true);
    }
    const chats = spans.filter((s) => s.attributes['gen_ai.operation.name'] === 'chat');
    expect(chats.length).toBe(outcome.modelRequests);
    for (const chat of chats) {
      expect(chat.kind).toBe(SpanKind.CLIENT);
      expect(chat.name).toBe(`chat ${chat.attributes['gen_ai.request.model'] as string}`);
      expect(chat.attributes['gen_ai.provider.name']).toEqual(expect.any(String));
      for (const key of ['gen_ai.usage.input_tokens', 'gen_ai.usage.output_tokens', 'gen_ai.usage.cache_read.input_tokens', 'gen_ai.usage.cache_creation.input_tokens']) expect(chat.attributes[key], key).toEqual(expect.any(Number));
    }
    expect(chats.some((c) => (c.attributes['gen_ai.usage.cache_read.input_tokens'] as number) > 0)).toBe(true);
    // The continuable subagent's second turn is a child span of it.
    const notes = agents.get(DEMO_PATHS.notes)!;
    const turn = spans.find((s) => s.name === notes.name && s.attributes['subagent_actors.turn'] === 1);
    expect(turn?.parentSpanContext?.spanId).toBe(notes.spanContext().spanId);
    // The hook ran for every spawn; the summary subagent's background was prepared.
    for (const path of outcome.spawned) expect(agents.get(path)!.events.map((e) => e.name), path).toContain('subagent_actors.hook');
    expect(agents.get(DEMO_PATHS.migration)!.events.filter((e) => e.name === 'subagent_actors.summary').map((e) => e.attributes?.['phase'])).toEqual(['started', 'prepared']);
    // No contents without recordContent.
    for (const span of spans) for (const key of Object.keys(span.attributes)) expect(key).not.toMatch(/messages|arguments|call\.result|instructions/);
  });

  it('ends the cancelled subtree with the cancellation events and report', async () => {
    const { spans } = await traced();
    const agents = agentSpans(spans);
    const bench = agents.get(DEMO_PATHS.bench)!;
    const runner = agents.get(DEMO_PATHS.runner)!;
    for (const span of [bench, runner]) {
      const event = span.events.find((e) => e.name === 'subagent_actors.cancelled');
      expect(event?.attributes?.['state'], span.name).toEqual(expect.any(String));
      expect(event?.attributes?.['cancelled.root']).toBe(DEMO_PATHS.bench);
      expect(span.attributes['subagent_actors.status']).toBe('cancelled');
      expect(span.status.code).not.toBe(SpanStatusCode.ERROR);
    }
    // Spans are exported as they end: the worker's before the job that spawned it.
    expect(spans.indexOf(runner)).toBeLessThan(spans.indexOf(bench));
    const cancelCall = spans.find((s) => s.name === 'execute_tool cancel_agent')!;
    const report = cancelCall.events.find((e) => e.name === 'subagent_actors.cancel_report');
    expect(report?.attributes?.['stopped.paths']).toEqual([DEMO_PATHS.runner, DEMO_PATHS.bench]);
    expect((report?.attributes?.['stopped.states'] as string[]).length).toBe(2);
  });

  it('a session resumed from its journal continues the trace', async () => {
    const full = join(work, 'full');
    const first = await traced({ store: createJsonlStore({ dir: full, sessionId: 'demo-release-2.0' }) });
    const firstRoot = agentSpans(first.spans).get('/root')!;
    const file = join(full, 'demo-release-2.0.jsonl');
    const lines = readFileSync(file, 'utf8').split('\n').filter((l) => l !== '');
    expect(lines.some((l) => l.includes('"trace":{"traceId"'))).toBe(true);
    // Cut where a crash would: half-way, with subagents live.
    const cut = join(work, 'cut');
    mkdirSync(cut);
    writeFileSync(join(cut, 'demo-release-2.0.jsonl'), `${lines.slice(0, Math.floor(lines.length / 2)).join('\n')}\n`);
    const resumed = await traced({ store: openJsonlStore({ dir: cut }), resume: true });
    const traceIds = new Set(resumed.spans.map((s) => s.spanContext().traceId));
    expect([...traceIds]).toEqual([firstRoot.spanContext().traceId]);
    const root = agentSpans(resumed.spans).get('/root')!;
    expect(root.attributes['subagent_actors.resumed']).toBe(true);
    expect(root.parentSpanContext?.spanId).toBe(firstRoot.spanContext().spanId);
    expect(root.links.map((l) => l.context.spanId)).toEqual([firstRoot.spanContext().spanId]);
  });
});
