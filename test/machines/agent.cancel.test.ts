/**
 * Cancellation of the agent machine: `cancel` is taken in every non-final state some path
 * reaches, and whatever an actor produces after the cancel is dropped (no entry written, no
 * action run, no actor spawned).
 */
import { describe, expect, it } from 'vitest';
import { createActor, type InspectionEvent } from 'xstate';
import { agentMachine } from '../../machines/agent.machine.js';
import type { AgentContext } from '../../machines/agent.types.js';
import { replyOutput } from '../../src/testing/agent-events.js';
import { agentPaths } from '../../src/testing/agent-paths.js';
import { agentScenarios } from '../../src/testing/agent-scenarios.js';
import { agentStateKey } from '../../src/testing/agent-state.js';
import { afterMicrotasks } from '../../src/testing/deferred.js';
import { StandIns } from '../../src/testing/stand-ins.js';
import { ZERO_USAGE } from '../../src/model/adapter.js';
import { standInActors } from './agent-driver.js';

describe('cancel in every state', () => {
  const paths = agentPaths();
  const scenarios = [...new Set(paths.map((p) => p.scenario))];

  it.each(scenarios)('%s: some path cancels in every non-final state it reaches', (scenario) => {
    const mine = paths.filter((p) => p.scenario === scenario);
    const active = new Set(mine.flatMap((p) => p.steps.map((s) => s.expected)).filter((k) => !k.startsWith('settled') && !k.startsWith('cancelled')));
    const cancelledFrom = new Set(
      mine.filter((p) => p.steps.at(-1)?.label === 'cancel').map((p) => p.steps.at(-2)!.expected),
    );
    expect(active.size).toBeGreaterThan(0);
    expect([...active].filter((k) => !cancelledFrom.has(k))).toEqual([]);
    for (const p of mine.filter((p) => p.steps.at(-1)?.label === 'cancel')) expect(p.steps.at(-1)!.expected).toBe('cancelled (cancelled: cancelled)');
  });
});

/** Starts a subagent on stand-ins and records what its root actor does. */
function startAgent(scenarioName: string) {
  const scenario = agentScenarios().find((s) => s.name === scenarioName)!;
  const standIns = new StandIns();
  const logic = agentMachine.provide({ actors: standInActors(standIns) });
  const seen: InspectionEvent[] = [];
  const actor = createActor(logic, { input: scenario.input, inspect: (e) => void (e.actorRef.sessionId === e.rootId && seen.push(e)) });
  actor.start();
  const context = () => actor.getSnapshot().context as AgentContext;
  return { actor, standIns, seen, context, key: () => agentStateKey(actor.getSnapshot()) };
}

/** Waits for the agent's next snapshot (no sleeping: resolves on the snapshot itself). */
function nextSnapshot(actor: ReturnType<typeof startAgent>['actor']): Promise<void> {
  return new Promise((resolve) => {
    const sub = actor.subscribe(() => {
      sub.unsubscribe();
      resolve();
    });
  });
}

describe('late results after cancel are dropped', () => {
  it('a model reply resolved after cancel writes no entry and spawns no tool', async () => {
    const agent = startAgent('subagent, no hooks, none, one-shot');
    expect(agent.key()).toBe('running.working.sampling');
    const model = agent.standIns.pending('model')!;
    const length = agent.context().dialogue.length;
    agent.actor.send({ type: 'cancel', reason: 'test' });
    expect(agent.key()).toBe('cancelled (cancelled: cancelled)');
    expect(model.signal.aborted).toBe(true);
    const seenAtCancel = agent.seen.length;
    model.result.resolve(replyOutput({ text: 'late', toolCalls: [{ name: 'lookup' }] }, { turnsCompleted: 0, step: 0 }));
    await afterMicrotasks();
    expect(agent.seen.length).toBe(seenAtCancel);
    expect(agent.context().dialogue.length).toBe(length);
    expect(agent.standIns.children).toEqual([]);
  });

  it('a summary resolved after cancel writes no background and starts no model request', async () => {
    const agent = startAgent('subagent, no hooks, summary, one-shot');
    expect(agent.key()).toBe('preparingSummary');
    const summary = agent.standIns.pending('summary')!;
    agent.actor.send({ type: 'cancel' });
    expect(summary.signal.aborted).toBe(true);
    const seenAtCancel = agent.seen.length;
    summary.result.resolve({ text: 'late background', usage: ZERO_USAGE });
    await afterMicrotasks();
    expect(agent.seen.length).toBe(seenAtCancel);
    expect(agent.context().background).toBeUndefined();
    expect(agent.context().dialogue.length).toBe(0);
    expect(agent.standIns.invocations.map((i) => i.id)).toEqual(['summary']);
  });

  it('a hook outcome resolved after cancel neither accepts the task nor routes', async () => {
    const agent = startAgent('subagent, hooks, fork, one-shot');
    expect(agent.key()).toBe('reserved.runningHooks');
    const hooks = agent.standIns.pending('hooks')!;
    agent.actor.send({ type: 'cancel' });
    const seenAtCancel = agent.seen.length;
    hooks.result.resolve({ allow: true, task: 'late' });
    await afterMicrotasks();
    expect(agent.seen.length).toBe(seenAtCancel);
    expect(agent.context().acceptedTask).toBeNull();
    expect(agent.standIns.invocations.map((i) => i.id)).toEqual(['hooks']);
  });

  it('a tool result sent after cancel writes no tool-result entry', async () => {
    const agent = startAgent('subagent, no hooks, none, one-shot');
    const replied = nextSnapshot(agent.actor);
    agent.standIns.pending('model')!.result.resolve(replyOutput({ text: '', toolCalls: [{ name: 'lookup' }] }, { turnsCompleted: 0, step: 0 }));
    await replied;
    expect(agent.key()).toBe('running.working.acting awaiting=1');
    const tool = agent.standIns.children[0]!;
    const length = agent.context().dialogue.length;
    agent.actor.send({ type: 'cancel' });
    expect(tool.stopped).toBe(true);
    const seenAtCancel = agent.seen.length;
    tool.sendBack({ type: 'tool.result', callId: agent.context().dialogue.pendingCalls()[0]!.id, toolName: 'lookup', content: 'late', isError: false } as never);
    await afterMicrotasks();
    expect(agent.seen.length).toBe(seenAtCancel);
    expect(agent.context().dialogue.length).toBe(length);
  });

  it('a tool result for an unknown call, or a second one for an answered call, changes nothing', async () => {
    const agent = startAgent('subagent, no hooks, none, one-shot');
    const replied = nextSnapshot(agent.actor);
    agent.standIns.pending('model')!.result.resolve(replyOutput({ text: '', toolCalls: [{ name: 'lookup' }, { name: 'lookup' }] }, { turnsCompleted: 0, step: 0 }));
    await replied;
    const [first] = agent.context().dialogue.pendingCalls();
    const result = (callId: string) => ({ type: 'tool.result', callId, toolName: 'lookup', content: 'x', isError: false }) as const;
    agent.actor.send(result(first!.id));
    const length = agent.context().dialogue.length;
    agent.actor.send(result('no-such-call'));
    agent.actor.send(result(first!.id));
    expect(agent.context().dialogue.length).toBe(length);
    expect(agent.key()).toBe('running.working.acting awaiting=1');
  });

  it('reports exactly once when cancelled, with the cancel reason', () => {
    const agent = startAgent('subagent, no hooks, none, one-shot');
    agent.actor.send({ type: 'cancel', reason: 'stop now' });
    const reports = agent.seen.filter((e) => e.type === '@xstate.action' && e.action.type === 'releaseAndReport');
    expect(reports).toHaveLength(1);
    expect(agent.actor.getSnapshot().output).toMatchObject({ status: 'cancelled', stopReason: 'cancelled', error: 'stop now' });
  });
});
