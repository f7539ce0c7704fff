import { describe, expect, it } from 'vitest';
import * as api from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider, type ReadableSpan } from '@opentelemetry/sdk-trace';
import { TraceBuilder } from '../../src/otel/index.js';

function setup(recordContent = false) {
  const exporter = new InMemorySpanExporter();
  const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
  const builder = new TraceBuilder(api, { tracer: provider.getTracer('test'), recordContent });
  return { exporter, builder, finished: async () => {
    await provider.forceFlush();
    return exporter.getFinishedSpans();
  } };
}

const parentOf = (span: ReadableSpan): string | undefined => span.parentSpanContext?.spanId;
const byName = (spans: readonly ReadableSpan[], name: string): ReadableSpan => {
  const found = spans.find((s) => s.name === name);
  if (!found) throw new Error(`no span ${name} in ${spans.map((s) => s.name).join(', ')}`);
  return found;
};

const agent = (path: string, parentPath: string | null, extra: Partial<Parameters<TraceBuilder['agentStarted']>[0]> = {}) => ({
  path,
  parentPath,
  name: path.slice(path.lastIndexOf('/') + 1),
  role: undefined,
  sessionId: `agent_${path.length}`,
  treeId: 'session_t',
  contextMode: 'none',
  context: 'none',
  delivery: 'caller',
  lifetime: 'one-shot',
  model: 'm1',
  ...extra,
});

describe('TraceBuilder', async () => {
  it('puts a subagent under the execute_tool Agent span that spawned it, with the conventions\u2019 attributes', async () => {
    const { finished, builder } = setup();
    builder.agentStarted(agent('/root', null, { lifetime: 'continuable' }));
    builder.chatStarted({ path: '/root', model: 'm1', provider: 'anthropic', turn: 0, step: 0 });
    builder.chatEnded('/root', { usage: { inputTokens: 10, outputTokens: 5, cacheReadTokens: 3, cacheWriteTokens: 2 }, finishReason: 'tool_calls' });
    builder.toolStarted({ path: '/root', callId: 'call_1', toolName: 'Agent' });
    builder.agentStarted(agent('/root/research', '/root', { callId: 'call_1', contextMode: 'all', context: 'all', delivery: 'background', role: 'researcher' }));
    builder.chatStarted({ path: '/root/research', model: 'm2', provider: 'openai', turn: 0, step: 0 });
    builder.chatRetried('/root/research', { attempt: 1, delayMs: 2000, errorType: '429', error: 'rate limited', status: 429 });
    builder.chatEnded('/root/research', { usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 } });
    builder.toolEnded('/root', 'call_1', { content: 'started', isError: false, cancelled: false });
    builder.agentEnded('/root/research', { status: 'completed', stopReason: 'completed' });
    builder.agentEnded('/root', { status: 'completed', stopReason: 'completed' });
    expect(builder.openSpans).toBe(0);

    const spans = await finished();
    const root = byName(spans, 'invoke_agent root');
    const call = byName(spans, 'execute_tool Agent');
    const child = byName(spans, 'invoke_agent research');
    const childChat = byName(spans, 'chat m2');
    expect(parentOf(root)).toBeUndefined();
    expect(parentOf(call)).toBe(root.spanContext().spanId);
    expect(parentOf(child)).toBe(call.spanContext().spanId);
    expect(parentOf(childChat)).toBe(child.spanContext().spanId);
    expect(new Set(spans.map((s) => s.spanContext().traceId)).size).toBe(1);
    expect(child.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.id': '/root/research',
      'gen_ai.agent.name': 'research',
      'gen_ai.conversation.id': 'agent_14',
      'subagent_actors.context.mode': 'all',
      'subagent_actors.delivery': 'background',
      'subagent_actors.lifetime': 'one-shot',
      'subagent_actors.agent.role': 'researcher',
    });
    expect(child.kind).toBe(api.SpanKind.INTERNAL);
    expect(call.attributes).toMatchObject({ 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'Agent', 'gen_ai.tool.call.id': 'call_1' });
    const rootChat = byName(spans, 'chat m1');
    expect(rootChat.kind).toBe(api.SpanKind.CLIENT);
    expect(rootChat.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'anthropic',
      'gen_ai.request.model': 'm1',
      'gen_ai.usage.input_tokens': 10,
      'gen_ai.usage.output_tokens': 5,
      'gen_ai.usage.cache_read.input_tokens': 3,
      'gen_ai.usage.cache_creation.input_tokens': 2,
      'gen_ai.response.finish_reasons': ['tool_calls'],
    });
    expect(childChat.events.map((e) => [e.name, e.attributes])).toEqual([['subagent_actors.retry', { attempt: 1, delay_ms: 2000, 'error.type': '429', 'error.message': 'rate limited', 'http.response.status_code': 429 }]]);
    // No content unless asked for.
    for (const span of spans) for (const key of Object.keys(span.attributes)) expect(key).not.toMatch(/messages|arguments|result|instructions/);
  });

  it('makes later turns child spans, links inbox notices back, and ends a cancelled subtree with its events', async () => {
    const { finished, builder } = setup();
    builder.agentStarted(agent('/root', null, { lifetime: 'continuable' }));
    builder.toolStarted({ path: '/root', callId: 'c1', toolName: 'Agent' });
    builder.agentStarted(agent('/root/a', '/root', { callId: 'c1', lifetime: 'continuable', delivery: 'background' }));
    builder.toolEnded('/root', 'c1', { content: 'ok', isError: false, cancelled: false });
    builder.agentStarted(agent('/root/a/b', '/root/a'));
    builder.turnEnded('/root/a', 0, 'completed');
    builder.turnEnded('/root', 0, 'completed');
    builder.chatStarted({ path: '/root', model: 'm1', provider: 'p', turn: 1, step: 0 });
    builder.chatEnded('/root', { errorCode: 'rate_limited' });
    builder.toolStarted({ path: '/root', callId: 'c2', toolName: 'cancel_agent' });
    builder.cancelled('/root/a', [{ path: '/root/a/b', state: 'running.working.sampling' }, { path: '/root/a', state: 'running.idle' }], 'no longer needed', { path: '/root', callId: 'c2' });
    builder.agentEnded('/root/a/b', { status: 'cancelled', stopReason: 'cancelled' });
    builder.agentEnded('/root/a', { status: 'cancelled', stopReason: 'cancelled' });
    builder.toolEnded('/root', 'c2', { content: 'cancelled', isError: false, cancelled: false });
    builder.turnEnded('/root', 1, 'failed', 'rate_limited');
    builder.agentEnded('/root', { status: 'failed', stopReason: 'internal_error' });
    expect(builder.openSpans).toBe(0);

    const spans = await finished();
    const root = spans.find((s) => s.name === 'invoke_agent root' && s.attributes['subagent_actors.turn'] === undefined)!;
    const a = byName(spans, 'invoke_agent a');
    const turn = spans.find((s) => s.name === 'invoke_agent root' && s.attributes['subagent_actors.turn'] === 1)!;
    expect(parentOf(turn)).toBe(root.spanContext().spanId);
    const chat = byName(spans, 'chat m1');
    expect(parentOf(chat)).toBe(turn.spanContext().spanId);
    // The turn the notice woke links back to the subagent whose result it carried.
    expect(turn.links.map((l) => l.context.spanId)).toEqual([a.spanContext().spanId]);
    expect(chat.status).toEqual({ code: api.SpanStatusCode.ERROR, message: 'rate_limited' });
    expect(turn.status.code).toBe(api.SpanStatusCode.ERROR);
    expect(root.events.map((e) => e.name)).toContain('subagent_actors.notice');
    const b = byName(spans, 'invoke_agent b');
    expect(b.events.find((e) => e.name === 'subagent_actors.cancelled')?.attributes).toMatchObject({ state: 'running.working.sampling', reason: 'no longer needed' });
    expect(a.events.find((e) => e.name === 'subagent_actors.cancelled')?.attributes).toMatchObject({ state: 'running.idle' });
    const cancelCall = byName(spans, 'execute_tool cancel_agent');
    expect(cancelCall.events[0]?.attributes).toMatchObject({ target: '/root/a', 'stopped.paths': ['/root/a/b', '/root/a'], 'stopped.states': ['running.working.sampling', 'running.idle'] });
    expect(root.status).toEqual({ code: api.SpanStatusCode.ERROR, message: 'internal_error' });
    expect(root.attributes['error.type']).toBe('internal_error');
  });

  it('records content only when asked, and nests spans started inside a request under its chat span', async () => {
    const { finished, builder } = setup(true);
    builder.agentStarted(agent('/root', null, { task: 'hello' }));
    builder.chatStarted({ path: '/root', model: 'm', provider: 'p', turn: 0, step: 0, content: () => ({ system: 'be brief', messages: [{ role: 'user', parts: [{ type: 'text', content: 'hi' }] }] }) });
    const tracer = api.trace.getTracer('inner');
    // The global context manager is a no-op here; what matters is the active context handed over.
    const active = builder.inChat('/root', () => api.context.active());
    builder.chatEnded('/root', { output: () => [{ role: 'assistant', parts: [{ type: 'text', content: 'hey' }] }] });
    builder.toolStarted({ path: '/root', callId: 'c', toolName: 'read', args: { path: 'a' } });
    builder.toolEnded('/root', 'c', { content: 'file', isError: true, cancelled: false, errorCode: 'tool_failed' });
    builder.agentEnded('/root', { status: 'completed', stopReason: 'completed' });
    void tracer;
    void active;
    const spans = await finished();
    const chat = byName(spans, 'chat m');
    expect(chat.attributes['gen_ai.system_instructions']).toBe(JSON.stringify([{ type: 'text', content: 'be brief' }]));
    expect(JSON.parse(chat.attributes['gen_ai.input.messages'] as string)).toEqual([{ role: 'user', parts: [{ type: 'text', content: 'hi' }] }]);
    expect(JSON.parse(chat.attributes['gen_ai.output.messages'] as string)[0].role).toBe('assistant');
    const tool = byName(spans, 'execute_tool read');
    expect(tool.attributes).toMatchObject({ 'gen_ai.tool.call.arguments': '{"path":"a"}', 'gen_ai.tool.call.result': 'file', 'error.type': 'tool_failed' });
    expect(tool.status.code).toBe(api.SpanStatusCode.ERROR);
  });

  it('continues a resumed agent\u2019s trace: same trace id, a link to the span it had', async () => {
    const first = setup();
    const rootRef = first.builder.agentStarted(agent('/root', null));
    const second = setup();
    const again = second.builder.agentStarted(agent('/root', null, { previous: rootRef }));
    second.builder.agentStarted(agent('/root/x', '/root'));
    second.builder.agentEnded('/root/x', { status: 'completed', stopReason: 'completed' });
    second.builder.agentEnded('/root', { status: 'completed', stopReason: 'completed' });
    expect(again.traceId).toBe(rootRef.traceId);
    const spans = await second.finished();
    const root = byName(spans, 'invoke_agent root');
    expect(root.parentSpanContext?.spanId).toBe(rootRef.spanId);
    expect(root.links[0]?.context.spanId).toBe(rootRef.spanId);
    expect(root.attributes['subagent_actors.resumed']).toBe(true);
    expect(byName(spans, 'invoke_agent x').spanContext().traceId).toBe(rootRef.traceId);
  });
});
