/**
 * What an agent writes into its dialogue, and so what its next model request carries: the
 * seeded context, background and task; inbox items and messages, in arrival order; replies
 * with their compaction and reasoning; tool results; the one repair request; compactions.
 */
import { describe, expect, it } from 'vitest';
import { createAgentInput } from '../../machines/agent.input.js';
import type { AgentInput } from '../../machines/agent.types.js';
import { selectSnapshot } from '../../src/context/select.js';
import { Dialogue } from '../../src/dialogue/dialogue.js';
import { assistantEntry, compactionEntry, userEntry } from '../../src/dialogue/entry.js';
import { outputInstruction, repairInstruction } from '../../src/request/output-schema.js';
import { ZERO_USAGE } from '../../src/request/usage.js';
import { driveAgent } from './agent-driver.js';

const parent = () => Dialogue.of([userEntry({ text: 'What does the module do?' }), assistantEntry({ text: 'It parses specs.' })]);
const worker = (extra: object = {}): AgentInput => createAgentInput({ model: 'm', task: 'Find the parser.', path: '/root/w', ...extra });
const item = (text: string, from = '/root') => ({ text, origin: { kind: 'message' as const, from } });

describe('seeding', () => {
  it('opens the first turn with the task, from the parent', () => {
    const agent = driveAgent(worker());
    expect(agent.entries()).toEqual([expect.objectContaining({ kind: 'user', text: 'Find the parser.', origin: { kind: 'task', from: '/root' }, opensTurn: true, attachments: [] })]);
    expect(agent.requests()).toHaveLength(1);
    expect(agent.requests()[0]!.dialogue.length).toBe(1);
  });

  it('names a root agent itself as the task sender', () => {
    const agent = driveAgent(createAgentInput({ model: 'm', task: 'Start.', lifetime: 'continuable' }));
    expect(agent.entries()[0]).toMatchObject({ origin: { kind: 'task', from: '/root' } });
  });

  it('copies the inherited entries first, then the task', () => {
    const agent = driveAgent(worker({ snapshot: selectSnapshot(parent(), 'all') }));
    expect(agent.entries().map((e) => e.kind)).toEqual(['user', 'assistant', 'user']);
    expect(agent.context().dialogue.seedLength).toBe(2);
    expect(agent.entries()[2]).toMatchObject({ origin: { kind: 'task', from: '/root' }, opensTurn: true });
  });

  it('puts a generated background before the task; the background opens the turn', async () => {
    const agent = driveAgent(worker({ snapshot: selectSnapshot(parent(), 'summary') }));
    expect(agent.summaryInputs()).toEqual([{ path: '/root/w', task: 'Find the parser.', snapshot: agent.context().input.snapshot }]);
    expect(agent.requests()).toEqual([]);
    await agent.summary('Background: it parses specs.', { ...ZERO_USAGE, inputTokens: 12, outputTokens: 3, requests: 1 });
    expect(agent.entries()).toMatchObject([
      { kind: 'user', text: 'Background: it parses specs.', origin: { kind: 'background', from: '/root' }, opensTurn: true },
      { kind: 'user', origin: { kind: 'task', from: '/root' }, opensTurn: false },
    ]);
    expect(agent.context().background).toBe('Background: it parses specs.');
    // The summary was paid for: it counts in the agent's usage.
    await agent.reply({ text: 'done' });
    expect(agent.results[0]!.usage).toMatchObject({ inputTokens: 12, outputTokens: 3, requests: 1 });
  });

  it('uses the task as the hooks rewrote it, and hands the hooks what they vet', async () => {
    const agent = driveAgent(worker({ taskHooks: true, role: 'finder', snapshot: selectSnapshot(parent(), { turns: 1 }) }));
    expect(agent.hookInputs()).toEqual([{ path: '/root/w', parentPath: '/root', role: 'finder', task: 'Find the parser.', context: '1' }]);
    await agent.hooks({ allow: true, task: 'Find the parser, quickly.' });
    expect(agent.context().acceptedTask).toBe('Find the parser, quickly.');
    expect(agent.entries().at(-1)).toMatchObject({ text: 'Find the parser, quickly.', origin: { kind: 'task' } });
  });

  it('keeps the task when the hooks allow it unchanged', async () => {
    const agent = driveAgent(worker({ taskHooks: true }));
    await agent.hooks({ allow: true });
    expect(agent.entries().at(-1)).toMatchObject({ text: 'Find the parser.' });
  });

  it('hands a rewritten task to the summary', async () => {
    const agent = driveAgent(worker({ taskHooks: true, snapshot: selectSnapshot(parent(), 'summary') }));
    await agent.hooks({ allow: true, task: 'Rewritten.' });
    expect(agent.summaryInputs()[0]).toMatchObject({ task: 'Rewritten.' });
    await agent.summary('bg');
    expect(agent.entries().at(-1)).toMatchObject({ text: 'Rewritten.', opensTurn: false });
  });

  it('summarizes for the original task when the hooks allow it unchanged', async () => {
    const agent = driveAgent(worker({ taskHooks: true, snapshot: selectSnapshot(parent(), 'summary') }));
    await agent.hooks({ allow: true });
    expect(agent.summaryInputs()[0]).toMatchObject({ task: 'Find the parser.' });
  });

  it('asks for the output schema with the task, never in the inherited head', () => {
    const schema = { type: 'object', properties: { n: { type: 'number' } } };
    const agent = driveAgent({ ...worker({ snapshot: selectSnapshot(parent(), 'all') }), output: schema });
    const entries = agent.entries();
    expect(entries.slice(0, 2).map((e) => (e.kind === 'user' || e.kind === 'assistant' ? e.text : ''))).toEqual(['What does the module do?', 'It parses specs.']);
    expect(entries[2]).toMatchObject({ text: `Find the parser.\n\n${outputInstruction(schema)}` });
  });
});

describe('inbox items', () => {
  it('wait while a request runs and join before the next one, in arrival order', async () => {
    const agent = driveAgent(worker());
    agent.send({ type: 'inbox', item: item('first') });
    agent.send({ type: 'send_message', from: '/root/peer', to: '/root/w', message: 'second' });
    agent.send({ type: 'inbox', item: { ...item('third'), attachments: [{ name: 'a.txt', content: 'A' }] } });
    expect(agent.context().inbox?.size).toBe(3);
    expect(agent.entries()).toHaveLength(1);
    await agent.reply({ text: 'noted' });
    expect(agent.key()).toBe('running.working.sampling');
    expect(agent.context().inbox).toBeNull();
    expect(agent.entries().slice(-3)).toMatchObject([
      { kind: 'user', text: 'first', origin: { kind: 'message', from: '/root' }, opensTurn: false, attachments: [] },
      { kind: 'user', text: 'second', origin: { kind: 'message', from: '/root/peer' }, opensTurn: false, attachments: [] },
      { kind: 'user', text: 'third', opensTurn: false, attachments: [{ name: 'a.txt', content: 'A' }] },
    ]);
    expect(agent.requests()[1]!.dialogue.length).toBe(agent.entries().length);
  });

  it('a message that is not for the agent is not queued', () => {
    const agent = driveAgent(worker());
    agent.send({ type: 'send_message', from: '/root/peer', to: '/root/other', message: 'elsewhere' });
    expect(agent.context().inbox).toBeNull();
  });

  it('an item opening a turn carries its attachments', async () => {
    const agent = driveAgent(worker({ lifetime: 'continuable' }));
    await agent.reply({ text: 'done' });
    agent.send({ type: 'inbox', item: { ...item('look at this'), attachments: [{ name: 'b.txt', content: 'B' }] } });
    expect(agent.entries().at(-1)).toMatchObject({ text: 'look at this', opensTurn: true, attachments: [{ name: 'b.txt', content: 'B' }] });
    expect(agent.requests()).toHaveLength(2);
  });
});

describe('replies', () => {
  it('writes the compaction the runtime made before the reply, and keeps its reasoning', async () => {
    const agent = driveAgent(worker());
    const compaction = compactionEntry({ summary: 'Earlier: nothing much.', anchorId: null });
    await agent.reply({
      response: { text: 'answer', toolCalls: [], reasoning: [{ text: 'thinking' }], usage: ZERO_USAGE },
      compaction,
    });
    const [, written, reply] = agent.entries();
    expect(written).toBe(compaction);
    expect(reply).toMatchObject({ kind: 'assistant', text: 'answer', reasoning: [{ text: 'thinking' }] });
  });

  it('writes a reply without reasoning without the field', async () => {
    const agent = driveAgent(worker());
    await agent.reply({ text: 'answer' });
    expect(agent.entries().at(-1)).not.toHaveProperty('reasoning');
  });

  it('writes the tool result of a one-call step at once, then asks again', async () => {
    const agent = driveAgent(worker());
    await agent.reply({ text: 'calling', toolCalls: [{ name: 'lookup', arguments: { q: 'x' } }] });
    const [call] = agent.context().dialogue.pendingCalls();
    expect(agent.standIns.children.at(-1)!.input).toEqual({ path: '/root/w', calls: [call] });
    agent.send({ type: 'tool.result', callId: call!.id, toolName: 'lookup', content: 'found x', isError: true });
    expect(agent.entries().at(-1)).toMatchObject({ kind: 'tool_result', callId: call!.id, toolName: 'lookup', content: 'found x', isError: true });
    expect(agent.requests()).toHaveLength(2);
    expect(agent.requests()[1]).toMatchObject({ step: 1, turn: 0 });
  });

  it('asks once per turn for an answer that matches the output schema', async () => {
    const agent = driveAgent({ ...worker({ lifetime: 'continuable' }), output: { type: 'object' } });
    await agent.reply({ text: 'nope', output: { valid: false, errors: 'must be object' } });
    expect(agent.entries().at(-1)).toMatchObject({ kind: 'user', text: repairInstruction('must be object'), origin: { kind: 'notice', from: '/root/w' }, opensTurn: false });
    expect(agent.context().repairAsked).toBe(true);
    await agent.reply({ text: '{}', output: { valid: true, value: {} } });
    expect(agent.turns[0]).toMatchObject({ status: 'completed', value: {} });
    // A new turn may ask again.
    agent.send({ type: 'inbox', item: item('next') });
    expect(agent.context().repairAsked).toBe(false);
    await agent.reply({ text: 'nope', output: { valid: false, errors: 'again' } });
    expect(agent.entries().at(-1)).toMatchObject({ text: repairInstruction('again') });
  });

  it('asks only once per turn, even when queued input keeps the turn going', async () => {
    const agent = driveAgent({ ...worker(), output: { type: 'object' } });
    await agent.reply({ text: 'nope', output: { valid: false, errors: 'must be object' } });
    agent.send({ type: 'inbox', item: item('one more thing') });
    await agent.reply({ text: 'nope again', output: { valid: false, errors: 'must be object' } });
    const notices = agent.entries().filter((e) => e.kind === 'user' && e.origin.kind === 'notice');
    expect(notices).toHaveLength(1);
    expect(agent.entries().at(-1)).toMatchObject({ text: 'one more thing' });
    expect(agent.key()).toBe('running.working.sampling repair-asked');
  });

  it('does not ask for a repair when the reply matched, even when the turn goes on', async () => {
    const agent = driveAgent({ ...worker(), output: { type: 'object' } });
    agent.send({ type: 'inbox', item: item('more') });
    await agent.reply({ text: '{}', output: { valid: true, value: {} } });
    expect(agent.context().repairAsked).toBe(false);
    expect(agent.entries().at(-1)).toMatchObject({ text: 'more' });
  });
});

describe('compactions a host applies', () => {
  const cost = { ...ZERO_USAGE, inputTokens: 100, outputTokens: 10, requests: 1 };

  it('an idle agent applies one written for its current dialogue, and pays for it', async () => {
    const agent = driveAgent(worker({ lifetime: 'continuable' }));
    await agent.reply({ text: 'done' });
    const entry = compactionEntry({ summary: 'All of it.', anchorId: null });
    const length = agent.context().dialogue.length;
    agent.send({ type: 'compaction.apply', entry, basedOn: length, usage: cost });
    expect(agent.entries().at(-1)).toBe(entry);
    expect(agent.context().usage).toMatchObject({ inputTokens: 100, outputTokens: 10, requests: 1 });
  });

  it('an idle agent applies a free one without changing its usage', async () => {
    const agent = driveAgent(worker({ lifetime: 'continuable' }));
    await agent.reply({ text: 'done' });
    const before = agent.context().usage;
    agent.send({ type: 'compaction.apply', entry: compactionEntry({ summary: 'All.', anchorId: null }), basedOn: agent.context().dialogue.length });
    expect(agent.context().usage).toEqual(before);
    expect(agent.entries().at(-1)).toMatchObject({ kind: 'compaction' });
  });

  it('a stale one, or one arriving mid-turn, is refused but still paid for', async () => {
    const agent = driveAgent(worker({ lifetime: 'continuable' }));
    agent.send({ type: 'compaction.apply', entry: compactionEntry({ summary: 'mid-turn', anchorId: null }), basedOn: 1, usage: cost });
    await agent.reply({ text: 'done' });
    const length = agent.context().dialogue.length;
    agent.send({ type: 'compaction.apply', entry: compactionEntry({ summary: 'stale', anchorId: null }), basedOn: length - 1, usage: cost });
    agent.send({ type: 'compaction.apply', entry: compactionEntry({ summary: 'stale, free', anchorId: null }), basedOn: length + 1 });
    expect(agent.context().dialogue.length).toBe(length);
    expect(agent.entries().some((e) => e.kind === 'compaction')).toBe(false);
    expect(agent.context().usage).toMatchObject({ inputTokens: 200, outputTokens: 20, requests: 2 });
  });
});
