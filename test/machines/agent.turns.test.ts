/**
 * The turn reports of an agent that stays open (a continuable subagent, or the root): one per
 * turn, numbered, saying what opened the turn, how it ended and what it cost, and the agent is
 * idle and usable afterwards.
 */
import { describe, expect, it } from 'vitest';
import { INTERRUPTED_CALL_TEXT } from '../../machines/agent.machine.js';
import { createAgentInput } from '../../machines/agent.input.js';
import type { AgentInput } from '../../machines/agent.types.js';
import { ZERO_USAGE } from '../../src/request/usage.js';
import { driveAgent } from './agent-driver.js';

const usage = (inputTokens: number) => ({ ...ZERO_USAGE, inputTokens, requests: 1 });
const continuable = (extra: object = {}): AgentInput => createAgentInput({ model: 'm', task: 'first task', path: '/root/w', lifetime: 'continuable', ...extra });
const item = (text: string) => ({ text, origin: { kind: 'message' as const, from: '/root' } });

describe('turn reports', () => {
  it('reports each turn with its number, opener, text and the usage so far, then waits', async () => {
    const agent = driveAgent(continuable());
    await agent.reply({ text: 'first answer', usage: usage(10) });
    expect(agent.key()).toBe('running.idle');
    expect(agent.turns).toEqual([
      {
        path: '/root/w',
        turn: 0,
        text: 'first answer',
        openedBy: { kind: 'task', from: '/root' },
        status: 'completed',
        stopReason: 'completed',
        usage: { ...usage(10) },
        subtreeUsage: { ...usage(10) },
      },
    ]);
    expect(Object.keys(agent.turns[0]!)).not.toContain('error');
    expect(Object.keys(agent.turns[0]!)).not.toContain('value');

    agent.send({ type: 'inbox', item: item('second task') });
    await agent.reply({ text: 'second answer', usage: usage(5) });
    expect(agent.turns[1]).toEqual({
      path: '/root/w',
      turn: 1,
      text: 'second answer',
      openedBy: { kind: 'message', from: '/root' },
      status: 'completed',
      stopReason: 'completed',
      usage: { ...usage(15), requests: 2 },
      subtreeUsage: { ...usage(15), requests: 2 },
    });
    expect(agent.results).toEqual([]);
  });

  it('a message addressed to the idle agent opens a turn opened by its sender', async () => {
    const agent = driveAgent(continuable());
    await agent.reply({ text: 'first answer' });
    agent.send({ type: 'send_message', from: '/root/peer', to: '/root/w', message: 'hello' });
    await agent.reply({ text: 'hi back' });
    expect(agent.turns[1]).toMatchObject({ turn: 1, openedBy: { kind: 'message', from: '/root/peer' }, text: 'hi back' });
  });

  it('a message addressed to someone else does not open a turn', async () => {
    const agent = driveAgent(continuable());
    await agent.reply({ text: 'first answer' });
    agent.send({ type: 'send_message', from: '/root/peer', to: '/root/other', message: 'not for you' });
    expect(agent.key()).toBe('running.idle');
    expect(agent.requests()).toHaveLength(1);
  });

  it('carries a structured value when the input asked for one', async () => {
    const agent = driveAgent({ ...continuable(), output: { type: 'object' } });
    await agent.reply({ text: '{}', output: { valid: true, value: { ok: true } } });
    expect(agent.turns[0]).toMatchObject({ status: 'completed', value: { ok: true } });
  });

  it('carries no value when the input asked for none, whatever the reply checked', async () => {
    const agent = driveAgent(continuable());
    await agent.reply({ text: '{}', output: { valid: true, value: { ok: true } } });
    expect(Object.keys(agent.turns[0]!)).not.toContain('value');
  });

  it('ends the agent, failed, when an answer still misses its schema after the repair request', async () => {
    const agent = driveAgent({ ...continuable(), output: { type: 'object' } });
    await agent.reply({ text: 'nope', output: { valid: false, errors: 'must be object' } });
    await agent.reply({ text: 'still nope', output: { valid: false, errors: 'must be object' } });
    expect(agent.turns).toEqual([]);
    expect(agent.results).toEqual([expect.objectContaining({ status: 'failed', stopReason: 'invalid_output', text: 'still nope', turns: 1 })]);
  });

  it('a turn that uses its step limit ends max_steps, saying so, and the next turn starts counting afresh', async () => {
    const agent = driveAgent(continuable({ maxSteps: 1 }));
    await agent.reply({ text: 'calling', toolCalls: [{ name: 'lookup' }] });
    await agent.answerTools();
    expect(agent.key()).toBe('running.idle step=0/1');
    expect(agent.turns[0]).toMatchObject({ turn: 0, text: 'calling', status: 'max_steps', stopReason: 'max_steps', error: 'stopped after 1 model requests in one turn (limit 1)' });
    agent.send({ type: 'inbox', item: item('again') });
    expect(agent.requests().map((r) => [r.turn, r.step])).toEqual([
      [0, 0],
      [1, 0],
    ]);
    await agent.reply({ text: 'done' });
    expect(agent.turns[1]).toMatchObject({ turn: 1, status: 'completed' });
  });

  it('an item that arrives during the last allowed request still joins the dialogue when the turn ends at the limit', async () => {
    const agent = driveAgent(continuable({ maxSteps: 1 }));
    agent.send({ type: 'inbox', item: item('late addition') });
    await agent.reply({ text: 'my only answer' });
    expect(agent.turns[0]).toMatchObject({ status: 'max_steps', stopReason: 'max_steps', error: 'stopped after 1 model requests in one turn (limit 1)', text: 'my only answer' });
    expect(agent.entries().at(-1)).toMatchObject({ kind: 'user', text: 'late addition', opensTurn: false });
    expect(agent.context().inbox).toBeNull();
    expect(agent.key()).toBe('running.idle step=0/1');
  });

  it('a failed model request ends the root turn, not the root', async () => {
    const agent = driveAgent(createAgentInput({ model: 'm' }));
    agent.send({ type: 'inbox', item: { text: 'hello', origin: { kind: 'person' } } });
    agent.send({ type: 'inbox', item: item('queued meanwhile') });
    await agent.failModel(new Error('rate limited'));
    expect(agent.turns).toEqual([expect.objectContaining({ path: '/root', turn: 0, status: 'failed', stopReason: 'model_error', error: 'rate limited', openedBy: { kind: 'person' } })]);
    expect(agent.key()).toBe('running.idle');
    expect(agent.entries().at(-1)).toMatchObject({ kind: 'user', text: 'queued meanwhile' });
    agent.send({ type: 'inbox', item: item('try again') });
    expect(agent.requests().at(-1)).toMatchObject({ turn: 1, step: 0 });
  });
});

describe('interrupting a turn', () => {
  it('ends the pending calls with an error result each, keeps queued items, and reports the turn cancelled', async () => {
    const agent = driveAgent(continuable());
    await agent.reply({ text: 'calling two', toolCalls: [{ name: 'a' }, { name: 'b' }] });
    const [first] = agent.context().dialogue.pendingCalls();
    agent.send({ type: 'tool.result', callId: first!.id, toolName: 'a', content: 'a done', isError: false });
    agent.send({ type: 'inbox', item: item('meanwhile') });
    agent.send({ type: 'interrupt', reason: 'the user pressed stop' });
    expect(agent.key()).toBe('running.idle');
    expect(agent.turns).toEqual([expect.objectContaining({ turn: 0, status: 'cancelled', stopReason: 'cancelled', error: 'the user pressed stop', text: 'calling two' })]);
    const tail = agent.entries().slice(-3);
    expect(tail).toMatchObject([
      { kind: 'tool_result', callId: first!.id, content: 'a done', isError: false },
      { kind: 'tool_result', toolName: 'b', content: INTERRUPTED_CALL_TEXT, isError: true },
      { kind: 'user', text: 'meanwhile', opensTurn: false },
    ]);
    expect(agent.context().dialogue.hasPendingCalls()).toBe(false);
    expect(agent.standIns.children.every((c) => c.stopped)).toBe(true);
  });

  it('reports an interrupt without a reason without an error', async () => {
    const agent = driveAgent(continuable());
    agent.send({ type: 'interrupt' });
    expect(agent.turns).toEqual([expect.objectContaining({ status: 'cancelled' })]);
    expect(agent.turns[0]).not.toHaveProperty('error');
    expect(agent.standIns.invocations[0]!.signal.aborted).toBe(true);
  });

  it('is not taken by a one-shot agent (its host cancels it instead)', async () => {
    const agent = driveAgent(createAgentInput({ model: 'm', task: 't', path: '/root/w' }));
    agent.send({ type: 'interrupt', reason: 'stop' });
    expect(agent.turns).toEqual([]);
    expect(agent.key()).toBe('running.working.sampling');
    agent.send({ type: 'cancel', reason: 'stop' });
    expect(agent.results).toEqual([expect.objectContaining({ status: 'cancelled' })]);
  });
});
