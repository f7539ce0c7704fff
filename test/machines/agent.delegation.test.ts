/**
 * Delegation inside the statechart, as an embedder drives it through `subagent-actors/machine`:
 * a `subagent.spawn` event makes the agent start a subagent as its own XState child (held
 * outside `children`), cancelling an agent cancels its subtree children first, and stopping
 * a parent actor does the same.
 */
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, type AnyActorRef } from 'xstate';
import { agentMachine, createAgentInput, subagentOf, subagentsOf, type SampleInput, type SampleOutput } from '../../machines/index.js';
import type { AgentResult } from '../../machines/agent.types.js';

/** A harness whose model never answers (so every agent stays working) and that records results in order. */
function harness() {
  const results: AgentResult[] = [];
  const aborted: string[] = [];
  const logic = agentMachine.provide({
    actors: {
      sampleModel: fromPromise<SampleOutput, SampleInput>(
        ({ input, signal }) =>
          new Promise<never>(() => {
            signal.addEventListener('abort', () => aborted.push(input.path));
          }),
      ),
    },
    actions: { releaseAndReport: (_, { result }) => void results.push(result) },
  });
  const spawn = (parent: AnyActorRef, path: string): AnyActorRef => {
    parent.send({ type: 'subagent.spawn', input: createAgentInput({ model: 'm', task: `work of ${path}`, path }) });
    return subagentOf(parent, path)!;
  };
  return { logic, results, aborted, spawn };
}

describe('delegation in the agent machine', () => {
  it('starts a subagent as an XState child of its parent, outside its snapshot children', () => {
    const { logic, spawn } = harness();
    const root = createActor(logic, { input: createAgentInput({ model: 'm' }) }).start();
    const child = spawn(root, '/root/a');
    expect(child._parent).toBe(root);
    expect(root.system.get('/root/a')).toBe(child);
    expect(JSON.stringify(child.getSnapshot().value)).toContain('sampling');
    expect(Object.keys(root.getSnapshot().children)).toEqual(['subagents']);
    expect(subagentsOf(root)).toEqual([child]);
    root.stop();
  });

  it('stopping a parent actor cancels its subtree children first, each with one result', () => {
    const { logic, results, aborted, spawn } = harness();
    const root = createActor(logic, { input: createAgentInput({ model: 'm' }) }).start();
    const a = spawn(root, '/root/a');
    spawn(a, '/root/a/x');
    spawn(a, '/root/a/y');
    spawn(root, '/root/b');
    root.stop();
    expect(results.map((r) => `${r.path} ${r.status}`)).toEqual([
      '/root/a/x cancelled',
      '/root/a/y cancelled',
      '/root/a cancelled',
      '/root/b cancelled',
    ]);
    expect(results.every((r) => r.stopReason === 'cancelled')).toBe(true);
    // Their model requests were aborted, and nothing is left running or held.
    expect(new Set(aborted)).toEqual(new Set(['/root/a', '/root/a/x', '/root/a/y', '/root/b']));
    expect(subagentsOf(root)).toEqual([]);
    expect(subagentsOf(a)).toEqual([]);
    expect(root.system.get('/root/a/x')).toBeUndefined();
  });

  it('cancel is a transition that cancels the subtree before the agent reports', () => {
    const { logic, results, spawn } = harness();
    const root = createActor(logic, { input: createAgentInput({ model: 'm' }) }).start();
    const a = spawn(root, '/root/a');
    spawn(a, '/root/a/x');
    a.send({ type: 'cancel', reason: 'no longer needed' });
    expect(results.map((r) => [r.path, r.error])).toEqual([
      ['/root/a/x', 'no longer needed'],
      ['/root/a', 'no longer needed'],
    ]);
    expect(subagentsOf(root)).toEqual([]);
    expect(root.getSnapshot().status).toBe('active');
    root.stop();
    expect(results).toHaveLength(2);
  });
});
