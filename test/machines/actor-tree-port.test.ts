/**
 * The coordination port of an actor tree no runtime hosts (`delegatingAgent`): its directory is
 * the live actors, read from their snapshots and state meta, from any agent of the tree; a
 * cancellation names what it stops, children first, before the first one stops.
 */
import { describe, expect, it } from 'vitest';
import { createActor, setup, waitFor, type AnyActorRef } from 'xstate';
import { delegatingAgent, type ModelFunction } from '../../machines/index.js';
import { actorTreePort } from '../../machines/actor-tree-port.js';
import { EndedAgents } from '../../machines/ended-agents.js';
import { subagentsOf } from '../../machines/subagents.js';
import type { AgentContext, AgentEvent } from '../../machines/agent.types.js';
import type { StoppedAgent } from '../../machines/coordination.js';
import { ZERO_USAGE } from '../../src/request/usage.js';

/** A root delegating to /root/a, which delegates to /root/a/b, whose request never ends. */
async function threeDeep() {
  let deepest!: () => void;
  const reached = new Promise<void>((resolve) => (deepest = resolve));
  const model: ModelFunction = (request, signal) => {
    if (request.path === '/root/a/b') {
      deepest();
      return new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true }));
    }
    if (request.step > 0) return { text: `${request.path} done`, toolCalls: [], usage: ZERO_USAGE };
    const name = request.path === '/root' ? 'a' : 'b';
    return { text: '', toolCalls: [{ id: `spawn_${name}`, name: 'Agent', arguments: { task_name: name, message: `task ${name}`, ...(name === 'a' ? { role: 'planner' } : {}) } }], usage: ZERO_USAGE };
  };
  const agents = delegatingAgent({ model });
  const root = createActor(agents.logic, { input: agents.input({ task: 'Go deep', model: 'm' }) }).start();
  await reached;
  const at = (path: string): AnyActorRef => root.system.get(path) as AnyActorRef;
  return { root, at };
}

describe('actorTreePort', () => {
  it('lists the live tree from any agent of it, root first, and describes each agent from its snapshot', async () => {
    const { root, at } = await threeDeep();
    const sent: AgentEvent[] = [];
    const fromLeaf = actorTreePort(at('/root/a/b'), (e) => sent.push(e));
    expect([...fromLeaf.agents()].map((e) => e.path)).toEqual(['/root', '/root/a', '/root/a/b']);
    expect(fromLeaf.entry('/root/a')).toEqual({ path: '/root/a', role: 'planner', state: 'running.working.acting', context: 'none', lastTask: 'task a', addressable: true });
    expect(fromLeaf.entry('/root/a/b')).toMatchObject({ state: 'running.working.sampling', lastTask: 'task b', addressable: true });
    expect(fromLeaf.entry('/root')).toMatchObject({ lastTask: 'Go deep', role: undefined });
    expect(fromLeaf.entry('/root/nobody')).toBeUndefined();
    fromLeaf.deliver('/root/a/b', '/root/a', 'a note');
    expect(sent).toEqual([{ type: 'send_message', from: '/root/a/b', to: '/root/a', message: 'a note' }]);
    expect(fromLeaf.halted()).toBeUndefined();
    root.stop();
  });

  it('cancels a subtree children first, telling beforeCancel while every agent still runs, and ignores targets that are not live', async () => {
    const { root, at } = await threeDeep();
    const told: { target: string; stopped: readonly StoppedAgent[]; stillActive: string[] }[] = [];
    const port = actorTreePort(root, () => {}, {
      beforeCancel: (target, stopped) => told.push({ target, stopped, stillActive: stopped.filter((s) => at(s.path)?.getSnapshot().status === 'active').map((s) => s.path) }),
    });
    expect(port.cancel('/root/nobody', 'why')).toEqual([]);
    expect(() => port.close('/root/nobody')).not.toThrow();
    expect(told).toEqual([]);
    const a = at('/root/a');
    const b = at('/root/a/b');
    const stopped = port.cancel('/root/a', 'the person changed their mind');
    expect(stopped).toEqual([
      { path: '/root/a/b', state: 'running.working.sampling' },
      { path: '/root/a', state: 'running.working.acting' },
    ]);
    expect(told).toEqual([{ target: '/root/a', stopped, stillActive: ['/root/a/b', '/root/a'] }]);
    expect([a.getSnapshot().status, b.getSnapshot().status]).toEqual(['done', 'done']);
    expect((a.getSnapshot() as { output?: { error?: string } }).output?.error).toBe('the person changed their mind');
    // The cancelled agents are no longer in the directory.
    expect(port.entry('/root/a')).toBeUndefined();
    expect([...port.agents()].map((e) => e.path)).toEqual(['/root']);
    root.stop();
  });

  it('says how an agent that left the tree ended only from the record it is given', async () => {
    const { root } = await threeDeep();
    const endings = new EndedAgents();
    endings.record('/root/old', { status: 'completed', stopReason: 'closed' });
    expect(actorTreePort(root, () => {}, { endings }).ended('/root/old')).toEqual({ status: 'completed', stopReason: 'closed' });
    expect(actorTreePort(root, () => {}).ended('/root/old')).toBeUndefined();
    root.stop();
  });
});

describe('actorTreePort in a harness’s own machine', () => {
  it('lists from a root that the harness’s machine invokes as its child, and stops at that root', async () => {
    const model: ModelFunction = (request) => {
      if (request.path === '/root/helper') return { text: 'helping', toolCalls: [], usage: ZERO_USAGE };
      if (request.step === 0) return { text: '', toolCalls: [{ id: 's1', name: 'Agent', arguments: { task_name: 'helper', message: 'Help', context: 'all' } }], usage: ZERO_USAGE };
      if (request.step === 1) return { text: '', toolCalls: [{ id: 'l1', name: 'list_agents', arguments: {} }], usage: ZERO_USAGE };
      return { text: 'listed', toolCalls: [], usage: ZERO_USAGE };
    };
    const agents = delegatingAgent({ model });
    const harness = setup({ actors: { agent: agents.logic } }).createMachine({
      initial: 'running',
      states: {
        running: { invoke: { src: 'agent', id: 'root', input: agents.input({ task: 'Work', model: 'm' }), onDone: 'done' } },
        done: { type: 'final' },
      },
    });
    const host = createActor(harness).start();
    const root = host.getSnapshot().children['root'] as AnyActorRef;
    await waitFor(host, (s) => s.status === 'done');
    const listing = (root.getSnapshot().context as AgentContext).dialogue.log.toArray().find((e) => e.kind === 'tool_result' && e.callId === 'l1');
    expect(listing?.kind === 'tool_result' ? listing.content : undefined).toBe('{"agents":[{"agent_id":"/root/helper","context":"all","last_task":"Help","role":null,"state":"running.idle"}]}');
  });
});

describe('delegatingAgent’s subagent set', () => {
  it('lets a settled subagent go from its parent’s set', async () => {
    const model: ModelFunction = (request) =>
      request.path === '/root' && request.step === 0
        ? { text: '', toolCalls: [{ id: 's1', name: 'Agent', arguments: { task_name: 'quick', message: 'Be quick' } }], usage: ZERO_USAGE }
        : { text: 'done', toolCalls: [], usage: ZERO_USAGE };
    const agents = delegatingAgent({ model });
    const root = createActor(agents.logic, { input: agents.input({ model: 'm' }) }).start();
    root.send({ type: 'inbox', item: { text: 'Go', origin: { kind: 'person' } } });
    await waitFor(root, (s) => s.matches({ running: 'idle' }) && s.context.lastText === 'done');
    expect(subagentsOf(root)).toEqual([]);
    root.stop();
  });
});
