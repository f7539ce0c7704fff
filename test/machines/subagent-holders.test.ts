/**
 * Where a parent keeps its live subagents (machines/subagents.ts: a set its supervisor owns) and the short actor ids it
 * hands them (machines/subagent-ids.ts): ids are recycled, only ids the holder made go back
 * to it, a released subagent is no longer found, and cancelling a parent's subagents reaches
 * only the live ones.
 */
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, type AnyActorRef } from 'xstate';
import { agentMachine } from '../../machines/agent.machine.js';
import { createAgentInput } from '../../machines/agent.input.js';
import type { AgentResult, SampleInput, SampleOutput } from '../../machines/agent.types.js';
import { ChildIds, isSubagentActorId, SUBAGENT_ID_PREFIX } from '../../machines/subagent-ids.js';
import { cancelSubagents, holdSubagent, releaseSubagent, SubagentSet, subagentOf, subagentsOf } from '../../machines/subagents.js';

describe('ChildIds', () => {
  it('hands out subagent:0, 1, ... and reuses the last one given back first', () => {
    const ids = new ChildIds();
    expect([ids.take(), ids.take(), ids.take()]).toEqual(['subagent:0', 'subagent:1', 'subagent:2']);
    expect([ids.inUse, ids.distinct]).toEqual([3, 3]);
    ids.give('subagent:0');
    ids.give('subagent:2');
    expect([ids.inUse, ids.distinct]).toEqual([1, 3]);
    expect([ids.take(), ids.take(), ids.take()]).toEqual(['subagent:2', 'subagent:0', 'subagent:3']);
    expect([ids.inUse, ids.distinct]).toEqual([4, 4]);
  });

  it('takes back ids of more than one digit', () => {
    const ids = new ChildIds();
    const taken = Array.from({ length: 12 }, () => ids.take());
    expect(taken.at(-1)).toBe('subagent:11');
    ids.give('subagent:10');
    expect(ids.inUse).toBe(11);
    expect(ids.take()).toBe('subagent:10');
  });

  it('ignores ids it never handed out', () => {
    const ids = new ChildIds();
    ids.take();
    ids.take();
    for (const id of ['/root/a', 'subagent:2', 'subagent:-1', 'subagent:0.5', 'subagent:x', 'xsubagent:0', 'subagent:', 'subagent: 1', 'subagent:1e0']) ids.give(id);
    expect(ids.inUse).toBe(2);
    expect(ids.take()).toBe('subagent:2');
  });

  it('tells subagent ids from others by their prefix', () => {
    expect(SUBAGENT_ID_PREFIX).toBe('subagent:');
    expect(isSubagentActorId('subagent:3')).toBe(true);
    expect(isSubagentActorId('/root/subagent:3')).toBe(false);
    expect(isSubagentActorId('model')).toBe(false);
  });
});

/** A root whose subagents wait on a model that never answers, recording every result; `set` holds subagents as its supervisor's would. */
function holder() {
  const results: AgentResult[] = [];
  const logic = agentMachine.provide({
    actors: { sampleModel: fromPromise<SampleOutput, SampleInput>(() => new Promise<never>(() => {})) },
    actions: { releaseAndReport: (_, { result }) => void results.push(result) },
  });
  const root = createActor(logic, { input: createAgentInput({ model: 'm' }) }).start();
  const input = (path: string) => createAgentInput({ model: 'm', task: `work of ${path}`, path });
  return { root, results, input, set: new SubagentSet() };
}

describe('subagent sets', () => {
  it('hold subagents by path, in spawn order, with the parent as XState parent and the path as system id', () => {
    const { root, input, set } = holder();
    const a = set.create(root, input('/root/a'));
    const b = set.create(root, input('/root/b'));
    expect(set.list()).toEqual([a, b]);
    expect(set.get('/root/b')).toBe(b);
    expect(set.get('/root/c')).toBeUndefined();
    expect(a._parent).toBe(root);
    expect([a.id, b.id]).toEqual(['subagent:0', 'subagent:1']);
    // Created, not started: the agent starts them once the runtime adopted them.
    expect(a.getSnapshot().status).toBe('active');
    a.start();
    expect(root.system.get('/root/a')).toBe(a);
    root.stop();
  });

  it('give back an id they made when its subagent is released, and no other', () => {
    const { root, input, set } = holder();
    const a = set.create(root, input('/root/a'));
    set.create(root, input('/root/b'));
    set.release(a, '/root/a');
    // The runtime hands out ids of its own (here one equal to the id just freed): releasing
    // its subagent must not give that id to this set a second time.
    const given = set.create(root, input('/root/r'), 'subagent:0');
    expect(given.id).toBe('subagent:0');
    set.release(given, '/root/r');
    expect([set.create(root, input('/root/c')).id, set.create(root, input('/root/d')).id]).toEqual(['subagent:0', 'subagent:2']);
    root.stop();
  });

  it('release only the subagent held at that path', () => {
    const { root, input, set } = holder();
    const a = set.create(root, input('/root/a'));
    const b = set.create(root, input('/root/b'));
    set.release(a, '/root/b');
    expect(set.list()).toEqual([a, b]);
    set.release(root, '/root');
    set.release(a, '/root/a');
    set.release(a, '/root/a');
    expect(set.list()).toEqual([b]);
    expect(set.create(root, input('/root/c')).id).toBe('subagent:0');
    expect(set.create(root, input('/root/e')).id).toBe('subagent:2');
    root.stop();
  });

  it('cancel only the subagents still running, with the reason given', () => {
    const { set } = holder();
    const sent: string[] = [];
    const stub = (path: string, status: string) =>
      ({ getSnapshot: () => ({ status }), send: (event: { type: string; reason?: string }) => void sent.push(`${path} ${event.type} ${event.reason}`) }) as unknown as AnyActorRef;
    set.hold('/root/done', stub('/root/done', 'done'));
    set.hold('/root/live', stub('/root/live', 'active'));
    set.hold('/root/stopped', stub('/root/stopped', 'stopped'));
    set.cancelAll('the parent finished');
    expect(sent).toEqual(['/root/live cancel the parent finished']);
  });
});

describe('an agent holding subagents', () => {
  it('has no supervisor and knows no subagent until it spawns one', () => {
    const { root, input } = holder();
    expect(Object.keys(root.getSnapshot().children)).toEqual([]);
    expect(subagentsOf(root)).toEqual([]);
    expect(subagentOf(root, '/root/a')).toBeUndefined();
    expect(() => holdSubagent(root, '/root/r', root)).toThrow(/no subagent supervisor/);
    root.send({ type: 'subagent.spawn', input: input('/root/a') });
    expect(Object.keys(root.getSnapshot().children)).toEqual(['subagents']);
    expect(subagentsOf(root)).toEqual([subagentOf(root, '/root/a')]);
    root.stop();
  });

  it('holds an actor created elsewhere (a resumed subagent)', () => {
    const { root, input } = holder();
    root.send({ type: 'subagent.spawn', input: input('/root/a') });
    const resumed: AnyActorRef = createActor(agentMachine, { input: input('/root/r'), parent: root, id: 'subagent:9' });
    holdSubagent(root, '/root/r', resumed);
    expect(subagentOf(root, '/root/r')).toBe(resumed);
    releaseSubagent(resumed, '/root/r');
    expect(subagentsOf(root).map((c) => c.id)).toEqual(['subagent:0']);
    root.stop();
  });

  it('cancels real subagents with their own results, the reason as the error', () => {
    const { root, results, input } = holder();
    root.send({ type: 'subagent.spawn', input: input('/root/a') });
    cancelSubagents(root, 'no longer needed');
    expect(results.map((r) => [r.path, r.status, r.error])).toEqual([['/root/a', 'cancelled', 'no longer needed']]);
    expect(subagentsOf(root)).toEqual([]);
    root.stop();
  });

  it('cancels its subagents when it is stopped, through its supervisor', () => {
    const { root, results, input } = holder();
    root.send({ type: 'subagent.spawn', input: input('/root/a') });
    root.stop();
    expect(results.map((r) => [r.path, r.status, r.error])).toEqual([['/root/a', 'cancelled', 'its parent agent was stopped']]);
  });
});
