/**
 * `delegatingAgent({ telemetry })`: the same span tree as `createRuntime`'s, from the machine's
 * own hooks, one trace per root.
 */
import { describe, expect, it } from 'vitest';
import { createActor, toPromise } from 'xstate';
import { SpanStatusCode } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider, type ReadableSpan } from '@opentelemetry/sdk-trace';
import { delegatingAgent, DelegatingAgentError, type ModelFunction, type SampleInput } from '../../machines/index.js';
import { agentSessionId } from '../../machines/agent-session-ids.js';
import type { ModelResponse } from '../../src/request/reply.js';
import type { JsonValue, ToolCall } from '../../src/dialogue/entry.js';

const usage = { inputTokens: 12, outputTokens: 3, cacheReadTokens: 4, cacheWriteTokens: 1 };
const reply = (text: string, toolCalls: ToolCall[] = []): ModelResponse => ({ text, toolCalls, usage });
const call = (id: string, name: string, args: { readonly [key: string]: JsonValue }): ToolCall => ({ id, name, arguments: args });

/** The root spawns `a` (which answers) and `slow` (which never does) and cancels `slow` in the same step. */
const model: ModelFunction = (request: SampleInput, signal) => {
  if (request.path === '/root/slow') return new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true }));
  if (request.path === '/root/a') return reply('A done');
  if (request.step === 0) {
    return reply('', [call('c1', 'Agent', { task_name: 'a', message: 'Task A' }), call('c2', 'Agent', { task_name: 'slow', message: 'Never ends' }), call('c3', 'cancel_agent', { agent_id: '/root/slow' })]);
  }
  return reply('all done');
};

function setup() {
  const exporter = new InMemorySpanExporter();
  const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
  const agents = delegatingAgent({ model, telemetry: { tracer: provider.getTracer('harness'), provider: 'test-provider' } });
  return { agents, spans: async () => (await provider.forceFlush(), exporter.getFinishedSpans()) };
}

const agentSpan = (spans: readonly ReadableSpan[], path: string): ReadableSpan =>
  spans.find((s) => s.attributes['gen_ai.operation.name'] === 'invoke_agent' && s.attributes['gen_ai.agent.id'] === path && s.attributes['subagent_actors.turn'] === undefined)!;

describe('delegatingAgent telemetry', () => {
  it('traces the tree: subagents under their Agent calls, chats with usage, the cancellation as events', async () => {
    const { agents, spans: finished } = setup();
    const root = createActor(agents.logic, { input: agents.input({ task: 'Split the work', model: 'm1' }) }).start();
    expect(await toPromise(root)).toMatchObject({ status: 'completed', text: 'all done' });
    const spans = await finished();
    const byId = new Map(spans.map((s) => [s.spanContext().spanId, s]));
    const rootSpan = agentSpan(spans, '/root');
    expect(rootSpan.parentSpanContext).toBeUndefined();
    for (const [path, callId] of [['/root/a', 'c1'], ['/root/slow', 'c2']] as const) {
      const span = agentSpan(spans, path);
      const parent = byId.get(span.parentSpanContext!.spanId)!;
      expect(parent.name).toBe('execute_tool Agent');
      expect(parent.attributes['gen_ai.tool.call.id']).toBe(callId);
      expect(parent.parentSpanContext?.spanId).toBe(rootSpan.spanContext().spanId);
    }
    expect(new Set(spans.map((s) => s.spanContext().traceId)).size).toBe(1);
    const chats = spans.filter((s) => s.name === 'chat m1');
    const chatsOf = (path: string) => chats.filter((c) => c.parentSpanContext?.spanId === agentSpan(spans, path).spanContext().spanId);
    expect(chatsOf('/root')).toHaveLength(2);
    expect(chats[0]!.attributes).toMatchObject({ 'gen_ai.provider.name': 'test-provider', 'gen_ai.usage.input_tokens': 12, 'gen_ai.usage.cache_read.input_tokens': 4, 'gen_ai.usage.cache_creation.input_tokens': 1 });
    const slow = agentSpan(spans, '/root/slow');
    expect(slow.events.find((e) => e.name === 'subagent_actors.cancelled')?.attributes).toMatchObject({ 'cancelled.root': '/root/slow', reason: 'cancelled by /root' });
    expect(slow.attributes['subagent_actors.status']).toBe('cancelled');
    const slowChat = chatsOf('/root/slow')[0]!;
    expect(slowChat.status).toEqual({ code: SpanStatusCode.ERROR, message: 'cancelled' });
    const cancel = spans.find((s) => s.name === 'execute_tool cancel_agent')!;
    expect(cancel.events.find((e) => e.name === 'subagent_actors.cancel_report')?.attributes?.['stopped.paths']).toEqual(['/root/slow']);
    // Every span ended: nothing was left open when the root settled.
    expect(spans.filter((s) => s.attributes['gen_ai.operation.name'] === 'execute_tool').map((s) => s.name).sort()).toEqual(['execute_tool Agent', 'execute_tool Agent', 'execute_tool cancel_agent']);
  });

  it('gives each root its own trace', async () => {
    const { agents, spans: finished } = setup();
    const one = createActor(agents.logic, { input: agents.input({ task: 'one', model: 'm1' }) }).start();
    const two = createActor(agents.logic, { input: agents.input({ task: 'two', model: 'm1' }) }).start();
    await Promise.all([toPromise(one), toPromise(two)]);
    const spans = await finished();
    const roots = spans.filter((s) => s.name === 'invoke_agent root');
    expect(roots).toHaveLength(2);
    expect(new Set(spans.map((s) => s.spanContext().traceId))).toEqual(new Set(roots.map((r) => r.spanContext().traceId)));
  });

  it('gives each subagent its own gen_ai.conversation.id, the tree id staying on the root', async () => {
    const { agents, spans: finished } = setup();
    const root = createActor(agents.logic, { input: agents.input({ task: 'Split the work', model: 'm1', sessionId: 'session_traced' }) }).start();
    await toPromise(root);
    const spans = await finished();
    const conversation = (path: string) => agentSpan(spans, path).attributes['gen_ai.conversation.id'];
    expect(agentSpan(spans, '/root').attributes['subagent_actors.tree.id']).toBe('session_traced');
    // Spawn order: the root is count 0, `a` 1, `slow` 2 (as createRuntime issues them).
    expect([conversation('/root/a'), conversation('/root/slow')]).toEqual([agentSessionId('session_traced', 1), agentSessionId('session_traced', 2)]);
    expect(conversation('/root/a')).not.toBe(conversation('/root'));
  });

  it('refuses a malformed telemetry option with a DelegatingAgentError', () => {
    expect(() => delegatingAgent({ model, telemetry: { tracer: {} as never } })).toThrow(DelegatingAgentError);
    expect(() => delegatingAgent({ model, telemetry: { provider: 3 as never } })).toThrow(/telemetry.provider must be a string/);
  });
});
