/**
 * `delegatingAgent({ telemetry })` in detail: what each span says of a request, a reply, a tool
 * call and a summary, with and without recorded contents, and how failures, errors and a
 * cancelled call end their spans.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createActor, toPromise, waitFor } from 'xstate';
import { SpanStatusCode, type Tracer } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider, type ReadableSpan } from '@opentelemetry/sdk-trace';
import { delegatingAgent, type DelegatingAgentOptions, type ModelFunction } from '../../machines/index.js';
import { defineRuntimeTool } from '../../src/index.js';
import type { ModelResponse } from '../../src/request/reply.js';
import { compactionEntry, type JsonValue, type ToolCall } from '../../src/dialogue/entry.js';

const usage = { inputTokens: 7, outputTokens: 2, cacheReadTokens: 0, cacheWriteTokens: 0 };
const reply = (text: string, toolCalls: ToolCall[] = [], stopReason?: string): ModelResponse => ({ text, toolCalls, usage, ...(stopReason ? { stopReason } : {}) });
const call = (id: string, name: string, args: { readonly [key: string]: JsonValue }): ToolCall => ({ id, name, arguments: args });

const echo = defineRuntimeTool({
  name: 'echo',
  description: 'Says its text back.',
  schema: z.object({ text: z.string() }),
  execute: async ({ text }) => `echo: ${text}`,
});
const coded = defineRuntimeTool({
  name: 'coded',
  description: 'Fails with a coded error.',
  schema: z.object({}),
  execute: async () => ({ content: 'Error (disk_full): no space left', isError: true }),
});
const plain = defineRuntimeTool({
  name: 'plain',
  description: 'Fails with an error that names no code.',
  schema: z.object({}),
  // An error code further into the text is not the error's own code.
  execute: async () => ({ content: 'it did not work (the log says Error (disk_full): ...)', isError: true }),
});
const broken = defineRuntimeTool({
  name: 'broken',
  description: 'Throws.',
  schema: z.object({}),
  execute: async () => {
    throw new Error('the tool blew up');
  },
});
let waiting: (() => void) | undefined;
const hangs = defineRuntimeTool({
  name: 'hangs',
  description: 'Waits until its call is stopped.',
  schema: z.object({}),
  execute: (_args, { signal }) =>
    new Promise<string>((_, reject) => {
      signal.addEventListener('abort', () => reject(new Error('stopped')), { once: true });
      waiting?.();
    }),
});

/**
 * A traced harness. `spans()` gives the finished spans, and checks that every span started
 * has ended by then (a span opened twice, or never closed, fails it).
 */
function traced(model: ModelFunction, extra: Partial<DelegatingAgentOptions> = {}, recordContent = false) {
  const exporter = new InMemorySpanExporter();
  const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
  const inner = provider.getTracer('t');
  let started = 0;
  const tracer: Tracer = {
    startSpan: (...args: Parameters<Tracer['startSpan']>) => (started++, inner.startSpan(...args)),
    startActiveSpan: inner.startActiveSpan.bind(inner),
  };
  const agents = delegatingAgent({ model, tools: [echo, coded, plain, broken, hangs], ...extra, telemetry: { tracer, recordContent } });
  const spans = async (): Promise<ReadableSpan[]> => {
    await provider.forceFlush();
    const finished = exporter.getFinishedSpans();
    expect(finished).toHaveLength(started);
    return finished;
  };
  return { agents, spans };
}

const agentSpan = (spans: readonly ReadableSpan[], path: string): ReadableSpan | undefined =>
  spans.find((s) => s.attributes['gen_ai.operation.name'] === 'invoke_agent' && s.attributes['gen_ai.agent.id'] === path && s.attributes['subagent_actors.turn'] === undefined);
const chatsOf = (spans: readonly ReadableSpan[], path: string): ReadableSpan[] => {
  const id = agentSpan(spans, path)?.spanContext().spanId;
  return spans.filter((s) => s.attributes['gen_ai.operation.name'] === 'chat' && s.parentSpanContext?.spanId === id).sort((a, b) => a.startTime[0] - b.startTime[0] || a.startTime[1] - b.startTime[1]);
};
const toolSpan = (spans: readonly ReadableSpan[], callId: string): ReadableSpan => spans.find((s) => s.attributes['gen_ai.tool.call.id'] === callId && s.attributes['gen_ai.operation.name'] === 'execute_tool')!;
const json = (value: unknown): unknown => JSON.parse(String(value));

describe('delegatingAgent telemetry: what the spans say', () => {
  it('records the request, reply and tool contents only when asked, in the conventions’ message shapes', async () => {
    const model: ModelFunction = (request) => {
      if (request.path === '/root/kid') return reply('kid done');
      if (request.step === 0) {
        return reply('Working on it', [call('c1', 'echo', { text: 'hi' }), call('c2', 'Agent', { task_name: 'kid', message: 'Check the notes', attachments: [{ name: 'notes.md', content: 'the notes' }], context: 'all' })]);
      }
      return reply('all done', [], 'end_turn');
    };
    const recorded = traced(model, {}, true);
    const root = createActor(recorded.agents.logic, { input: recorded.agents.input({ task: 'Do the thing', model: 'm1', role: 'planner' }) }).start();
    expect(await toPromise(root)).toMatchObject({ status: 'completed', text: 'all done' });
    const spans = await recorded.spans();

    const [first, second] = chatsOf(spans, '/root');
    expect(json(first!.attributes['gen_ai.system_instructions'])).toEqual([{ type: 'text', content: root.getSnapshot().context.input.system.systemPrompt }]);
    const firstInput = json(first!.attributes['gen_ai.input.messages']) as { role: string; parts: { type: string; content: string }[] }[];
    expect(firstInput).toHaveLength(1);
    expect(firstInput[0]!.role).toBe('user');
    expect(firstInput[0]!.parts[0]!.content).toContain('Do the thing');
    expect(first!.attributes['gen_ai.response.finish_reasons']).toEqual(['tool_call']);
    expect(json(first!.attributes['gen_ai.output.messages'])).toEqual([
      {
        role: 'assistant',
        parts: [
          { type: 'text', content: 'Working on it' },
          { type: 'tool_call', id: 'c1', name: 'echo', arguments: { text: 'hi' } },
          { type: 'tool_call', id: 'c2', name: 'Agent', arguments: { task_name: 'kid', message: 'Check the notes', attachments: [{ name: 'notes.md', content: 'the notes' }], context: 'all' } },
        ],
        finish_reason: 'tool_call',
      },
    ]);

    // The second request holds the first reply and both results; its reply names the model's stop reason.
    const secondInput = json(second!.attributes['gen_ai.input.messages']) as { role: string; parts: Record<string, unknown>[] }[];
    expect(secondInput.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'tool']);
    expect(secondInput[2]!.parts).toEqual([{ type: 'tool_call_response', id: 'c1', response: 'echo: hi' }]);
    expect(secondInput[3]!.parts[0]).toMatchObject({ type: 'tool_call_response', id: 'c2' });
    expect(String(secondInput[3]!.parts[0]!['response'])).toContain('kid done');
    expect(second!.attributes['gen_ai.response.finish_reasons']).toEqual(['end_turn']);
    expect(json(second!.attributes['gen_ai.output.messages'])).toEqual([{ role: 'assistant', parts: [{ type: 'text', content: 'all done' }], finish_reason: 'end_turn' }]);

    expect(toolSpan(spans, 'c1').attributes).toMatchObject({ 'gen_ai.tool.call.arguments': '{"text":"hi"}', 'gen_ai.tool.call.result': 'echo: hi' });

    // Names: the root by its role, a subagent by its task name.
    expect(agentSpan(spans, '/root')!.name).toBe('invoke_agent planner');
    expect(agentSpan(spans, '/root/kid')!.attributes['gen_ai.agent.name']).toBe('kid');

    // The same session without recordContent: no contents anywhere.
    const bare = traced(model);
    await toPromise(createActor(bare.agents.logic, { input: bare.agents.input({ task: 'Do the thing', model: 'm1' }) }).start());
    const bareSpans = await bare.spans();
    const contentKeys = ['gen_ai.system_instructions', 'gen_ai.input.messages', 'gen_ai.output.messages', 'gen_ai.tool.call.arguments', 'gen_ai.tool.call.result'];
    expect(bareSpans.flatMap((s) => Object.keys(s.attributes)).filter((k) => contentKeys.includes(k))).toEqual([]);
    expect(chatsOf(bareSpans, '/root').map((c) => c.attributes['gen_ai.response.finish_reasons'])).toEqual([['tool_call'], ['end_turn']]);
    expect(agentSpan(bareSpans, '/root')!.name).toBe('invoke_agent root');
    // No provider named: the conventions' attribute still says something.
    expect(chatsOf(bareSpans, '/root')[0]!.attributes['gen_ai.provider.name']).toBe('unknown');
  });

  it('records a person’s attachments as parts of their message, and each later turn of an open root as its own span', async () => {
    const model: ModelFunction = (request) => reply(`answer ${request.turn}`);
    const { agents, spans: finished } = traced(model, {}, true);
    const root = createActor(agents.logic, { input: agents.input({ model: 'm1' }) }).start();
    const idle = () => waitFor(root, (s) => s.matches({ running: 'idle' }) && s.context.lastText !== '');
    root.send({ type: 'inbox', item: { text: 'Read this', origin: { kind: 'person' }, attachments: [{ name: 'notes.md', content: 'the notes' }] } });
    await idle();
    // The host compacts the idle root's dialogue: the next request starts from the summary.
    root.send({ type: 'compaction.apply', entry: compactionEntry({ summary: 'Earlier: the person sent notes', anchorId: null }), basedOn: root.getSnapshot().context.dialogue.length });
    root.send({ type: 'inbox', item: { text: 'And again', origin: { kind: 'person' } } });
    await waitFor(root, (s) => s.context.lastText === 'answer 1');
    root.send({ type: 'close' });
    await toPromise(root);
    const spans = await finished();
    const chats = spans.filter((s) => s.attributes['gen_ai.operation.name'] === 'chat');
    const firstInput = json(chats.find((c) => String(c.attributes['gen_ai.input.messages']).includes('Read this'))!.attributes['gen_ai.input.messages']);
    expect(firstInput).toEqual([{ role: 'user', parts: [{ type: 'text', content: 'Read this' }, { type: 'text', content: 'notes.md:\nthe notes' }] }]);
    const again = json(chats.find((c) => String(c.attributes['gen_ai.input.messages']).includes('And again'))!.attributes['gen_ai.input.messages']) as unknown[];
    expect(again[0]).toEqual({ role: 'user', parts: [{ type: 'text', content: 'Earlier: the person sent notes' }] });
    expect(JSON.stringify(again)).not.toContain('Read this');
    const turns = spans.filter((s) => s.attributes['gen_ai.agent.id'] === '/root' && s.attributes['subagent_actors.turn'] !== undefined);
    expect(turns.length).toBeGreaterThan(0);
    for (const turn of turns) expect(turn.parentSpanContext?.spanId).toBe(agentSpan(spans, '/root')!.spanContext().spanId);
  });

  it('ends a tool’s span with the code its error names, tool_error otherwise, and a failed request’s with model_error', async () => {
    const model: ModelFunction = (request) => {
      if (request.path === '/root/down') throw new Error('provider unavailable');
      if (request.step === 0) {
        return reply('', [call('t1', 'coded', {}), call('t2', 'plain', {}), call('t3', 'broken', {}), call('t4', 'echo', { text: 'fine' }), call('t5', 'Agent', { task_name: 'down', message: 'Fail' })]);
      }
      return reply('');
    };
    const { agents, spans: finished } = traced(model);
    await toPromise(createActor(agents.logic, { input: agents.input({ task: 'Try', model: 'm1' }) }).start());
    const spans = await finished();
    const outcome = (id: string) => ({ status: toolSpan(spans, id).status, error: toolSpan(spans, id).attributes['error.type'] });
    expect(outcome('t1')).toEqual({ status: { code: SpanStatusCode.ERROR, message: 'disk_full' }, error: 'disk_full' });
    expect(outcome('t2')).toEqual({ status: { code: SpanStatusCode.ERROR, message: 'tool_error' }, error: 'tool_error' });
    expect(outcome('t3')).toEqual({ status: { code: SpanStatusCode.ERROR, message: 'tool_error' }, error: 'tool_error' });
    expect(outcome('t4')).toEqual({ status: { code: SpanStatusCode.UNSET }, error: undefined });
    // The Agent call's span ends with the subagent's error answer.
    expect(toolSpan(spans, 't5').status.code).toBe(SpanStatusCode.ERROR);
    const [downChat] = chatsOf(spans, '/root/down');
    expect(downChat!.status).toEqual({ code: SpanStatusCode.ERROR, message: 'model_error' });
    expect(downChat!.attributes['error.type']).toBe('model_error');
    expect(agentSpan(spans, '/root/down')!.attributes['subagent_actors.status']).toBe('failed');
    // An empty reply has no parts.
    expect(chatsOf(spans, '/root').at(-1)!.attributes['gen_ai.response.finish_reasons']).toEqual(['stop']);
  });

  it('ends a running tool’s span as cancelled when its agent is cancelled', async () => {
    const started = new Promise<void>((resolve) => (waiting = resolve));
    const model: ModelFunction = (request) => (request.step === 0 ? reply('', [call('h1', 'hangs', {})]) : reply('never'));
    const { agents, spans: finished } = traced(model);
    const root = createActor(agents.logic, { input: agents.input({ task: 'Wait', model: 'm1' }) }).start();
    await started;
    root.send({ type: 'cancel', reason: 'the person stopped it' });
    expect(await toPromise(root)).toMatchObject({ status: 'cancelled' });
    const spans = await finished();
    const tool = toolSpan(spans, "h1");
    expect(tool.attributes['subagent_actors.cancelled']).toBe(true);
    expect(tool.status).toEqual({ code: SpanStatusCode.ERROR, message: 'cancelled' });
    expect(agentSpan(spans, '/root')!.attributes['subagent_actors.status']).toBe('cancelled');
  });

  it('ends a running tool’s span as cancelled when its turn is interrupted, the agent living on', async () => {
    const started = new Promise<void>((resolve) => (waiting = resolve));
    const model: ModelFunction = (request) => (request.step === 0 && request.turn === 0 ? reply('', [call('h2', 'hangs', {})]) : reply('next turn'));
    const { agents, spans: finished } = traced(model);
    const root = createActor(agents.logic, { input: agents.input({ model: 'm1' }) }).start();
    root.send({ type: 'inbox', item: { text: 'Wait for it', origin: { kind: 'person' } } });
    await started;
    root.send({ type: 'interrupt', reason: 'the person pressed escape' });
    await waitFor(root, (s) => s.matches({ running: 'idle' }));
    expect(root.getSnapshot().status).toBe('active');
    root.send({ type: 'close' });
    await toPromise(root);
    const spans = await finished();
    const tool = toolSpan(spans, 'h2');
    expect(tool.attributes['subagent_actors.cancelled']).toBe(true);
    expect(tool.status).toEqual({ code: SpanStatusCode.ERROR, message: 'cancelled' });
  });

  it('notes a prepared summary on the subagent’s span, with its length', async () => {
    const model: ModelFunction = (request) => {
      if (request.path === '/root/brief') return reply('briefed');
      return request.step === 0 ? reply('', [call('s1', 'Agent', { task_name: 'brief', message: 'Go on', context: 'summary' })]) : reply('ok');
    };
    const { agents, spans: finished } = traced(model, { summarize: () => ({ text: 'twelve chars', usage }) });
    await toPromise(createActor(agents.logic, { input: agents.input({ task: 'Summarize', model: 'm1' }) }).start());
    const spans = await finished();
    const events = agentSpan(spans, '/root/brief')!.events.filter((e) => e.name === 'subagent_actors.summary');
    expect(events.map((e) => e.attributes)).toEqual([{ phase: 'prepared', 'summary.length': 12 }]);
  });

  it('names a grandchild’s span by its own task name and nests it under its parent’s Agent call', async () => {
    const model: ModelFunction = (request) => {
      if (request.path === '/root/mid/leaf') return reply('leaf');
      if (request.path === '/root/mid') return request.step === 0 ? reply('', [call('m1', 'Agent', { task_name: 'leaf', message: 'Leaf work' })]) : reply('mid');
      return request.step === 0 ? reply('', [call('r1', 'Agent', { task_name: 'mid', message: 'Mid work' })]) : reply('root');
    };
    const { agents, spans: finished } = traced(model);
    await toPromise(createActor(agents.logic, { input: agents.input({ task: 'Nest', model: 'm1' }) }).start());
    const spans = await finished();
    const leaf = agentSpan(spans, '/root/mid/leaf')!;
    expect(leaf.name).toBe('invoke_agent leaf');
    expect(leaf.parentSpanContext?.spanId).toBe(toolSpan(spans, 'm1').spanContext().spanId);
    expect(toolSpan(spans, 'm1').parentSpanContext?.spanId).toBe(agentSpan(spans, '/root/mid')!.spanContext().spanId);
  });
});
