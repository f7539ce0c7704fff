/**
 * Span events of a traced runtime that the demo does not exercise: the host's confirmation of
 * a spawn and its approval of a tool call, on the calls' spans; message contents only with
 * `recordContent`; malformed telemetry options refused.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { SpanStatusCode } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider, type ReadableSpan } from '@opentelemetry/sdk-trace';
import { scriptedModel } from '../../src/model/scripted.js';
import { createCapabilityCatalog } from '../../src/policy/capabilities.js';
import { createRuntime, defineRuntimeTool } from '../../src/runtime/runtime.js';
import type { RuntimeOptions } from '../../src/runtime/types.js';
import { StoreError, type SessionStore } from '../../src/store/types.js';

async function traced(options: Omit<RuntimeOptions, 'telemetry'>, recordContent = false): Promise<ReadableSpan[]> {
  const exporter = new InMemorySpanExporter();
  const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
  const rt = createRuntime({ ...options, telemetry: { tracer: provider.getTracer('t'), recordContent } });
  await rt.prompt('PROMPT-TEXT please');
  await rt.whenQuiet();
  rt.stop();
  await provider.forceFlush();
  return exporter.getFinishedSpans();
}

const callSpan = (spans: readonly ReadableSpan[], callId: string): ReadableSpan => spans.find((s) => s.attributes['gen_ai.tool.call.id'] === callId)!;

describe('runtime span events', () => {
  it('puts the host’s confirmation on the Agent call and its approval on the tool call', async () => {
    const deploy = defineRuntimeTool({ name: 'deploy', description: 'Deploys.', schema: z.object({ env: z.string() }), needsApproval: true, execute: () => 'deployed' });
    const spans = await traced({
      model: scriptedModel({
        '/root': {
          0: [
            {
              toolCalls: [
                { id: 'c_big', name: 'Agent', arguments: { task_name: 'big', message: 'x', model: 'large' } },
                { id: 'c_huge', name: 'Agent', arguments: { task_name: 'huge', message: 'y', model: 'large' } },
                { id: 'c_deploy', name: 'deploy', arguments: { env: 'prod' } },
              ],
            },
            { text: 'done' },
          ],
        },
        '/root/**': { 0: [{ text: 'sub done' }] },
      }),
      modelId: 'small',
      tools: [deploy],
      capabilities: createCapabilityCatalog({ models: { small: 1, large: 3 } }),
      confirm: async (request) => (request.taskName === 'big' ? { approved: true } : { approved: false, reason: 'too costly' }),
      approve: () => ({ approved: false, reason: 'not today' }),
    });
    expect(callSpan(spans, 'c_big').events.find((e) => e.name === 'subagent_actors.confirmation')?.attributes).toMatchObject({ 'task.name': 'big', approved: true });
    const huge = callSpan(spans, 'c_huge');
    expect(huge.events.find((e) => e.name === 'subagent_actors.confirmation')?.attributes).toMatchObject({ 'task.name': 'huge', approved: false, 'error.type': 'confirmation_denied' });
    expect(huge.status.code).toBe(SpanStatusCode.ERROR);
    const deployed = callSpan(spans, 'c_deploy');
    expect(deployed.events.find((e) => e.name === 'subagent_actors.approval')?.attributes).toMatchObject({ tool: 'deploy', approved: false, reason: 'not today' });
    expect(deployed.status).toEqual({ code: SpanStatusCode.ERROR, message: 'approval_denied' });
    expect(spans.some((s) => s.name === 'invoke_agent huge')).toBe(false);
  });

  it('records message contents only with recordContent: true', async () => {
    const options = {
      model: scriptedModel({
        '/root': { 0: [{ toolCalls: [{ id: 'c1', name: 'Agent', arguments: { task_name: 'kid', message: 'KID-TASK' } }] }, { text: 'ROOT-ANSWER' }] },
        '/root/kid': { 0: [{ text: 'KID-ANSWER' }] },
      }),
      systemPrompt: 'SYSTEM-TEXT',
    };
    const without = await traced(options);
    expect(JSON.stringify(without.map((s) => s.attributes))).not.toMatch(/PROMPT-TEXT|KID-TASK|KID-ANSWER|SYSTEM-TEXT|ROOT-ANSWER/);
    const spans = await traced(options, true);
    const rootChats = spans.filter((s) => s.name.startsWith('chat ') && String(s.attributes['gen_ai.input.messages']).includes('PROMPT-TEXT'));
    expect(rootChats).toHaveLength(2);
    expect(rootChats[0]!.attributes['gen_ai.system_instructions']).toContain('SYSTEM-TEXT');
    const input = JSON.parse(String(rootChats[1]!.attributes['gen_ai.input.messages'])) as { role: string; parts: { type: string }[] }[];
    expect(input.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
    expect(input[1]!.parts[0]!.type).toBe('tool_call');
    expect(JSON.parse(String(rootChats[1]!.attributes['gen_ai.output.messages']))[0]).toMatchObject({ role: 'assistant', parts: [{ type: 'text', content: 'ROOT-ANSWER' }], finish_reason: 'stop' });
    expect(spans.find((s) => s.name === 'invoke_agent kid')!.attributes['gen_ai.input.messages']).toContain('KID-TASK');
    expect(callSpan(spans, 'c1').attributes['gen_ai.tool.call.arguments']).toContain('KID-TASK');
    expect(callSpan(spans, 'c1').attributes['gen_ai.tool.call.result']).toContain('KID-ANSWER');
  });

  it('ends every open span when the session halts (its store failed)', async () => {
    const listeners: Array<(error: StoreError) => void> = [];
    const state: { failure?: StoreError } = {};
    const store: SessionStore = {
      sessionId: 's',
      location: 'memory',
      loaded: [],
      get failure() {
        return state.failure;
      },
      append: () => {},
      flush: () => Promise.resolve(),
      close: () => Promise.resolve(),
      onFailure: (listener) => (listeners.push(listener), () => {}),
    };
    const exporter = new InMemorySpanExporter();
    const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
    // The subagent's request never answers: the store fails while it is out.
    let asked!: () => void;
    const sent = new Promise<void>((resolve) => (asked = resolve));
    const rt = createRuntime({
      model: {
        name: 'stuck',
        sample: (request, context) =>
          context.agentPath === '/root'
            ? Promise.resolve({ text: '', toolCalls: [{ id: 'c1', name: 'Agent', arguments: { task_name: 'kid', message: 'x' } }], usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 } })
            : (asked(), new Promise(() => {})),
      },
      store,
      telemetry: { tracer: provider.getTracer('t') },
    });
    const turn = rt.prompt('go').catch((error: unknown) => error);
    await sent;
    const failure = new StoreError('store_failed', 'disk gone');
    state.failure = failure;
    for (const listener of listeners) listener(failure);
    await turn;
    await provider.forceFlush();
    const spans = exporter.getFinishedSpans();
    const agents = spans.filter((s) => s.attributes['gen_ai.operation.name'] === 'invoke_agent');
    expect(agents.map((s) => s.attributes['gen_ai.agent.id']).sort()).toEqual(['/root', '/root/kid']);
    for (const span of agents) expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: 'session_halted' });
    expect(spans.find((s) => s.name === 'execute_tool Agent')).toBeDefined();
    expect(spans.filter((s) => s.name.startsWith('chat '))).toHaveLength(2);
  });

  it('refuses malformed telemetry options with a TypeError', () => {
    const model = scriptedModel({});
    expect(() => createRuntime({ model, telemetry: { tracer: {} as never } })).toThrow(/telemetry.tracer must be an OpenTelemetry Tracer/);
    expect(() => createRuntime({ model, telemetry: { recordContent: 'yes' as never } })).toThrow(TypeError);
    expect(() => createRuntime({ model, telemetry: 3 as never })).toThrow(/telemetry must be an object/);
  });
});
