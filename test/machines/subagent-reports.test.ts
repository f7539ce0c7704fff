/**
 * What a parent model reads about its subagents (machines/subagent-reports.ts): every metadata
 * field, the presenter's two texts, and the per-system settings.
 */
import { describe, expect, it } from 'vitest';
import { createActor, fromCallback } from 'xstate';
import {
  cancelToolContent,
  checkResultMetadata,
  configureReports,
  DEFAULT_RESULT_METADATA,
  firstTurnToolContent,
  handedOver,
  presenterOf,
  receiptToolContent,
  reportPresenter,
  resultMetadata,
  resultToolContent,
  settlementNotice,
  turnNotice,
  type ResultMetadataField,
} from '../../machines/subagent-reports.js';
import type { AgentResult, SubagentReportEvent, TurnReport } from '../../machines/agent.types.js';

const usage = (n: number) => ({ inputTokens: n, outputTokens: n + 1, cacheReadTokens: n + 2, cacheWriteTokens: n + 3, requests: 1, retries: 0 });

const result: AgentResult = {
  text: 'found it',
  path: '/root/finder',
  role: 'locator',
  context: 'all',
  contextMode: 'all',
  status: 'failed',
  stopReason: 'max_steps',
  error: 'stopped after 3 model requests',
  elapsedMs: 1234.6,
  sessionId: 'sess_child',
  treeId: 'sess_tree',
  usage: usage(10),
  subtreeUsage: { ...usage(20), cost: 0.5 },
  turns: 2,
  prefix: { sharedBytes: 900, sharedTokens: 225, sharedRatio: 0.12345, inputBytes: 7290, inheritedBytes: 1000, reasons: ['newer_entries'] },
};

const turn: TurnReport = {
  path: '/root/helper',
  turn: 3,
  text: 'turn answer',
  openedBy: { kind: 'message', from: '/root' },
  status: 'completed',
  stopReason: 'completed',
  usage: usage(1),
  subtreeUsage: usage(1),
};

describe('result metadata', () => {
  it('writes each field from the result', () => {
    const all = checkResultMetadata(['agent_id', 'status', 'stop_reason', 'error', 'role', 'context', 'turns', 'elapsed_ms', 'session_id', 'tree_id', 'usage', 'subtree_usage', 'prefix']);
    expect(resultMetadata(result, all)).toEqual({
      agent_id: '/root/finder',
      status: 'failed',
      stop_reason: 'max_steps',
      error: 'stopped after 3 model requests',
      role: 'locator',
      context: 'all',
      turns: 2,
      elapsed_ms: 1235,
      session_id: 'sess_child',
      tree_id: 'sess_tree',
      usage: { input_tokens: 10, output_tokens: 11, cache_read_tokens: 12, cache_write_tokens: 13, requests: 1, retries: 0 },
      subtree_usage: { input_tokens: 20, output_tokens: 21, cache_read_tokens: 22, cache_write_tokens: 23, requests: 1, retries: 0, cost: 0.5 },
      prefix: { shared_bytes: 900, shared_tokens: 225, shared_ratio: 0.123, reasons: ['newer_entries'] },
    });
  });

  it('leaves out an absent error and a missing role, and shows prefix reasons only when there are some', () => {
    const clean: AgentResult = { ...result, error: undefined, role: undefined, prefix: { ...result.prefix, reasons: [] } };
    expect(resultMetadata(clean, ['error', 'role', 'prefix'])).toEqual({ prefix: { shared_bytes: 900, shared_tokens: 225, shared_ratio: 0.123 } });
  });

  it('defaults to the design record\'s fields (agent, role, context, elapsed time, ending, own session id), and takes a function of the result as it returns it', () => {
    expect(checkResultMetadata(undefined)).toBe(DEFAULT_RESULT_METADATA);
    expect(DEFAULT_RESULT_METADATA).toEqual(['agent_id', 'role', 'context', 'elapsed_ms', 'status', 'stop_reason', 'session_id', 'error']);
    expect(resultMetadata(result, DEFAULT_RESULT_METADATA)).toEqual({
      agent_id: '/root/finder',
      role: 'locator',
      context: 'all',
      elapsed_ms: 1235,
      status: 'failed',
      stop_reason: 'max_steps',
      session_id: 'sess_child',
      error: 'stopped after 3 model requests',
    });
    const custom = (r: AgentResult) => ({ who: r.path });
    expect(checkResultMetadata(custom)).toBe(custom);
    expect(resultMetadata(result, custom)).toEqual({ who: '/root/finder' });
  });

  it('refuses a choice that is not a list of known fields, naming the bad one', () => {
    expect(() => checkResultMetadata('status' as never)).toThrow(/list of field names or a function/);
    expect(() => checkResultMetadata(['status', 'color' as ResultMetadataField])).toThrow(/unknown field "color"; known fields: agent_id, status/);
    expect(() => checkResultMetadata([7 as unknown as ResultMetadataField])).toThrow(/unknown field 7/);
    const checked = checkResultMetadata(['status']);
    expect(Object.isFrozen(checked)).toBe(true);
  });
});

const receipt = { path: '/root/bg', role: 'scout', context: 'none', lifetime: 'one-shot', sessionId: 'sess_bg', treeId: 'sess_tree' };

describe('texts the parent reads', () => {
  it('words a receipt with the chosen fields known at the start', () => {
    expect(receiptToolContent(receipt)).toBe(
      '{"agent_id":"/root/bg","context":"none","lifetime":"one-shot","note":"The result will arrive later as a message from the runtime; you can continue meanwhile.","role":"scout","session_id":"sess_bg","status":"started"}',
    );
    expect(JSON.parse(receiptToolContent(receipt, ['agent_id', 'tree_id', 'usage', 'elapsed_ms']))).toEqual({
      agent_id: '/root/bg',
      tree_id: 'sess_tree',
      status: 'started',
      lifetime: 'one-shot',
      note: expect.any(String),
    });
    // A function describes results; the receipt then names just the agent.
    expect(Object.keys(JSON.parse(receiptToolContent({ ...receipt, role: undefined }, () => ({ who: 'x' }))))).toEqual(['agent_id', 'lifetime', 'note', 'status']);
  });

  it('answers an Agent call with the metadata and the answer, the structured value when there is one', () => {
    expect(resultToolContent(result)).toBe(
      '{"agent_id":"/root/finder","context":"all","elapsed_ms":1235,"error":"stopped after 3 model requests","result":"found it","role":"locator","session_id":"sess_child","status":"failed","stop_reason":"max_steps"}',
    );
    expect(resultToolContent({ ...result, value: { line: 4 } }, ['agent_id'])).toBe('{"agent_id":"/root/finder","result":{"line":4}}');
  });

  it('wraps notices in tags, and words receipts, first turns and cancellations', () => {
    expect(settlementNotice(result, ['agent_id'])).toBe('<subagent_result>\n{"agent_id":"/root/finder","result":"found it"}\n</subagent_result>');
    expect(turnNotice(turn)).toBe('<subagent_turn>\n{"agent_id":"/root/helper","result":"turn answer","status":"idle","turn":3}\n</subagent_turn>');
    expect(JSON.parse(receiptToolContent(receipt))).toMatchObject({ agent_id: '/root/bg', status: 'started', context: 'none', lifetime: 'one-shot' });
    expect(JSON.parse(firstTurnToolContent({ path: '/root/c', text: 'hi', turn: 0 }))).toMatchObject({ agent_id: '/root/c', status: 'idle', turn: 0, result: 'hi' });
    // The notes tell the parent model what it can do next.
    expect(JSON.parse(receiptToolContent(receipt)).note).toMatch(/result will arrive later.*continue meanwhile/);
    expect(JSON.parse(firstTurnToolContent({ path: '/root/c', text: 'hi', turn: 0 })).note).toMatch(/send_message.*close_agent/);
    expect(cancelToolContent([{ path: '/root/a/b', state: 'running.idle' }, { path: '/root/a', state: 'running.working.sampling' }])).toBe(
      '{"cancelled":[{"agent_id":"/root/a/b","state":"running.idle"},{"agent_id":"/root/a","state":"running.working.sampling"}]}',
    );
  });

  it('presents a result as an error call result unless it completed, and a first turn as a success', () => {
    const present = reportPresenter(['agent_id', 'status']);
    expect(present.callResult({ kind: 'result', result })).toEqual({ content: '{"agent_id":"/root/finder","result":"found it","status":"failed"}', isError: true });
    expect(present.callResult({ kind: 'result', result: { ...result, status: 'completed' } }).isError).toBe(false);
    expect(present.callResult({ kind: 'turn', turn })).toEqual({ content: firstTurnToolContent({ path: '/root/helper', text: 'turn answer', turn: 3 }), isError: false });
    expect(present.notice({ kind: 'result', result })).toBe(settlementNotice(result, ['agent_id', 'status']));
    expect(present.notice({ kind: 'turn', turn })).toBe(turnNotice(turn));
  });

  it('presents the result its host completed when it has one', () => {
    const completed: AgentResult = { ...result, error: 'completed by the host' };
    const present = reportPresenter(['error'], (reported) => (reported === result ? completed : reported));
    expect(present.callResult({ kind: 'result', result }).content).toContain('completed by the host');
    expect(present.notice({ kind: 'result', result })).toContain('completed by the host');
  });
});

describe('per-system report settings', () => {
  it('uses the default wording until a system sets its own, and hands over only what its host takes', () => {
    const root = createActor(fromCallback(() => {}));
    const system = root.system;
    expect(presenterOf(system).notice({ kind: 'result', result })).toBe(settlementNotice(result));
    const event: SubagentReportEvent = { type: 'subagent.report', from: '/root/finder', callId: null, report: { kind: 'result', result } };
    expect(handedOver(system, event)).toBe(false);
    const taken: SubagentReportEvent[] = [];
    const presenter = reportPresenter(['agent_id']);
    configureReports(root, { presenter, handOver: (e) => (taken.push(e), e.from === '/root/finder') });
    expect(presenterOf(system)).toBe(presenter);
    expect(handedOver(system, event)).toBe(true);
    expect(handedOver(system, { ...event, from: '/root/other' })).toBe(false);
    expect(taken).toHaveLength(2);
    configureReports(root, {});
    expect(presenterOf(system).notice({ kind: 'result', result })).toBe(settlementNotice(result));
    // A system with a presenter and no hand-over keeps every report.
    configureReports(root, { presenter });
    expect(handedOver(system, event)).toBe(false);
    // The settings belong to the tree: another tree keeps the default wording.
    expect(presenterOf(createActor(fromCallback(() => {})).system)).not.toBe(presenter);
  });

  it('takes an agent of the tree, not its system', () => {
    const root = createActor(fromCallback(() => {}));
    expect(() => configureReports(root.system as never, {})).toThrow(/takes an agent of the tree/);
  });
});
