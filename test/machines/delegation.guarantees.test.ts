/**
 * Guarantees every host of the delegation protocol keeps, checked here on `delegatingAgent`
 * (test/runtime/host-guarantees.test.ts checks `createRuntime` and the Pi preset): a one-shot
 * root whose model fails settles once, `failed`; an open root's failed turn ends the turn only;
 * forks are continuable unless the harness asks for one-shot.
 */
import { describe, expect, it } from 'vitest';
import { createActor, toPromise, type AnyActorRef } from 'xstate';
import { delegatingAgent, type AgentContext, type ModelFunction, type SampleInput } from '../../machines/index.js';
import type { AgentResult } from '../../machines/agent.types.js';
import type { ModelResponse } from '../../src/request/reply.js';
import type { JsonValue, ToolCall } from '../../src/dialogue/entry.js';
import { ZERO_USAGE } from '../../src/request/usage.js';
import { stateValueString } from '../../src/text/state-value.js';

const reply = (text: string, toolCalls: ToolCall[] = []): ModelResponse => ({ text, toolCalls, usage: ZERO_USAGE });
const agentCall = (id: string, args: { readonly [key: string]: JsonValue }): ToolCall => ({ id, name: 'Agent', arguments: args });
const stateOf = (actor: AnyActorRef): string => stateValueString(actor.getSnapshot().value);
const toolResultOf = (actor: AnyActorRef, callId: string): string | undefined => {
  const { dialogue } = actor.getSnapshot().context as AgentContext;
  for (const e of dialogue.effective().toArray()) if (e.kind === 'tool_result' && e.callId === callId) return e.content;
  // A result that finished before an earlier call's waits for it (results are written in call order).
  return dialogue.resultOf(callId)?.content;
};

/** Resolves once `holds()` is true, checked on every snapshot of `actor` (no timers). */
function until(actor: AnyActorRef, holds: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    if (holds()) return resolve();
    const sub = actor.subscribe(() => {
      if (!holds()) return;
      sub.unsubscribe();
      resolve();
    });
  });
}
const reaches = (actor: AnyActorRef, state: string): Promise<void> => until(actor, () => stateOf(actor) === state);

describe('delegatingAgent keeps the hosts’ guarantees', () => {
  it('settles a one-shot root whose model function throws, once, with status failed (toPromise does not hang)', async () => {
    const agents = delegatingAgent({ model: () => Promise.reject(new Error('provider is down')) });
    const root = createActor(agents.logic, { input: agents.input({ task: 'Summarize the changelog', model: 'm' }) });
    const outputs: AgentResult[] = [];
    root.subscribe({ complete: () => outputs.push(root.getSnapshot().output as AgentResult) });
    root.start();
    const result = await toPromise(root);
    expect(result).toMatchObject({ status: 'failed', stopReason: 'model_error', error: 'provider is down', path: '/root' });
    expect(outputs).toEqual([result]);
  });

  it('ends only the turn of an open root (no task, continuable) whose model request fails: the next turn runs', async () => {
    let calls = 0;
    const model: ModelFunction = () => (++calls === 1 ? Promise.reject(new Error('rate limited')) : reply('second turn answered'));
    const agents = delegatingAgent({ model });
    const root = createActor(agents.logic, { input: agents.input({ model: 'm' }) }).start();
    root.send({ type: 'inbox', item: { text: 'first', origin: { kind: 'person' } } });
    await reaches(root, 'running.idle');
    expect(calls).toBe(1);
    expect(root.getSnapshot().status).toBe('active');
    root.send({ type: 'inbox', item: { text: 'second', origin: { kind: 'person' } } });
    await reaches(root, 'running.idle');
    expect((root.getSnapshot().context as AgentContext).lastText).toBe('second turn answered');
    expect(root.getSnapshot().status).toBe('active');
  });

  it('starts forks continuable by default: the Agent call answers the first turn and the fork stays idle for follow-ups', async () => {
    const model: ModelFunction = (request: SampleInput) => {
      if (request.path === '/root/fork') return reply('fork answer');
      if (request.dialogue.at(-1)?.kind === 'tool_result') return new Promise<ModelResponse>(() => {});
      return reply('', [agentCall('f1', { task_name: 'fork', message: 'Look closer', context: 'all' }), agentCall('n1', { task_name: 'fresh', message: 'Start over' })]);
    };
    const agents = delegatingAgent({ model: (request, signal) => (request.path === '/root/fresh' ? reply('fresh answer') : model(request, signal)) });
    const root = createActor(agents.logic, { input: agents.input({ task: 'Plan', model: 'm' }) }).start();
    await until(root, () => toolResultOf(root, 'f1') !== undefined && toolResultOf(root, 'n1') !== undefined);
    const fork = root.system.get('/root/fork') as AnyActorRef;
    expect(JSON.parse(toolResultOf(root, 'f1')!)).toMatchObject({ agent_id: '/root/fork', status: 'idle', result: 'fork answer' });
    expect(JSON.parse(toolResultOf(root, 'n1')!)).toMatchObject({ agent_id: '/root/fresh', status: 'completed', result: 'fresh answer' });
    expect(stateOf(fork)).toBe('running.idle');
    expect((fork.getSnapshot().context as AgentContext).input.lifetime).toBe('continuable');
    root.stop();
  });

  it('starts forks one-shot when the harness asks for it (defaults.lifetime)', async () => {
    const model: ModelFunction = (request) => {
      if (request.path === '/root/fork') return reply('fork answer');
      if (request.dialogue.at(-1)?.kind === 'tool_result') return reply('done');
      return reply('', [agentCall('f1', { task_name: 'fork', message: 'Look closer', context: 'all' })]);
    };
    const agents = delegatingAgent({ model, defaults: { lifetime: 'one-shot' } });
    const root = createActor(agents.logic, { input: agents.input({ task: 'Plan', model: 'm' }) }).start();
    await toPromise(root);
    expect(JSON.parse(toolResultOf(root, 'f1')!)).toMatchObject({ agent_id: '/root/fork', status: 'completed', result: 'fork answer' });
    expect(() => delegatingAgent({ model, defaults: { lifetime: 'forever' as never } })).toThrow(/defaults\.lifetime must be/);
  });

  it('refuses send_message to a subagent still preparing its summary with not_published, and list_agents leaves it out', async () => {
    let openSummary!: () => void;
    const summaryHeld = new Promise<void>((resolve) => (openSummary = resolve));
    let rootRequests = 0;
    const model: ModelFunction = (request) => {
      if (request.path === '/root/sum') return reply('summary subagent done');
      rootRequests += 1;
      if (rootRequests === 1) {
        return reply('', [
          agentCall('s1', { task_name: 'sum', message: 'Write the fix', context: 'summary' }),
          { id: 'm1', name: 'send_message', arguments: { agent_id: '/root/sum', message: 'Also the tests' } },
          { id: 'l1', name: 'list_agents', arguments: {} },
        ]);
      }
      return reply('root done');
    };
    const agents = delegatingAgent({
      model,
      summarize: async () => {
        await summaryHeld;
        return { text: 'background', usage: ZERO_USAGE };
      },
    });
    const root = createActor(agents.logic, { input: agents.input({ task: 'Fix the lexer', model: 'm' }) }).start();
    await until(root, () => toolResultOf(root, 'm1') !== undefined && toolResultOf(root, 'l1') !== undefined);
    expect(stateOf(root.system.get('/root/sum') as AnyActorRef)).toBe('preparingSummary');
    expect(toolResultOf(root, 'm1')).toBe('Error (not_published): agent /root/sum is still starting (not yet running) and cannot take messages yet');
    expect(JSON.parse(toolResultOf(root, 'l1')!)).toEqual({ agents: [] });
    openSummary();
    expect(await toPromise(root)).toMatchObject({ status: 'completed', text: 'root done' });
  });
});
