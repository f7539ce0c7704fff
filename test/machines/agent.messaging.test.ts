/**
 * `send_message` between agents of one tree, inside the statechart: the sender's actor relays
 * the event to the target's (found by its path, its system id), so inspection shows who sent
 * it; a target gone meanwhile gets nothing and the sender is unaffected. Also what the agent
 * does with a subagent that crashed, and what the request it starts says about its state.
 */
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, type AnyActorRef, type InspectionEvent } from 'xstate';
import { agentMachine, createAgentInput, subagentOf, subagentsOf, type SampleInput, type SampleOutput } from '../../machines/index.js';
import { sampleInputOf } from '../../machines/agent.machine.js';
import type { AgentContext, TaskHookInput, TaskHookDecision } from '../../machines/agent.types.js';

/** A tree whose models never answer: every agent stays in its first request. */
function tree() {
  const requests: SampleInput[] = [];
  const noted: string[] = [];
  const adopted: string[] = [];
  const logic = agentMachine.provide({
    actors: { sampleModel: fromPromise<SampleOutput, SampleInput>(({ input }) => (requests.push(input), new Promise<never>(() => {}))) },
    actions: {
      noteSubagentEnded: ({ event }) => void noted.push(event.type),
      adoptSubagent: ({ self, context }, { path }) => void adopted.push(`${context.input.path} adopts ${path} (${subagentOf(self, path) ? 'created' : 'missing'})`),
    },
  });
  const seen: InspectionEvent[] = [];
  const root = createActor(logic, { input: createAgentInput({ model: 'm', sessionId: 'tree' }), systemId: '/root', inspect: (e) => void seen.push(e) }).start();
  const spawn = (parent: AnyActorRef, path: string, actorId?: string): AnyActorRef => {
    parent.send({ type: 'subagent.spawn', input: createAgentInput({ model: 'm', task: `work of ${path}`, path }), ...(actorId ? { actorId } : {}) });
    return subagentOf(parent, path)!;
  };
  const contextOf = (actor: AnyActorRef) => actor.getSnapshot().context as AgentContext;
  return { root, spawn, seen, requests, noted, adopted, contextOf };
}

describe('send_message between agents', () => {
  it('goes from the sender actor to the target actor, which queues it', () => {
    const t = tree();
    const a = t.spawn(t.root, '/root/a');
    const b = t.spawn(t.root, '/root/b');
    a.send({ type: 'send_message', from: '/root/a', to: '/root/b', message: 'hello b' });
    expect(t.contextOf(b).inbox?.item).toEqual({ text: 'hello b', origin: { kind: 'message', from: '/root/a' } });
    expect(t.contextOf(a).inbox).toBeNull();
    const relayed = t.seen.filter((e) => e.type === '@xstate.event' && e.event.type === 'send_message' && e.actorRef === b);
    expect(relayed.map((e) => (e as { sourceRef?: AnyActorRef }).sourceRef)).toEqual([a]);
    t.root.stop();
  });

  it('from an idle agent opens a turn at the target', () => {
    const t = tree();
    const a = t.spawn(t.root, '/root/a');
    t.root.send({ type: 'send_message', from: '/root', to: '/root/a', message: 'from the root' });
    expect(t.contextOf(a).inbox?.item.text).toBe('from the root');
    // The root itself was idle and stays so: the message was its own, not for it.
    expect(t.root.getSnapshot().value).toEqual({ running: 'idle' });
    a.send({ type: 'send_message', from: '/root/a', to: '/root', message: 'to the root' });
    expect(t.root.getSnapshot().value).toEqual({ running: { working: 'sampling' } });
    expect(t.requests.at(-1)!.dialogue.at(0)).toMatchObject({ text: 'to the root', origin: { kind: 'message', from: '/root/a' } });
    t.root.stop();
  });

  it('to a target that is gone reaches nobody and leaves the sender as it was', () => {
    const t = tree();
    const a = t.spawn(t.root, '/root/a');
    const before = a.getSnapshot();
    a.send({ type: 'send_message', from: '/root/a', to: '/root/gone', message: 'anyone?' });
    expect(a.getSnapshot().context).toBe(before.context);
    expect(a.getSnapshot().value).toEqual(before.value);
    expect(t.contextOf(t.root).inbox).toBeNull();
    t.root.stop();
  });

  it('addressed by an agent to itself before it runs reaches nobody', () => {
    const logic = agentMachine.provide({ actors: { runTaskHooks: fromPromise<TaskHookDecision, TaskHookInput>(() => new Promise<never>(() => {})) } });
    const agent = createActor(logic, { input: createAgentInput({ model: 'm', task: 't', path: '/root/w', taskHooks: true }), systemId: '/root/w' }).start();
    const before = agent.getSnapshot();
    agent.send({ type: 'send_message', from: '/root/w', to: '/root/w', message: 'note to self' });
    expect(agent.getSnapshot().context).toBe(before.context);
    expect(agent.getSnapshot().value).toEqual({ reserved: 'runningHooks' });
    agent.stop();
  });

  it('claiming another sender is not relayed', () => {
    const t = tree();
    const a = t.spawn(t.root, '/root/a');
    const b = t.spawn(t.root, '/root/b');
    a.send({ type: 'send_message', from: '/root/c', to: '/root/b', message: 'forged' });
    expect(t.contextOf(b).inbox).toBeNull();
    t.root.stop();
  });
});

describe('subagents', () => {
  it('are adopted by the runtime after they exist and before they start', () => {
    const t = tree();
    const a = t.spawn(t.root, '/root/a');
    expect(t.adopted).toEqual(['/root adopts /root/a (created)']);
    expect(a.getSnapshot().status).toBe('active');
    t.root.stop();
  });

  it('a subagent that crashed is noted and no longer held', () => {
    const t = tree();
    const a = t.spawn(t.root, '/root/a');
    const b = t.spawn(t.root, '/root/b');
    expect(a.id).toBe('subagent:0');
    t.root.send({ type: 'xstate.error.actor.subagent:0', error: new Error('crashed') });
    expect(t.noted).toEqual(['xstate.error.actor.subagent:0']);
    expect(subagentsOf(t.root)).toEqual([b]);
    t.root.send({ type: 'xstate.error.actor.subagent:7', error: new Error('unknown') });
    expect(t.noted).toHaveLength(2);
    expect(subagentsOf(t.root)).toEqual([b]);
    t.root.stop();
  });

  it('an agent does not swallow the failure of an actor that is not its subagent', () => {
    const t = tree();
    const errors: unknown[] = [];
    t.root.subscribe({ error: (e) => void errors.push(e) });
    const failure = new Error('some other actor failed');
    t.root.send({ type: 'xstate.error.actor.other', error: failure });
    expect(t.noted).toEqual([]);
    expect(t.root.getSnapshot().status).toBe('error');
    expect(errors).toEqual([failure]);
  });

  it('keep the actor id the runtime gave them', () => {
    const t = tree();
    const a = t.spawn(t.root, '/root/a', 'subagent:5');
    expect(a.id).toBe('subagent:5');
    t.root.stop();
  });
});

describe('the model request', () => {
  it('says which agent, model, system, effort, turn, step and output schema it is for', () => {
    const input = { ...createAgentInput({ model: 'big-model', task: 't', path: '/root/w', effort: 'high', systemPrompt: 'Be exact.' }), output: { type: 'object' } };
    const t = tree();
    const logic = agentMachine.provide({ actors: { sampleModel: fromPromise<SampleOutput, SampleInput>(() => new Promise<never>(() => {})) } });
    const agent = createActor(logic, { input }).start();
    const context = agent.getSnapshot().context as AgentContext;
    expect(sampleInputOf({ ...context, turnsCompleted: 3, step: 2 })).toEqual({
      path: '/root/w',
      dialogue: context.dialogue,
      system: { preset: 'custom', systemPrompt: 'Be exact.', tools: [] },
      model: 'big-model',
      effort: 'high',
      turn: 3,
      step: 2,
      output: { type: 'object' },
    });
    agent.stop();
    t.root.stop();
  });
});
