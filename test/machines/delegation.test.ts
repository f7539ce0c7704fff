/**
 * `delegatingAgent`: the agent machine with the coordination tools handled by the machine
 * itself, for a harness that brings only a model function and its tools.
 */
import { describe, expect, it } from 'vitest';
import { createActor, toPromise, type AnyActorRef, type InspectionEvent } from 'xstate';
import { delegatingAgent, DelegatingAgentError, type AgentContext, type HarnessTool, type ModelFunction, type SampleInput } from '../../machines/index.js';
import type { ModelResponse } from '../../src/request/reply.js';
import type { JsonValue, ToolCall } from '../../src/dialogue/entry.js';
import { ZERO_USAGE } from '../../src/request/usage.js';

const reply = (text: string, toolCalls: ToolCall[] = []): ModelResponse => ({ text, toolCalls, usage: ZERO_USAGE });
const agentCall = (id: string, args: { readonly [key: string]: JsonValue }): ToolCall => ({ id, name: 'Agent', arguments: args });

/** A model scripted per agent path: the n-th request of an agent gets the n-th reply. */
function scripted(script: Record<string, ((request: SampleInput) => ModelResponse)[]>): { model: ModelFunction; requests: string[] } {
  const requests: string[] = [];
  const seen = new Map<string, number>();
  const model: ModelFunction = (request) => {
    requests.push(request.path);
    const n = seen.get(request.path) ?? 0;
    seen.set(request.path, n + 1);
    const step = script[request.path]?.[n];
    if (!step) throw new Error(`no reply scripted for ${request.path} #${n}`);
    return step(request);
  };
  return { model, requests };
}

function toolResults(actor: AnyActorRef): { callId: string; content: string; isError: boolean }[] {
  return (actor.getSnapshot().context as AgentContext).dialogue
    .effective()
    .toArray()
    .flatMap((e) => (e.kind === 'tool_result' ? [{ callId: e.callId, content: e.content, isError: e.isError }] : []));
}

function lastToolResult(request: SampleInput): string {
  const last = request.dialogue.at(-1);
  return last?.kind === 'tool_result' ? last.content : '';
}

describe('delegatingAgent', () => {
  it('answers each Agent call with its subagent’s result, sent to the parent actor as a subagent.report that names the child', async () => {
    const { model, requests } = scripted({
      '/root': [
        () => reply('', [agentCall('c1', { task_name: 'a', message: 'Task A' }), agentCall('c2', { task_name: 'b', message: 'Task B' })]),
        (request) => reply(`both done after ${request.dialogue.pendingCalls().length} pending`),
      ],
      '/root/a': [(request) => reply(`A saw: ${request.dialogue.at(-1)?.kind === 'user' ? 'its task' : 'something else'}`)],
      '/root/b': [() => reply('B answered')],
    });
    const agents = delegatingAgent({ model });
    const relayed: string[] = [];
    const root = createActor(agents.logic, {
      input: agents.input({ task: 'Split the work', model: 'm' }),
      inspect: (event: InspectionEvent) => {
        if (event.type === '@xstate.event' && event.event.type === 'subagent.report') {
          const pathOf = (actor: { getSnapshot(): unknown }): string => String((actor.getSnapshot() as { context?: AgentContext }).context?.input.path);
          relayed.push(`${String((event.event as { from?: unknown }).from)} -> ${pathOf(event.actorRef)}`);
        }
      },
    }).start();
    const result = await toPromise(root);
    expect(result).toMatchObject({ status: 'completed', text: 'both done after 0 pending' });
    expect(relayed.sort()).toEqual(['/root/a -> /root', '/root/b -> /root']);
    const answers = toolResults(root);
    expect(answers.map((a) => a.callId).sort()).toEqual(['c1', 'c2']);
    expect(JSON.parse(answers.find((a) => a.callId === 'c1')!.content)).toMatchObject({ agent_id: '/root/a', status: 'completed', result: 'A saw: its task' });
    expect(JSON.parse(answers.find((a) => a.callId === 'c2')!.content)).toMatchObject({ agent_id: '/root/b', result: 'B answered' });
    expect(requests.filter((p) => p === '/root')).toHaveLength(2);
  });

  it('forks with context "all": the subagent starts from the parent’s dialogue without the triggering call', async () => {
    let childSaw: string[] = [];
    const { model } = scripted({
      '/root': [() => reply('', [agentCall('fork1', { task_name: 'fork', message: 'Continue from here', context: 'all' })]), () => reply('ok')],
      '/root/fork': [
        (request) => {
          childSaw = request.dialogue.effective().toArray().map((e) => (e.kind === 'user' ? `user:${e.text.split('\n')[0]}` : e.kind));
          return reply('forked');
        },
      ],
    });
    const agents = delegatingAgent({ model });
    const root = createActor(agents.logic, { input: agents.input({ task: 'Plan the release', model: 'm' }) }).start();
    await toPromise(root);
    // The parent's task came along; the assistant entry holding only the triggering call did not.
    expect(childSaw[0]).toContain('Plan the release');
    expect(childSaw).not.toContain('tool_result');
    expect(JSON.parse(toolResults(root)[0]!.content)).toMatchObject({ agent_id: '/root/fork', result: 'forked' });
  });

  it('runs the harness’s tools with their arguments, and turns unknown tools, bad arguments and throwing tools into error results', async () => {
    const seen: unknown[] = [];
    const lookup: HarnessTool = {
      name: 'lookup',
      description: 'Look a word up.',
      inputSchema: { type: 'object', properties: { word: { type: 'string' } } },
      execute: (args, { path, callId }) => (seen.push([args, path, callId]), `meaning of ${(args as { word: string }).word}`),
    };
    const broken: HarnessTool = { name: 'broken', description: 'Fails.', inputSchema: { type: 'object' }, execute: () => Promise.reject(new Error('disk on fire')) };
    const { model } = scripted({
      '/root': [
        () =>
          reply('', [
            { id: 't1', name: 'lookup', arguments: { word: 'actor' } },
            { id: 't2', name: 'nope', arguments: {} },
            { id: 't3', name: 'broken', arguments: {} },
            agentCall('t4', { task_name: 'Bad Name!', message: 'x' }),
            agentCall('t5', { task_name: 'ctx', message: 'x', context: 'summary' }),
          ]),
        () => reply('done'),
      ],
    });
    const agents = delegatingAgent({ model, tools: [lookup, broken] });
    const root = createActor(agents.logic, { input: agents.input({ task: 'Use the tools', model: 'm' }) }).start();
    await toPromise(root);
    const byId = Object.fromEntries(toolResults(root).map((r) => [r.callId, r]));
    expect(seen).toEqual([[{ word: 'actor' }, '/root', 't1']]);
    expect(byId['t1']).toEqual({ callId: 't1', content: 'meaning of actor', isError: false });
    expect(byId['t2']).toMatchObject({ isError: true, content: expect.stringContaining('there is no tool named "nope"') });
    expect(byId['t3']).toMatchObject({ isError: true, content: expect.stringContaining('disk on fire') });
    expect(byId['t4']).toMatchObject({ isError: true, content: expect.stringContaining('invalid_arguments') });
    expect(byId['t5']).toMatchObject({ isError: true, content: expect.stringMatching(/^Error \(invalid_context\): context "summary" is not available/) });
  });

  it('cancels the subtree children first when the root is stopped, one result each', async () => {
    const settled: string[] = [];
    const never = (): Promise<ModelResponse> => new Promise(() => {});
    const model: ModelFunction = (request) => {
      if (request.path === '/root') return reply('', [agentCall('c1', { task_name: 'mid', message: 'Delegate further' })]);
      if (request.path === '/root/mid') return reply('', [agentCall('c2', { task_name: 'leaf', message: 'Work forever' })]);
      return never();
    };
    const agents = delegatingAgent({ model });
    const root = createActor(agents.logic, {
      input: agents.input({ task: 'Start a chain', model: 'm' }),
      inspect: (event: InspectionEvent) => {
        const snapshot = event.type === '@xstate.snapshot' ? (event.snapshot as { status?: string; context?: AgentContext }) : undefined;
        if (snapshot?.status === 'done' && snapshot.context?.input) settled.push(snapshot.context.input.path);
      },
    }).start();
    // Wait until the leaf is waiting on its model.
    await new Promise<void>((resolve) => {
      const check = (): void => {
        const leaf = root.system.get('/root/mid/leaf') as AnyActorRef | undefined;
        if (leaf) resolve();
        else queueMicrotask(check);
      };
      check();
    });
    root.stop();
    expect(settled).toEqual(['/root/mid/leaf', '/root/mid']);
  });

  it('relays send_message from a subagent to its parent as the typed event, queued into the parent’s turn', async () => {
    const { model } = scripted({
      '/root': [() => reply('', [agentCall('c1', { task_name: 'w', message: 'Report progress' })]), (request) => reply(`root heard ${request.dialogue.effective().toArray().filter((e) => e.kind === 'user' && e.origin.kind === 'message').length}`)],
      '/root/w': [() => reply('', [{ id: 'm1', name: 'send_message', arguments: { agent_id: '/root', message: 'half way' } }]), (request) => reply(`sent: ${lastToolResult(request)}`)],
    });
    const agents = delegatingAgent({ model });
    const root = createActor(agents.logic, { input: agents.input({ task: 'Go', model: 'm' }) }).start();
    const result = await toPromise(root);
    expect(result.text).toBe('root heard 1');
  });

  it('ends an agent with model_error for a reply the dialogue cannot hold, and refuses bad options', async () => {
    const agents = delegatingAgent({ model: () => ({ text: 'x', toolCalls: [{ id: '', name: 'lookup', arguments: {} }], usage: ZERO_USAGE }) });
    const sub = createActor(agents.logic, { input: agents.input({ task: 'Fail', model: 'm', path: '/root/sub' }) }).start();
    const result = await toPromise(sub);
    expect(result).toMatchObject({ status: 'failed', stopReason: 'model_error', error: expect.stringContaining('non-empty id and name') });
    expect(() => delegatingAgent({} as never)).toThrow(DelegatingAgentError);
    const tool: HarnessTool = { name: 'Agent', description: 'x', inputSchema: { type: 'object' }, execute: () => 'x' };
    expect(() => delegatingAgent({ model: () => reply('x'), tools: [tool] })).toThrow(/coordination tool/);
  });

  it('refuses a call whose arguments are not plain JSON with a typed error, then forks on the next step', async () => {
    const { model, requests } = scripted({
      '/root': [
        () => reply('', [{ id: 'bad', name: 'Agent', arguments: { task_name: 'w', message: 'x', n: Number.NaN } as never }]),
        () => reply('', [agentCall('fork', { task_name: 'f', message: 'Go on', context: 'all' })]),
        () => reply('root done'),
      ],
      '/root/f': [() => reply('fork answered')],
    });
    const agents = delegatingAgent({ model });
    const root = createActor(agents.logic, { input: agents.input({ task: 'Go', model: 'm' }) }).start();
    expect(await toPromise(root)).toMatchObject({ status: 'completed', text: 'root done' });
    const byId = Object.fromEntries(toolResults(root).map((r) => [r.callId, r]));
    expect(byId['bad']).toMatchObject({ isError: true, content: expect.stringMatching(/^Error \(invalid_arguments\): .*\$\.n: NaN is not a finite number/) });
    expect(byId['fork']).toMatchObject({ isError: false, content: expect.stringContaining('fork answered') });
    expect(requests).not.toContain('/root/w');
  });

  it('lists, cancels and closes only the caller’s own subagents', async () => {
    const gate = new Promise<ModelResponse>(() => {});
    const { model } = scripted({
      '/root': [
        () =>
          reply('', [
            agentCall('c1', { task_name: 'leaf', message: 'Wait' }),
            { id: 'l1', name: 'list_agents', arguments: {} },
            { id: 'x1', name: 'cancel_agent', arguments: { agent_id: '/root/leaf' } },
            { id: 'x2', name: 'close_agent', arguments: { agent_id: '/elsewhere' } },
            { id: 'x3', name: 'close_agent', arguments: { agent_id: '/root/ghost' } },
          ]),
        () => reply('done'),
      ],
      '/root/leaf': [() => gate as unknown as ModelResponse],
    });
    const agents = delegatingAgent({ model });
    const root = createActor(agents.logic, { input: agents.input({ task: 'Manage', model: 'm' }) }).start();
    await toPromise(root);
    const byId = Object.fromEntries(toolResults(root).map((r) => [r.callId, r]));
    expect(JSON.parse(byId['l1']!.content)).toEqual({ agents: [{ agent_id: '/root/leaf', role: null, state: 'running.working.sampling', context: 'none', last_task: 'Wait' }] });
    expect(JSON.parse(byId['x1']!.content)).toEqual({ cancelled: [{ agent_id: '/root/leaf', state: 'running.working.sampling' }] });
    expect(JSON.parse(byId['c1']!.content)).toMatchObject({ agent_id: '/root/leaf', status: 'cancelled' });
    expect(byId['x2']).toMatchObject({ isError: true, content: expect.stringContaining('not_permitted') });
    expect(byId['x3']).toEqual({ callId: 'x3', isError: true, content: 'Error (unknown_agent): no agent /root/ghost; live agents: /root' });
  });
});
