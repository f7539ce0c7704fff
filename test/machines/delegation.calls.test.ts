/**
 * `delegatingAgent` call by call: what each coordination tool answers, what a subagent starts
 * with, and the typed errors for options, replies and calls it cannot take.
 */
import { describe, expect, it, vi } from 'vitest';
import { createActor, toPromise, type AnyActorRef } from 'xstate';
import { configureReports, delegatingAgent, DelegatingAgentError, type AgentContext, type AgentInput, type HarnessTool, type ModelFunction, type SampleInput } from '../../machines/index.js';
import type { SubagentReportEvent, SummaryActorInput } from '../../machines/agent.types.js';
import { afterMicrotasks } from '../../src/testing/deferred.js';
import { thrown } from '../thrown.js';
import type { ModelResponse } from '../../src/request/reply.js';
import type { JsonValue, ToolCall } from '../../src/dialogue/entry.js';
import { ZERO_USAGE } from '../../src/request/usage.js';

const reply = (text: string, toolCalls: ToolCall[] = []): ModelResponse => ({ text, toolCalls, usage: ZERO_USAGE });
const call = (id: string, name: string, args: { readonly [key: string]: JsonValue } = {}): ToolCall => ({ id, name, arguments: args });

interface Answer {
  readonly content: string;
  readonly isError: boolean;
}

function answersOf(actor: AnyActorRef): Record<string, Answer> {
  const out: Record<string, Answer> = {};
  const { dialogue } = actor.getSnapshot().context as AgentContext;
  for (const entry of dialogue.effective().toArray()) {
    if (entry.kind === 'tool_result') out[entry.callId] = { content: entry.content, isError: entry.isError };
  }
  // Results that finished before an earlier call's wait for it (written in call order).
  const last = dialogue.at(dialogue.lastAssistantPosition());
  for (const call of last?.kind === 'assistant' ? last.toolCalls : []) {
    const held = dialogue.resultOf(call.id);
    if (held) out[call.id] = { content: held.content, isError: held.isError };
  }
  return out;
}

/** Resolves once `actor`'s dialogue holds an answer to every one of `callIds`. */
function answered(actor: AnyActorRef, callIds: readonly string[]): Promise<Record<string, Answer>> {
  return new Promise((resolve) => {
    const check = (): boolean => {
      const answers = answersOf(actor);
      if (!callIds.every((id) => id in answers)) return false;
      resolve(answers);
      return true;
    };
    if (check()) return;
    const subscription = actor.subscribe(() => {
      if (check()) subscription.unsubscribe();
    });
  });
}

/** A promise and the function that settles it. */
function gate<T>(): { promise: Promise<T>; open: (value: T) => void } {
  let open!: (value: T) => void;
  const promise = new Promise<T>((resolve) => (open = resolve));
  return { promise, open };
}

/** Runs a root whose first reply makes `calls` and whose second ends the turn; subagents answer via `child`. */
async function rootMaking(calls: ToolCall[], child: ModelFunction = () => reply('child done'), tools: HarnessTool[] = []): Promise<{ root: AnyActorRef; answers: Record<string, Answer> }> {
  let rootRequests = 0;
  const agents = delegatingAgent({
    model: (request, signal) => {
      if (request.path !== '/root') return child(request, signal);
      rootRequests += 1;
      return rootRequests === 1 ? reply('', calls) : reply('root done');
    },
    tools,
  });
  const root = createActor(agents.logic, { input: agents.input({ task: 'Coordinate', model: 'm' }) }).start();
  await toPromise(root);
  return { root, answers: answersOf(root) };
}

describe('delegatingAgent options', () => {
  it('refuses each kind of bad option with its own typed reason', () => {
    const model: ModelFunction = () => reply('x');
    const tool = (name: string): HarnessTool => ({ name, description: 'A tool.', inputSchema: { type: 'object' }, execute: () => 'ok' });
    const refusal = (make: () => unknown): DelegatingAgentError => thrown(make, DelegatingAgentError);
    expect(refusal(() => delegatingAgent(null as never))).toMatchObject({ code: 'invalid_delegating_agent', name: 'DelegatingAgentError', message: expect.stringContaining('options must be an object') });
    expect(refusal(() => delegatingAgent({ model: 'gpt' as never })).message).toContain('model must be a function');
    expect(refusal(() => delegatingAgent('gpt' as never)).message).toContain('options must be an object');
    expect(refusal(() => delegatingAgent({ model, summarize: 3 as never })).message).toContain('summarize must be a function');
    expect(refusal(() => delegatingAgent({ model, tools: [null as never] })).message).toContain('each tool needs a name');
    expect(refusal(() => delegatingAgent({ model, tools: [{ name: 'x', description: 'x', inputSchema: {} } as never] })).message).toContain('an execute function');
    expect(refusal(() => delegatingAgent({ model, tools: [{ ...tool('x'), name: 7 } as never] })).message).toContain('each tool needs a name');
    expect(refusal(() => delegatingAgent({ model, tools: [tool('send_message')] })).message).toContain('"send_message" is a coordination tool');
    expect(refusal(() => delegatingAgent({ model, tools: [tool('grep'), tool('grep')] })).message).toContain('two tools are named "grep"');
    // Neither form: a parse without a schema, a parse that is not a function, a schema that is not an object.
    for (const odd of [
      'grep',
      { name: 'x', description: 'x', execute: () => 'ok', parse: () => ({ ok: true }) },
      { name: 'x', description: 'x', execute: () => 'ok', parse: 'yes', schema: {} },
      { name: 'x', description: 'x', execute: () => 'ok', inputSchema: null },
      { name: 'x', description: 'x', execute: () => 'ok', inputSchema: 'object' },
      { name: 'x', description: 'x', execute: 'run', inputSchema: {} },
    ]) {
      expect(refusal(() => delegatingAgent({ model, tools: [odd as never] })).message).toContain('each tool needs a name, a description, a schema and an execute function');
    }
    expect(refusal(() => delegatingAgent({ model, defaults: { lifetime: 'forever' as never } })).message).toBe('delegatingAgent: defaults.lifetime must be "one-shot" or "continuable" (got forever)');
    for (const lifetime of ['one-shot', 'continuable'] as const) expect(() => delegatingAgent({ model, defaults: { lifetime } })).not.toThrow();
  });

  it('shows the model the coordination tools, then the harness’s, with their schemas', () => {
    const grep: HarnessTool = { name: 'grep', description: 'Search files.', inputSchema: { type: 'object', properties: { pattern: { type: 'string' } } }, execute: () => '' };
    const input = delegatingAgent({ model: () => reply('x'), tools: [grep] }).input({ task: 'Find', model: 'm' });
    const names = input.system.tools.map((t) => t.name);
    expect(names.slice(0, 5).sort()).toEqual(['Agent', 'cancel_agent', 'close_agent', 'list_agents', 'send_message']);
    expect(names.slice(5)).toEqual(['grep']);
    expect(input.system.tools[5]).toEqual({ name: 'grep', description: 'Search files.', inputSchema: grep.inputSchema });
    expect(delegatingAgent({ model: () => reply('x') }).input({ task: 'Find', model: 'm' }).system.tools).toHaveLength(5);
  });
});

describe('delegatingAgent model replies', () => {
  // A subagent: a root's failed turn leaves it idle instead of ending it.
  const run = async (model: ModelFunction) => {
    const agents = delegatingAgent({ model });
    return toPromise(createActor(agents.logic, { input: agents.input({ task: 'Answer', model: 'm', path: '/root/sub' }) }).start());
  };

  it('ends the agent with model_error naming what is wrong with a reply', async () => {
    await expect(run(() => null as never)).resolves.toMatchObject({ status: 'failed', stopReason: 'model_error', error: expect.stringContaining('returned null instead of { text, toolCalls }') });
    await expect(run(() => ({ text: 5 }) as never)).resolves.toMatchObject({ stopReason: 'model_error', error: expect.stringContaining('text must be a string') });
    await expect(run(() => ({ text: 'x', toolCalls: 'none' }) as never)).resolves.toMatchObject({ stopReason: 'model_error', error: expect.stringContaining('toolCalls must be an array') });
    await expect(run(() => ({ text: 'x', toolCalls: [null] }) as never)).resolves.toMatchObject({ stopReason: 'model_error', error: expect.stringContaining('non-empty id and name') });
    await expect(run(() => ({ text: 'x', toolCalls: [{ id: 'a', name: '' }] }) as never)).resolves.toMatchObject({ stopReason: 'model_error', error: expect.stringContaining('non-empty id and name') });
    await expect(run(() => ({ text: 'x', toolCalls: [{ id: 3, name: 'grep' }] }) as never)).resolves.toMatchObject({ stopReason: 'model_error' });
    await expect(run(() => ({ text: 'x', toolCalls: [{ id: 'a', name: 5 }] }) as never)).resolves.toMatchObject({ stopReason: 'model_error', error: expect.stringContaining('non-empty id and name') });
    await expect(run(() => 'just a string' as never)).resolves.toMatchObject({ stopReason: 'model_error', error: expect.stringContaining('returned just a string instead of') });
  });

  it('takes a reply with only text, or only tool calls, filling in what is left out', async () => {
    await expect(run(() => ({ text: 'just text' }) as never)).resolves.toMatchObject({ status: 'completed', text: 'just text' });
    await expect(run(() => ({ toolCalls: [] }) as never)).resolves.toMatchObject({ status: 'completed', text: '' });
    let requests = 0;
    const result = await run(() => (++requests === 1 ? ({ toolCalls: [call('l1', 'list_agents')] } as never) : reply('listed')));
    expect(result).toMatchObject({ status: 'completed', text: 'listed' });
    expect(result.usage.inputTokens).toBe(0);
  });
});

describe('delegatingAgent coordination calls', () => {
  it('starts a subagent with the model, effort and role its call names, else its parent’s, and a deeply frozen input', async () => {
    const seen = new Map<string, { model: string; effort: unknown; input: AgentInput }>();
    const child: ModelFunction = (request: SampleInput) => {
      // The subagent's own actor holds the input it was started with.
      seen.set(request.path, { model: request.model, effort: request.effort, input: inputOf(request.path) });
      return reply(`${request.path} done`);
    };
    // Read when a subagent makes its first request, after `root` is set below.
    const inputOf = (path: string): AgentInput => ((root.system.get(path) as AnyActorRef).getSnapshot().context as AgentContext).input;
    let rootRequests = 0;
    const agents = delegatingAgent({
      model: (request, signal) => {
        if (request.path !== '/root') return child(request, signal);
        rootRequests += 1;
        return rootRequests === 1
          ? reply('', [
              call('c1', 'Agent', { task_name: 'named', message: 'Review it', model: 'big', effort: 'high', role: 'reviewer', attachments: [{ name: 'a.txt', content: 'A' }] }),
              call('c2', 'Agent', { task_name: 'plain', message: 'Do it' }),
            ])
          : reply('root done');
      },
    });
    const root = createActor(agents.logic, { input: agents.input({ task: 'Coordinate', model: 'small', effort: 'low' }) }).start();
    await toPromise(root);
    const named = seen.get('/root/named')!;
    const plain = seen.get('/root/plain')!;
    expect([named.model, named.effort, named.input.role]).toEqual(['big', 'high', 'reviewer']);
    expect([plain.model, plain.effort, plain.input.role]).toEqual(['small', 'low', undefined]);
    expect(plain.input.framing).toEqual({ kind: 'independent', parentPath: '/root', instructions: undefined, projectContext: undefined, attachments: [] });
    expect(named.input).toMatchObject({ path: '/root/named', parentPath: '/root', task: 'Review it', lifetime: 'one-shot', delivery: 'caller', contextMode: 'none' });
    expect(named.input.framing).toMatchObject({ kind: 'independent', parentPath: '/root', attachments: [{ name: 'a.txt', content: 'A' }] });
    expect(Object.isFrozen(named.input)).toBe(true);
    expect(Object.isFrozen(named.input.framing)).toBe(true);
    expect(() => {
      (named.input as { task: string }).task = 'changed';
    }).toThrow(TypeError);
    const answers = answersOf(root);
    expect(JSON.parse(answers['c1']!.content)).toMatchObject({ agent_id: '/root/named', status: 'completed', result: '/root/named done' });
    expect(answers['c1']!.isError).toBe(false);
  });

  it('forks the last N turns, and writes a summary with the harness’s summarizer', async () => {
    const summaries: SummaryActorInput[] = [];
    const seenBy = new Map<string, string>();
    const framings = new Map<string, AgentInput['framing']>();
    let rootRequests = 0;
    const agents = delegatingAgent({
      model: (request) => {
        if (request.path !== '/root') {
          seenBy.set(request.path, JSON.stringify(request.dialogue.effective().toArray()));
          framings.set(request.path, ((root.system.get(request.path) as AnyActorRef).getSnapshot().context as AgentContext).input.framing);
          return reply('ok');
        }
        rootRequests += 1;
        return rootRequests === 1
          ? reply('', [call('c1', 'Agent', { task_name: 'sum', message: 'Carry on', context: 'summary' }), call('c2', 'Agent', { task_name: 'last', message: 'Carry on', context: 1 })])
          : reply('root done');
      },
      summarize: (input) => {
        summaries.push(input);
        return { text: 'SUMMARY-OF-THE-WORK', usage: { inputTokens: 10, outputTokens: 2, cacheReadTokens: 0, cacheWriteTokens: 0 } };
      },
    });
    const root = createActor(agents.logic, { input: agents.input({ task: 'Plan the migration', model: 'm' }) }).start();
    await toPromise(root);
    expect(summaries.map((s) => [s.path, s.task])).toEqual([['/root/sum', 'Carry on']]);
    expect(seenBy.get('/root/sum')).toContain('SUMMARY-OF-THE-WORK');
    expect(seenBy.get('/root/last')).toContain('Plan the migration');
    expect(seenBy.get('/root/last')).not.toContain('SUMMARY-OF-THE-WORK');
    expect(framings.get('/root/sum')).toEqual({ kind: 'summary', parentPath: '/root', role: undefined, attachments: [] });
    expect(framings.get('/root/last')).toEqual({ kind: 'fork', parentPath: '/root', role: undefined, attachments: [] });
    const answers = answersOf(root);
    expect(answers['c1']!.isError).toBe(false);
    expect(answers['c2']!.isError).toBe(false);
  });

  it('refuses a name still running and a context it cannot parse, while the first subagent works on', async () => {
    const hold = gate<ModelResponse>();
    let rootRequests = 0;
    const agents = delegatingAgent({
      model: (request) => {
        if (request.path !== '/root') return hold.promise;
        rootRequests += 1;
        return rootRequests === 1
          ? reply('', [
              call('c1', 'Agent', { task_name: 'w', message: 'Wait' }),
              call('c2', 'Agent', { task_name: 'w', message: 'Again' }),
              call('c3', 'Agent', { task_name: 'x', message: 'Odd', context: 'yesterday' }),
              call('c4', 'Agent', { task_name: 'y', message: 'Zero', context: 0 }),
            ])
          : reply('root done');
      },
    });
    const root = createActor(agents.logic, { input: agents.input({ task: 'Coordinate', model: 'm' }) }).start();
    const early = await answered(root, ['c2', 'c3', 'c4']);
    expect(early['c1']).toBeUndefined();
    expect(early['c2']).toEqual({ isError: true, content: 'Error (name_taken): task_name "w" is already used by a live subagent (/root/w); choose another name' });
    expect(early['c3']).toMatchObject({ isError: true, content: expect.stringMatching(/^Error \(invalid_context\): Invalid context "yesterday"/) });
    expect(early['c4']!.isError).toBe(true);
    expect(root.system.get('/root/x')).toBeUndefined();
    hold.open(reply('finally'));
    await toPromise(root);
    expect(JSON.parse(answersOf(root)['c1']!.content)).toMatchObject({ agent_id: '/root/w', result: 'finally' });
  });

  it('delivers send_message to a live agent, and refuses unknown targets and the sender itself', async () => {
    const { answers } = await rootMaking([
      call('c1', 'Agent', { task_name: 'w', message: 'Work' }),
      call('m1', 'send_message', { agent_id: '/root/w', message: 'Also check the tests' }),
      call('m2', 'send_message', { agent_id: '/root/nobody', message: 'Hello?' }),
      call('m3', 'send_message', { agent_id: '/root', message: 'Note to self' }),
    ]);
    expect(answers['m1']).toEqual({ isError: false, content: '{"delivered_to":"/root/w","status":"delivered"}' });
    // The same words as createRuntime's (machines/coordination.ts answers for both).
    expect(answers['m2']).toEqual({ isError: true, content: 'Error (unknown_agent): no agent /root/nobody; live agents: /root, /root/w' });
    expect(answers['m3']).toEqual({ isError: true, content: 'Error (not_permitted): /root cannot send a message to itself' });
  });

  it('lists the caller’s subagents in spawn order, closes one, and refuses to cancel or close itself', async () => {
    const hold = gate<ModelResponse>();
    let rootRequests = 0;
    const agents = delegatingAgent({
      model: (request) => {
        if (request.path === '/root/a') return hold.promise;
        if (request.path !== '/root') return new Promise<ModelResponse>(() => {});
        rootRequests += 1;
        return rootRequests === 1
          ? reply('', [
              call('c1', 'Agent', { task_name: 'a', message: 'First' }),
              call('c2', 'Agent', { task_name: 'b', message: 'Second' }),
              call('l1', 'list_agents'),
              call('x1', 'close_agent', { agent_id: '/root/a' }),
              call('x2', 'cancel_agent', { agent_id: '/root' }),
              call('x3', 'close_agent', { agent_id: '/root' }),
              call('x4', 'cancel_agent', { agent_id: '/rooted/a' }),
              call('x5', 'cancel_agent', { agent_id: '/root/b' }),
            ])
          : reply('root done');
      },
    });
    const root = createActor(agents.logic, { input: agents.input({ task: 'Coordinate', model: 'm' }) }).start();
    await answered(root, ['l1', 'x1', 'x5']);
    // Closed while its model works: it finishes that turn, then ends.
    hold.open(reply('a done'));
    await toPromise(root);
    const answers = answersOf(root);
    expect(JSON.parse(answers['l1']!.content)).toEqual({
      agents: [
        { agent_id: '/root/a', role: null, state: 'running.working.sampling', context: 'none', last_task: 'First' },
        { agent_id: '/root/b', role: null, state: 'running.working.sampling', context: 'none', last_task: 'Second' },
      ],
    });
    expect(answers['x1']).toEqual({ isError: false, content: '{"agent_id":"/root/a","status":"closing"}' });
    expect(answers['x2']).toEqual({ isError: true, content: 'Error (not_permitted): /root may only cancel its own subagents (and theirs); /root is not one of them' });
    expect(answers['x3']!.content).toContain('/root may only close its own subagents');
    expect(answers['x4']!.content).toContain('Error (not_permitted)');
    expect(answers['x5']).toEqual({ isError: false, content: '{"cancelled":[{"agent_id":"/root/b","state":"running.working.sampling"}]}' });
    expect(JSON.parse(answers['c2']!.content)).toMatchObject({ agent_id: '/root/b', status: 'cancelled', error: 'cancelled by /root' });
    expect(answers['c2']!.isError).toBe(true);
  });

  it('passes a harness tool’s own outcome through, with an abort signal, and names the tools there are for an unknown one', async () => {
    const signals: AbortSignal[] = [];
    const partial: HarnessTool = {
      name: 'partial',
      description: 'Answers with an error outcome of its own.',
      inputSchema: { type: 'object' },
      execute: (_args, { signal }) => {
        signals.push(signal);
        return { content: 'only half done', isError: true };
      },
    };
    const { answers } = await rootMaking([call('t1', 'partial'), call('t2', 'grep', { pattern: 'x' })], undefined, [partial]);
    expect(answers['t1']).toEqual({ content: 'only half done', isError: true });
    expect(signals).toHaveLength(1);
    expect(signals[0]).toBeInstanceOf(AbortSignal);
    expect(answers['t2']!.isError).toBe(true);
    expect(answers['t2']!.content).toMatch(/^Error \(unknown_tool\): there is no tool named "grep"; available tools: (\w+, ){5}partial$/);
    expect(answers['t2']!.content).toContain('Agent, ');
  });

  it('spawns subagents without a warning from XState’s development build', async () => {
    // Subagents are created inside their parent's action; a context function there made XState
    // warn "Custom actions should not call assign()" once per subagent.
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const { answers } = await rootMaking([call('c1', 'Agent', { task_name: 'a', message: 'One' }), call('c2', 'Agent', { task_name: 'b', message: 'Two', context: 'all' })]);
      expect(Object.keys(answers).sort()).toEqual(['c1', 'c2']);
      expect(warn.mock.calls).toEqual([]);
    } finally {
      warn.mockRestore();
    }
  });

  it('hands a report its host takes to the host instead of the parent’s actor', async () => {
    let rootRequests = 0;
    const agents = delegatingAgent({
      model: (request) => {
        if (request.path !== '/root') return reply('for the host');
        rootRequests += 1;
        return reply('', [call('c1', 'Agent', { task_name: 'a', message: 'Work' })]);
      },
    });
    const root = createActor(agents.logic, { input: agents.input({ task: 'Coordinate', model: 'm' }) });
    const taken = gate<SubagentReportEvent>();
    configureReports(root, { handOver: (event) => (taken.open(event), true) });
    root.start();
    const event = await taken.promise;
    expect(event).toMatchObject({ type: 'subagent.report', from: '/root/a', callId: 'c1', report: { kind: 'result' } });
    await afterMicrotasks();
    expect(answersOf(root)['c1']).toBeUndefined();
    expect(rootRequests).toBe(1);
    root.stop();
  });
});
