/**
 * What an agent sends up: which of its reports reach its parent (and as what), the one result
 * object its host and its parent both get, the `Agent` call answer the runtime hook is told
 * about, and a turn's text never taken from an earlier turn.
 */
import { describe, expect, it } from 'vitest';
import { createActor, toPromise } from 'xstate';
import { initialAgentContext, subagentReportOf } from '../../machines/agent.machine.js';
import { createAgentInput } from '../../machines/agent.input.js';
import { delegatingAgent } from '../../machines/delegation.js';
import type { AgentContext, AgentInput, AgentResult, SubagentReport, TurnReport } from '../../machines/agent.types.js';
import { Dialogue } from '../../src/dialogue/dialogue.js';
import type { UserOrigin } from '../../src/dialogue/entry.js';
import { selectSnapshot } from '../../src/context/select.js';
import { ZERO_USAGE } from '../../src/request/usage.js';
import { afterMicrotasks } from '../../src/testing/deferred.js';
import { driveAgent } from './agent-driver.js';

const inputFor = (extra: Partial<Parameters<typeof createAgentInput>[0]> = {}): AgentInput => createAgentInput({ model: 'm', task: 'work', path: '/root/w', ...extra });
const contextOf = (input: AgentInput, extra: Partial<AgentContext> = {}): AgentContext => ({ ...initialAgentContext(input), ...extra });
const turn = (openedBy: UserOrigin | undefined): SubagentReport => ({
  kind: 'turn',
  turn: { path: '/root/w', turn: 1, text: 'done', openedBy, status: 'completed', stopReason: 'completed', usage: ZERO_USAGE, subtreeUsage: ZERO_USAGE } satisfies TurnReport,
});
const result = { kind: 'result', result: { path: '/root/w' } as AgentResult } as const satisfies SubagentReport;

describe('subagentReportOf', () => {
  const triggered = (callId: string | undefined) => ({ snapshot: selectSnapshot(Dialogue.empty(), 'none', callId === undefined ? {} : { triggeringCallId: callId }) });

  it('sends a root’s reports nowhere', () => {
    expect(subagentReportOf(contextOf(inputFor({ path: '/root' })), result)).toBeUndefined();
    // Even a root whose reports would otherwise be notices (parent delivery, reported before).
    expect(subagentReportOf(contextOf(inputFor({ path: '/root', delivery: 'parent' }), { firstReportMade: true }), result)).toBeUndefined();
  });

  it('answers the triggering Agent call with a caller-delivered subagent’s first report, or leaves a host caller’s to the host', () => {
    expect(subagentReportOf(contextOf(inputFor(triggered('call-7'))), result)).toEqual({ type: 'subagent.report', from: '/root/w', callId: 'call-7', report: result });
    expect(subagentReportOf(contextOf(inputFor(triggered(undefined))), result)).toBeUndefined();
    expect(subagentReportOf(contextOf(inputFor()), turn({ kind: 'task', from: '/root' }))).toBeUndefined();
  });

  it('turns every later report, and each of a parent-delivered subagent, into a notice', () => {
    const later = contextOf(inputFor(triggered('call-7')), { firstReportMade: true });
    expect(subagentReportOf(later, result)).toEqual({ type: 'subagent.report', from: '/root/w', callId: null, report: result });
    const parentDelivered = contextOf(inputFor({ ...triggered('call-7'), delivery: 'parent' }));
    expect(subagentReportOf(parentDelivered, result)).toMatchObject({ callId: null });
  });

  it('reports up only the turns its parent opened, by task or by message', () => {
    const context = contextOf(inputFor({ delivery: 'parent', lifetime: 'continuable' }));
    const sent = (openedBy: UserOrigin | undefined) => subagentReportOf(context, turn(openedBy)) !== undefined;
    expect(sent({ kind: 'task', from: '/root' })).toBe(true);
    expect(sent({ kind: 'message', from: '/root' })).toBe(true);
    expect(sent({ kind: 'message', from: '/root/peer' })).toBe(false);
    expect(sent({ kind: 'task', from: '/elsewhere' })).toBe(false);
    expect(sent({ kind: 'notice', from: '/root' })).toBe(false);
    expect(sent({ kind: 'person' })).toBe(false);
    expect(sent(undefined)).toBe(false);
  });
});

describe('what an agent reports up', () => {
  it('gives its host and its own output the same result object', async () => {
    const reported: AgentResult[] = [];
    const agent = driveAgent(inputFor(), { actions: { releaseAndReport: (_, { result }) => void reported.push(result) } });
    const output = toPromise(agent.actor);
    await agent.reply({ text: 'all done' });
    expect(reported).toHaveLength(1);
    expect(await output).toBe(reported[0]);
  });

  it('tells the runtime hook which Agent call its subagent answered, and with what', async () => {
    const answered: { callId: string; content: string; isError: boolean }[] = [];
    let requests = 0;
    const agents = delegatingAgent({
      model: (request) => {
        if (request.path === '/root/helper') return { text: 'helped', toolCalls: [], usage: ZERO_USAGE };
        requests += 1;
        return requests === 1
          ? { text: '', toolCalls: [{ id: 'call-1', name: 'Agent', arguments: { task_name: 'helper', message: 'Help' } }], usage: ZERO_USAGE }
          : { text: 'thanks', toolCalls: [], usage: ZERO_USAGE };
      },
    });
    const logic = agents.logic.provide({ actions: { noteCallAnswered: (_, params) => void answered.push(params) } });
    const root = createActor(logic, { input: agents.input({ task: 'Get help', model: 'm' }) }).start();
    await toPromise(root);
    expect(answered).toHaveLength(1);
    expect(answered[0]).toMatchObject({ callId: 'call-1', isError: false });
    expect(JSON.parse(answered[0]!.content)).toMatchObject({ agent_id: '/root/helper', result: 'helped' });
    const entry = (root.getSnapshot().context as AgentContext).dialogue.log.toArray().find((e) => e.kind === 'tool_result');
    expect(entry).toMatchObject({ callId: 'call-1', toolName: 'Agent', content: answered[0]!.content });
  });

  it('never reports a turn with an earlier turn’s text', async () => {
    const agent = driveAgent(inputFor({ lifetime: 'continuable' }));
    await agent.reply({ text: 'first answer' });
    agent.send({ type: 'inbox', item: { text: 'again', origin: { kind: 'message', from: '/root' } } });
    await agent.reply({ text: '', toolCalls: [{ name: 'lookup' }] });
    await agent.answerTools();
    await agent.reply({ text: '' });
    expect(agent.turns.map((t) => t.text)).toEqual(['first answer', '']);
  });

  it('carries no value when an agent with an output schema ends without an answer', async () => {
    const open = driveAgent({ ...inputFor({ lifetime: 'continuable' }), output: { type: 'object' } });
    open.send({ type: 'interrupt', reason: 'the person stopped it' });
    await afterMicrotasks();
    expect(open.turns).toHaveLength(1);
    expect(open.turns[0]).toMatchObject({ status: 'cancelled', error: 'the person stopped it' });
    expect(Object.keys(open.turns[0]!)).not.toContain('value');

    const oneShot = driveAgent({ ...inputFor(), output: { type: 'object' } });
    oneShot.send({ type: 'cancel', reason: 'no longer needed' });
    await afterMicrotasks();
    expect(oneShot.results).toHaveLength(1);
    expect(Object.keys(oneShot.results[0]!)).not.toContain('value');
  });


  it('queues the reports that reach a working parent as notices, counted, and reads them at its next request', async () => {
    const parent = driveAgent(inputFor({ path: '/root', lifetime: 'continuable' }));
    const report = (from: string): SubagentReport => ({ kind: 'result', result: { path: from, text: `${from} done`, status: 'completed', elapsedMs: 0 } as AgentResult });
    parent.send({ type: 'subagent.report', from: '/root/a', callId: null, report: report('/root/a') });
    parent.send({ type: 'subagent.report', from: '/root/b', callId: null, report: report('/root/b') });
    expect(parent.context().inbox?.size).toBe(2);
    expect(parent.requests()).toHaveLength(1);
    await parent.reply({ text: '', toolCalls: [{ name: 'lookup' }] });
    await parent.answerTools();
    const notices = parent.requests().at(-1)!.dialogue.log.toArray().filter((e) => e.kind === 'user' && e.origin.kind === 'notice');
    expect(notices.map((e) => (e.kind === 'user' ? e.origin : undefined))).toEqual([
      { kind: 'notice', from: '/root/a' },
      { kind: 'notice', from: '/root/b' },
    ]);
  });
});
