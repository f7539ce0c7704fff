/**
 * What an agent's one result says: the text and value it answered with, who it is, what it
 * cost, how long it ran, how much of its first request it inherited, and, when it did not
 * complete, a stop reason and an error a caller can act on.
 */
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { agentMachine, resultOf } from '../../machines/agent.machine.js';
import { createAgentInput } from '../../machines/agent.input.js';
import type { AgentContext, AgentInput, SampleInput, SampleOutput } from '../../machines/agent.types.js';
import { selectSnapshot } from '../../src/context/select.js';
import { Dialogue } from '../../src/dialogue/dialogue.js';
import { assistantEntry, userEntry } from '../../src/dialogue/entry.js';
import { requestBytesOf } from '../../src/request/prefix-reuse.js';
import { ZERO_USAGE } from '../../src/request/usage.js';
import { driveAgent } from './agent-driver.js';

/** A reply's reported usage: one request. */
const usage = (inputTokens: number, outputTokens: number) => ({ ...ZERO_USAGE, inputTokens, outputTokens, requests: 1 });
const worker = (extra: Parameters<typeof createAgentInput>[0] | object = {}): AgentInput =>
  createAgentInput({ model: 'm', task: 'count the files', path: '/root/w', ...extra });

describe('a completed result', () => {
  it('names the agent and carries its last text, turns and summed usage', async () => {
    const agent = driveAgent(worker({ role: 'counter', sessionId: 's-1', treeId: 't-1', startedAt: 0 }));
    await agent.reply({ text: 'Looking.', toolCalls: [{ name: 'lookup' }], usage: usage(10, 2) });
    await agent.answerTools();
    await agent.reply({ text: 'There are 3 files.', usage: usage(20, 3) });
    expect(agent.results).toHaveLength(1);
    const result = agent.results[0]!;
    expect(result).toMatchObject({
      text: 'There are 3 files.',
      path: '/root/w',
      role: 'counter',
      context: 'none',
      contextMode: 'none',
      status: 'completed',
      stopReason: 'completed',
      error: undefined,
      sessionId: 's-1',
      treeId: 't-1',
      turns: 1,
      usage: { ...ZERO_USAGE, inputTokens: 30, outputTokens: 5, requests: 2 },
      subtreeUsage: { ...ZERO_USAGE, inputTokens: 30, outputTokens: 5, requests: 2 },
    });
    expect(result).not.toHaveProperty('value');
    // Started at the epoch: it ran for as long as the clock says.
    expect(result.elapsedMs).toBeGreaterThan(1e12);
    expect(agent.actor.getSnapshot().output).toMatchObject({ text: 'There are 3 files.', status: 'completed', turns: 1 });
  });

  it('never reports a negative run time', async () => {
    const agent = driveAgent(worker({ startedAt: Date.now() + 1e9 }));
    await agent.reply({ text: 'done' });
    expect(agent.results[0]!.elapsedMs).toBe(0);
  });

  it('keeps the text of the turn when its last step called tools without saying anything', async () => {
    const agent = driveAgent(worker({ maxSteps: 2 }));
    await agent.reply({ text: 'Half way there.', toolCalls: [{ name: 'lookup' }] });
    await agent.answerTools();
    await agent.reply({ text: '', toolCalls: [{ name: 'lookup' }] });
    await agent.answerTools();
    expect(agent.results[0]).toMatchObject({ status: 'failed', stopReason: 'max_steps', text: 'Half way there.' });
  });

  it('reports an empty text when the first step said nothing', async () => {
    const agent = driveAgent(worker({ maxSteps: 1 }));
    await agent.reply({ text: '', toolCalls: [{ name: 'lookup' }] });
    await agent.answerTools();
    expect(agent.results[0]).toMatchObject({ stopReason: 'max_steps', text: '' });
  });

  it('carries a structured value only when the input asked for one, and the reply matched', async () => {
    const schema = { type: 'object' };
    const agent = driveAgent({ ...worker(), output: schema });
    await agent.reply({ text: '{"n":3}', output: { valid: true, value: { n: 3 } } });
    expect(agent.results[0]).toMatchObject({ status: 'completed', value: { n: 3 } });

    const plain = driveAgent(worker());
    await plain.reply({ text: '{"n":3}', output: { valid: true, value: { n: 3 } } });
    expect(plain.results[0]).not.toHaveProperty('value');
  });

  it('counts usage the runtime measured for a reply over what the reply reported', async () => {
    const agent = driveAgent(worker());
    await agent.reply({ response: { text: 'done', toolCalls: [], usage: usage(1, 1) }, compaction: undefined, usage: { ...usage(7, 4), requests: 3, retries: 2 } });
    expect(agent.results[0]!.usage).toEqual({ ...usage(7, 4), requests: 3, retries: 2 });
  });

  it('measures the first request it made, after the seeded dialogue, against what it inherited', async () => {
    const parent = Dialogue.of([userEntry({ text: 'question' }), assistantEntry({ text: 'an inherited answer that is long enough to matter' })]);
    const input = { ...worker({ snapshot: selectSnapshot(parent, 'all') }), prefix: { sharedBytes: 40, inheritedBytes: 50, reasons: [] } };
    const agent = driveAgent(input);
    await agent.reply({ text: 'Looking.', toolCalls: [{ name: 'lookup' }] });
    await agent.answerTools();
    await agent.reply({ text: 'done' });
    const first = agent.requests()[0]!;
    const sent = requestBytesOf(first, first.dialogue.log);
    expect(agent.results[0]!.prefix).toMatchObject({ sharedBytes: 40, inheritedBytes: 50, inputBytes: sent, reasons: [] });
    expect(sent).toBeGreaterThan(requestBytesOf(first, parent.log));
  });

  it('says no request was made when the agent never got an answer', () => {
    const agent = driveAgent(worker());
    agent.send({ type: 'cancel' });
    expect(agent.results[0]!.prefix).toMatchObject({ inputBytes: 0, reasons: ['no_request'] });
  });
});

describe('a result that did not complete', () => {
  it('a failed model request: failed, model_error, with the error text', async () => {
    const agent = driveAgent(worker());
    await agent.failModel(new Error('the provider is down'));
    expect(agent.results).toEqual([expect.objectContaining({ status: 'failed', stopReason: 'model_error', error: 'the provider is down' })]);
  });

  it('the step limit: failed, max_steps, saying how many requests it made', async () => {
    const agent = driveAgent(worker({ maxSteps: 2 }));
    await agent.reply({ toolCalls: [{ name: 'lookup' }] });
    await agent.answerTools();
    await agent.reply({ toolCalls: [{ name: 'lookup' }] });
    await agent.answerTools();
    expect(agent.results[0]).toMatchObject({ status: 'failed', stopReason: 'max_steps', error: 'stopped after 2 model requests in one turn (limit 2)' });
  });

  it('a crashed tool step: failed, internal_error, naming the agent, the actor and the error', async () => {
    const agent = driveAgent(worker());
    await agent.reply({ toolCalls: [{ name: 'lookup' }] });
    await agent.failToolStep(new Error('segfault'));
    expect(agent.results[0]).toMatchObject({ status: 'failed', stopReason: 'internal_error', error: 'internal error in /root/w: actor "tools" failed: segfault' });
  });

  it('an answer that still misses its schema after the repair request: failed, invalid_output', async () => {
    const agent = driveAgent({ ...worker(), output: { type: 'object' } });
    await agent.reply({ text: 'three', output: { valid: false, errors: 'must be object' } });
    expect(agent.results).toEqual([]);
    await agent.reply({ text: 'still three', output: { valid: false, errors: 'must still be object' } });
    expect(agent.results[0]).toMatchObject({
      status: 'failed',
      stopReason: 'invalid_output',
      error: 'the final answer did not match the output schema after one repair request: must still be object',
      text: 'still three',
    });
  });

  it('a denied task: cancelled, hook_denied, with the hook reason', async () => {
    const agent = driveAgent(worker({ taskHooks: true }));
    await agent.hooks({ allow: false, reason: 'not on a Sunday' });
    expect(agent.results).toEqual([expect.objectContaining({ status: 'cancelled', stopReason: 'hook_denied', error: 'not on a Sunday' })]);
  });

  it('a failing hook: cancelled, hook_failed, with its error', async () => {
    const agent = driveAgent(worker({ taskHooks: true }));
    await agent.failHooks(new Error('hook threw'));
    expect(agent.results).toEqual([expect.objectContaining({ status: 'cancelled', stopReason: 'hook_failed', error: 'hook threw' })]);
  });

  it('a failing summary: cancelled, summary_failed, with its error', async () => {
    const parent = Dialogue.of([userEntry({ text: 'q' }), assistantEntry({ text: 'a' })]);
    const agent = driveAgent(worker({ snapshot: selectSnapshot(parent, 'summary') }));
    await agent.failSummary(new Error('summarizer down'));
    expect(agent.results).toEqual([expect.objectContaining({ status: 'cancelled', stopReason: 'summary_failed', error: 'summarizer down', context: 'summary', contextMode: 'summary' })]);
  });

  it('a cancel: cancelled, with its reason as the error, or none', () => {
    const withReason = driveAgent(worker());
    withReason.send({ type: 'cancel', reason: 'not needed' });
    expect(withReason.results[0]).toMatchObject({ status: 'cancelled', stopReason: 'cancelled', error: 'not needed' });
    const without = driveAgent(worker());
    without.send({ type: 'cancel' });
    expect(without.results[0]).toMatchObject({ status: 'cancelled', stopReason: 'cancelled', error: undefined });
  });

  it('a close of an idle continuable agent: completed, closed, with the last turn text', async () => {
    const agent = driveAgent(worker({ lifetime: 'continuable' }));
    await agent.reply({ text: 'first turn done' });
    agent.send({ type: 'close' });
    expect(agent.results[0]).toMatchObject({ status: 'completed', stopReason: 'closed', text: 'first turn done', turns: 1 });
  });
});

describe('an actor the harness did not provide', () => {
  /** Runs `input` on the bare machine, with only the listed actors provided. */
  async function bare(input: AgentInput, actors: Parameters<typeof agentMachine.provide>[0]['actors'] = {}) {
    const actor = createActor(agentMachine.provide({ actors }), { input });
    const done = new Promise<void>((resolve) => actor.subscribe({ complete: () => resolve(), error: () => resolve() }));
    actor.start();
    await done;
    return actor.getSnapshot();
  }
  const calling = fromPromise<SampleOutput, SampleInput>(async () => ({ response: { text: '', toolCalls: [{ id: 'c1', name: 'lookup', arguments: {} }], usage: ZERO_USAGE }, compaction: undefined }));

  it('ends the agent with a result that names the missing actor', async () => {
    const missing = (name: string) => `agent machine: the runtime must provide the "${name}" actor`;
    expect((await bare(worker({ taskHooks: true }))).output).toMatchObject({ stopReason: 'hook_failed', error: missing('runTaskHooks') });
    expect((await bare(worker())).output).toMatchObject({ stopReason: 'model_error', error: missing('sampleModel') });
    expect((await bare(worker(), { sampleModel: calling })).output).toMatchObject({ stopReason: 'internal_error', error: `internal error in /root/w: actor "tools" failed: ${missing('runToolCalls')}` });
    const parent = Dialogue.of([userEntry({ text: 'q' }), assistantEntry({ text: 'a' })]);
    expect((await bare(worker({ snapshot: selectSnapshot(parent, 'summary') }))).output).toMatchObject({ stopReason: 'summary_failed', error: missing('generateSummary') });
  });
});

describe('resultOf', () => {
  /** A fresh agent's context (from the machine, not started), with `extra` over it. */
  const context = (extra: Partial<AgentContext>): AgentContext => {
    const fresh = createActor(agentMachine, { input: worker({ startedAt: 1_000 }) }).getSnapshot().context as AgentContext;
    return { ...fresh, status: undefined, stopReason: undefined, ...extra };
  };

  it('treats an agent that never ended as cancelled, and measures time from its start', () => {
    expect(resultOf(context({}), 1_500)).toMatchObject({ status: 'cancelled', stopReason: 'cancelled', elapsedMs: 500 });
  });

  it('gives a completed agent without a recorded stop reason the reason completed', () => {
    expect(resultOf(context({ status: 'completed' }), 1_000)).toMatchObject({ status: 'completed', stopReason: 'completed', elapsedMs: 0 });
    expect(resultOf(context({ status: 'failed', stopReason: 'model_error' }), 1_000)).toMatchObject({ status: 'failed', stopReason: 'model_error' });
  });
});
