/**
 * One reply's tool calls run as one step actor: every call starts at once, results join the
 * dialogue in call order (each as soon as the calls before it have theirs), leaving the step (all results in, or a cancel) stops the actor and
 * aborts whatever still runs, and no tool actor is left in the agent's snapshot.
 */
import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { agentMachine, INTERRUPTED_CALL_TEXT } from '../../machines/agent.machine.js';
import type { AgentContext, ToolInput, ToolOutcome } from '../../machines/agent.types.js';
import { toolStepLogic } from '../../machines/tool-step.js';
import { replyOutput } from '../../src/testing/agent-events.js';
import { agentScenarios } from '../../src/testing/agent-scenarios.js';
import { agentStateKey } from '../../src/testing/agent-state.js';
import { afterMicrotasks, deferred, type Deferred } from '../../src/testing/deferred.js';
import { StandIns } from '../../src/testing/stand-ins.js';

/** A subagent whose model is a stand-in and whose tools are the given per-call executor. */
function startAgent(execute: (input: ToolInput, signal: AbortSignal) => ToolOutcome | Promise<ToolOutcome>, lifetime: 'one-shot' | 'continuable' = 'one-shot') {
  const scenario = agentScenarios().find((s) => s.name === `subagent, no hooks, none, ${lifetime}`)!;
  const standIns = new StandIns();
  const logic = agentMachine.provide({
    actors: {
      sampleModel: standIns.promise('sampleModel'),
      runToolCalls: toolStepLogic(execute),
    } as never,
  });
  const actor = createActor(logic, { input: scenario.input }).start();
  const context = () => actor.getSnapshot().context as AgentContext;
  // Every agent also invokes its subagent supervisor for its whole life; the step actors are the rest.
  const children = () => Object.keys(actor.getSnapshot().children).filter((id) => id !== 'subagents');
  const reply = async (calls: number) => {
    const toolCalls = Array.from({ length: calls }, () => ({ name: 'lookup' }));
    standIns.pending('model')!.result.resolve(replyOutput({ text: '', toolCalls }, { turnsCompleted: context().turnsCompleted, step: context().step }));
    await afterMicrotasks();
  };
  return { actor, standIns, context, children, reply, key: () => agentStateKey(actor.getSnapshot()) };
}

/** An executor whose calls each wait for the test, recording their signals. */
function heldCalls() {
  const calls = new Map<string, { done: Deferred<ToolOutcome>; signal: AbortSignal }>();
  const execute = (input: ToolInput, signal: AbortSignal) => {
    const done = deferred<ToolOutcome>();
    calls.set(input.call.id, { done, signal });
    return done.promise;
  };
  return { calls, execute };
}

describe('the tool step', () => {
  it('holds one actor however many calls the reply makes, and none once the step ends', async () => {
    const held = heldCalls();
    const agent = startAgent(held.execute);
    await agent.reply(50);
    expect(held.calls.size).toBe(50);
    expect(agent.key()).toBe('running.working.acting awaiting=50');
    expect(agent.children()).toEqual(['tools']);
    for (const { done } of held.calls.values()) done.resolve({ content: 'ok', isError: false });
    await afterMicrotasks();
    expect(agent.key()).toBe('running.working.sampling');
    expect(agent.children()).toEqual(['model']);
  });

  it('writes results in call order, each as soon as every earlier call has its own', async () => {
    const held = heldCalls();
    const agent = startAgent(held.execute);
    await agent.reply(3);
    const ids = [...held.calls.keys()];
    const results = () => agent.context().dialogue.log.toArray().flatMap((e) => (e.kind === 'tool_result' ? [[e.callId, e.content, e.isError]] : []));
    held.calls.get(ids[2]!)!.done.resolve({ content: 'third', isError: false });
    await afterMicrotasks();
    // The third call is answered (no second result is taken) but waits for the first two.
    expect(agent.context().dialogue.isPendingCall(ids[2]!)).toBe(false);
    expect(agent.context().dialogue.resultOf(ids[2]!)).toMatchObject({ content: 'third' });
    expect(agent.context().dialogue.isPendingCall(ids[0]!)).toBe(true);
    expect(results()).toEqual([]);
    held.calls.get(ids[0]!)!.done.resolve({ content: 'first', isError: true });
    await afterMicrotasks();
    expect(results()).toEqual([[ids[0], 'first', true]]);
    held.calls.get(ids[1]!)!.done.resolve({ content: 'second', isError: false });
    await afterMicrotasks();
    expect(results()).toEqual([
      [ids[0], 'first', true],
      [ids[1], 'second', false],
      [ids[2], 'third', false],
    ]);
    expect(agent.key()).toBe('running.working.sampling');
  });

  it('writes a finished result in its place when the turn is interrupted before an earlier call finished', async () => {
    const held = heldCalls();
    const agent = startAgent(held.execute, 'continuable');
    await agent.reply(3);
    const ids = [...held.calls.keys()];
    held.calls.get(ids[1]!)!.done.resolve({ content: 'second', isError: false });
    await afterMicrotasks();
    agent.actor.send({ type: 'interrupt' });
    const results = agent.context().dialogue.log.toArray().flatMap((e) => (e.kind === 'tool_result' ? [[e.callId, e.content]] : []));
    expect(results).toEqual([
      [ids[0], INTERRUPTED_CALL_TEXT],
      [ids[1], 'second'],
      [ids[2], INTERRUPTED_CALL_TEXT],
    ]);
  });

  it('cancel aborts every pending call, and their late results write nothing', async () => {
    const held = heldCalls();
    const agent = startAgent(held.execute);
    await agent.reply(4);
    const ids = [...held.calls.keys()];
    held.calls.get(ids[1]!)!.done.resolve({ content: 'in time', isError: false });
    await afterMicrotasks();
    agent.actor.send({ type: 'cancel' });
    expect([...held.calls.values()].map((c) => c.signal.aborted)).toEqual([true, true, true, true]);
    expect(agent.children()).toEqual([]);
    const length = agent.context().dialogue.length;
    for (const { done } of held.calls.values()) done.resolve({ content: 'late', isError: false });
    await afterMicrotasks();
    expect(agent.context().dialogue.length).toBe(length);
    expect(agent.actor.getSnapshot().status).toBe('done');
  });

  it('lets every call of a wide step listen for the abort without a leak warning', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => void warnings.push(warning.name);
    process.on('warning', onWarning);
    try {
      const held = heldCalls();
      const agent = startAgent((input, signal) => {
        signal.addEventListener('abort', () => undefined, { once: true });
        return held.execute(input, signal);
      });
      await agent.reply(40);
      agent.actor.send({ type: 'cancel' });
      await afterMicrotasks();
      await new Promise<void>((resolve) => setImmediate(resolve));
      expect(held.calls.size).toBe(40);
      expect(warnings).not.toContain('MaxListenersExceededWarning');
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('turns a throwing or rejecting call into an error result, and keeps the others', async () => {
    let n = 0;
    const agent = startAgent(() => {
      n++;
      if (n === 1) throw new Error('boom');
      if (n === 2) return Promise.reject(new Error('late boom'));
      return { content: 'fine', isError: false };
    });
    await agent.reply(3);
    const results = agent.context().dialogue.log.toArray().filter((e) => e.kind === 'tool_result');
    const byCall = Object.fromEntries(results.map((e) => (e.kind === 'tool_result' ? [e.callId, [e.content, e.isError]] : [])));
    expect(byCall).toEqual({
      call_t0_s0_0: ['Error: boom', true],
      call_t0_s0_1: ['Error: late boom', true],
      call_t0_s0_2: ['fine', false],
    });
    expect(agent.key()).toBe('running.working.sampling');
  });

  it('turns an outcome that is not { content, isError } into an error result naming it', async () => {
    const outcomes: unknown[] = [null, 'plain text', { content: 5, isError: false }, { content: 'kept', isError: 'yes' }, { answeredBy: 7 }, undefined];
    let n = 0;
    const agent = startAgent(() => outcomes[n++] as ToolOutcome);
    await agent.reply(outcomes.length);
    const results = agent.context().dialogue.log.toArray().flatMap((e) => (e.kind === 'tool_result' ? [[e.content, e.isError]] : []));
    expect(results).toEqual([
      ['Error: the tool executor returned null instead of { content, isError }', true],
      ['Error: the tool executor returned plain text instead of { content, isError }', true],
      ['Error: the tool executor returned {"content":5,"isError":false} instead of { content, isError }', true],
      // A content string is kept; anything but `true` is not an error.
      ['kept', false],
      ['Error: the tool executor returned {"answeredBy":7} instead of { content, isError }', true],
      ['Error: the tool executor returned undefined instead of { content, isError }', true],
    ]);
    expect(agent.key()).toBe('running.working.sampling');
  });
});
