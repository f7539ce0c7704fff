/**
 * The agent machine's input: built from named options with typed errors, checked when a
 * hand-built one is incomplete, and frozen deeply so nothing changes a running agent's input.
 * Also: a provided actor that fails ends the agent with exactly one internal_error result.
 */
import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, fromPromise } from 'xstate';
import { agentMachine } from '../../machines/agent.machine.js';
import { AgentInputError, createAgentInput, type AgentInputOptions } from '../../machines/agent.input.js';
import type { AgentEvent, AgentInput, AgentResult, SampleInput, SampleOutput, ToolStepInput } from '../../machines/agent.types.js';
import { ZERO_USAGE } from '../../src/model/adapter.js';
import { scriptedModel } from '../../src/model/scripted.js';
import { RuntimeCore } from '../../src/runtime/core.js';
import { agentCoreBuilders } from '../../src/runtime/agent-logic.js';
import { spawnSubagent } from '../../src/runtime/spawn.js';

const reply = (text: string, toolCalls: SampleOutput['response']['toolCalls'] = []): SampleOutput => ({
  response: { text, toolCalls, usage: ZERO_USAGE },
  compaction: undefined,
});

function run(input: AgentInput, actors: Parameters<typeof agentMachine.provide>[0]['actors'] = {}) {
  const results: AgentResult[] = [];
  const logic = agentMachine.provide({
    actors: { sampleModel: fromPromise<SampleOutput, SampleInput>(async () => reply('done')), ...actors },
    actions: { releaseAndReport: (_, { result }) => void results.push(result) },
  });
  const actor = createActor(logic, { input });
  const done = new Promise<void>((resolve) => actor.subscribe({ complete: () => resolve(), error: () => resolve() }));
  actor.start();
  return { actor, results, done };
}

describe('createAgentInput', () => {
  it('builds an input the machine runs to one result', async () => {
    const input = createAgentInput({ task: 'summarize the changelog', model: 'my-model', systemPrompt: 'You are a worker.', path: '/root/worker' });
    expect(input).toMatchObject({ path: '/root/worker', parentPath: '/root', task: 'summarize the changelog', lifetime: 'one-shot', delivery: 'caller', model: 'my-model' });
    const { actor, results, done } = run(input);
    await done;
    expect(actor.getSnapshot().status).toBe('done');
    expect(results.map((r) => [r.status, r.text])).toEqual([['completed', 'done']]);
  });

  it('makes an agent without a task a continuable root that starts idle', () => {
    const input = createAgentInput({ model: 'm' });
    expect(input).toMatchObject({ path: '/root', parentPath: null, task: null, lifetime: 'continuable' });
    const { actor } = run(input);
    expect(actor.getSnapshot().value).toEqual({ running: 'idle' });
    actor.stop();
  });

  const bad: Array<[string, unknown, string]> = [
    ['no options', undefined, 'options'],
    ['a missing model', { task: 't' }, 'model'],
    ['an unknown option', { model: 'm', tsk: 'typo' }, 'tsk'],
    ['an empty task', { model: 'm', task: '  ' }, 'task'],
    ['a path without a leading slash', { model: 'm', path: 'root/a' }, 'path'],
    ['a path with an upper-case segment', { model: 'm', path: '/root/Worker' }, 'path'],
    ['a zero step limit', { model: 'm', task: 't', maxSteps: 0 }, 'maxSteps'],
    ['a fractional step limit', { model: 'm', task: 't', maxSteps: 1.5 }, 'maxSteps'],
    ['an unknown lifetime', { model: 'm', task: 't', lifetime: 'forever' }, 'lifetime'],
    ['a one-shot agent without a task', { model: 'm', lifetime: 'one-shot' }, 'lifetime'],
    ['an unknown delivery', { model: 'm', task: 't', delivery: 'mail' }, 'delivery'],
    ['an unknown effort', { model: 'm', task: 't', effort: 'max' }, 'effort'],
    ['a tool without a schema', { model: 'm', tools: [{ name: 'x', description: '' }] }, 'tools[0]'],
    ['a repeated tool name', { model: 'm', tools: [0, 1].map(() => ({ name: 'x', description: '', inputSchema: {} })) }, 'tools[1]'],
    ['a non-boolean taskHooks', { model: 'm', task: 't', taskHooks: 'yes' }, 'taskHooks'],
    ['a non-finite start time', { model: 'm', task: 't', startedAt: Number.NaN }, 'startedAt'],
    ['a snapshot that is not one', { model: 'm', task: 't', snapshot: { mode: 'all' } }, 'snapshot'],
  ];
  it.each(bad)('refuses %s with an AgentInputError naming the option', (_, options, field) => {
    let error: unknown;
    try {
      createAgentInput(options as AgentInputOptions);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(AgentInputError);
    expect(error).toMatchObject({ code: 'invalid_agent_input', field });
    expect((error as Error).message).toContain(field);
  });
});

describe('a hand-built input', () => {
  it('that lacks fields fails with an error naming them, not a TypeError from a transition', () => {
    const partial = { path: '/root/worker', task: 'do it', model: 'm' } as unknown as AgentInput;
    const { actor } = run(partial);
    const error = actor.getSnapshot().error;
    expect(error).toBeInstanceOf(AgentInputError);
    expect((error as Error).message).toMatch(/lacks or mistypes .*prefix \(object\)/);
    expect((error as Error).message).toContain('createAgentInput');
  });
});

describe('frozen input', () => {
  const schema = { name: 'lookup', description: 'Looks up.', inputSchema: { type: 'object', properties: { q: { type: 'string' } } } };

  it('is frozen deeply, so a running agent input cannot change', () => {
    const input = createAgentInput({ task: 'original task', model: 'm', tools: [schema] });
    const { actor } = run(input, { sampleModel: fromPromise<SampleOutput, SampleInput>(() => new Promise<SampleOutput>(() => {})) });
    const live = actor.getSnapshot().context.input;
    expect(() => ((live as { task: string }).task = 'changed')).toThrow(TypeError);
    expect(() => (live.system.tools as unknown[]).push(schema)).toThrow(TypeError);
    expect(() => ((live.system.tools[0]!.inputSchema as Record<string, unknown>).type = 'array')).toThrow(TypeError);
    expect(() => (live.prefix.reasons as string[]).push('x')).toThrow(TypeError);
    expect(live.task).toBe('original task');
    actor.stop();
  });

  it('is frozen for subagents the runtime spawns, framing and attachments included', async () => {
    const core = new RuntimeCore({ model: scriptedModel({ '**': { 0: [{ text: 'ok', latencyMs: 1e9 }] } }) }, agentCoreBuilders);
    core.startRoot();
    const handle = await spawnSubagent(core, '/root', { task_name: 'worker', message: 'look', attachments: [{ name: 'a.txt', content: 'text' }] });
    const input = core.directory.contextOf(handle.path).input;
    expect(Object.isFrozen(input)).toBe(true);
    expect(input.framing?.kind).toBe('independent');
    const framing = input.framing as unknown as { attachments: unknown[] };
    expect(() => framing.attachments.push({ name: 'b', content: '' })).toThrow(TypeError);
    expect(() => ((framing.attachments[0] as { content: string }).content = 'changed')).toThrow(TypeError);
    expect(() => ((input as { task: string }).task = 'changed')).toThrow(TypeError);
    core.lifecycle.cancel('/root');
  });
});

describe('a failing provided actor', () => {
  it('ends the agent with exactly one internal_error result, never a silent actor error', async () => {
    const throwing = fromCallback<AgentEvent, ToolStepInput>(() => {
      throw new Error('tool crashed');
    });
    const call = { id: 'call_1', name: 'lookup', arguments: {} };
    const input = createAgentInput({ task: 'use the tool', model: 'm', tools: [{ name: 'lookup', description: '', inputSchema: {} }] });
    const { actor, results, done } = run(input, {
      sampleModel: fromPromise<SampleOutput, SampleInput>(async () => reply('calling', [call])),
      runToolCalls: throwing,
    });
    await done;
    expect(actor.getSnapshot().status).toBe('done');
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ status: 'failed', stopReason: 'internal_error' });
    expect(results[0]!.error).toContain('tool crashed');
    expect(actor.getSnapshot().output).toMatchObject({ status: 'failed', stopReason: 'internal_error' });
  });
});
