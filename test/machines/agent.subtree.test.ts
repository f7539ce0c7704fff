/**
 * An agent that ends takes its live subagents with it, and each of their results says why:
 * the parent finished, was cancelled (with or without a reason), or its actor was stopped.
 */
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, type AnyActorRef } from 'xstate';
import { agentMachine, createAgentInput, subagentOf, type SampleInput, type SampleOutput } from '../../machines/index.js';
import type { AgentResult } from '../../machines/agent.types.js';
import { deferred, afterMicrotasks } from '../../src/testing/deferred.js';
import { ZERO_USAGE } from '../../src/request/usage.js';

/** A tree where `/root/a`'s model answers when the test says so, and every other model never does. */
function tree() {
  const results: AgentResult[] = [];
  const answerA = deferred<SampleOutput>();
  const logic = agentMachine.provide({
    actors: {
      sampleModel: fromPromise<SampleOutput, SampleInput>(({ input }) => (input.path === '/root/a' ? answerA.promise : new Promise<never>(() => {}))),
    },
    actions: { releaseAndReport: (_, { result }) => void results.push(result) },
  });
  const root = createActor(logic, { input: createAgentInput({ model: 'm' }) }).start();
  const spawn = (parent: AnyActorRef, path: string): AnyActorRef => {
    parent.send({ type: 'subagent.spawn', input: createAgentInput({ model: 'm', task: `work of ${path}`, path }) });
    return subagentOf(parent, path)!;
  };
  const errors = () => results.map((r) => `${r.path} ${r.status}: ${r.error ?? '-'}`);
  return { root, spawn, results, errors, answerA };
}

describe('an agent that ends', () => {
  it('completing, cancels its subagents because it finished, and reports after them', async () => {
    const t = tree();
    const a = t.spawn(t.root, '/root/a');
    t.spawn(a, '/root/a/x');
    t.answerA.resolve({ response: { text: 'a is done', toolCalls: [], usage: ZERO_USAGE }, compaction: undefined });
    await afterMicrotasks();
    expect(t.errors()).toEqual(['/root/a/x cancelled: /root/a finished', '/root/a completed: -']);
    t.root.stop();
  });

  it('cancelled without a reason, cancels its subagents saying so', () => {
    const t = tree();
    const a = t.spawn(t.root, '/root/a');
    t.spawn(a, '/root/a/x');
    a.send({ type: 'cancel' });
    expect(t.errors()).toEqual(['/root/a/x cancelled: /root/a was cancelled', '/root/a cancelled: -']);
    t.root.stop();
  });

  it('stopped as an actor, cancels its subagents because their parent was stopped', () => {
    const t = tree();
    const a = t.spawn(t.root, '/root/a');
    t.spawn(a, '/root/a/x');
    t.root.stop();
    expect(t.errors()).toEqual([
      '/root/a/x cancelled: its parent agent was stopped',
      '/root/a cancelled: its parent agent was stopped',
    ]);
  });
});
