/**
 * Folds a journal into the image of its session: per agent, its descriptor, its own entries,
 * what waits in its inbox, its counters, and how it ended. Pure: resuming builds the runtime
 * from this image.
 */
import type { AgentPhase } from '../../machines/agent.meta.js';
import type { AgentResult, InboxItem } from '../../machines/agent.types.js';
import type { Entry, UserOrigin } from '../dialogue/entry.js';
import { ZERO_USAGE, type Usage } from '../model/adapter.js';
import type { AdvanceRecord, ApprovalAnswerRecord, ApprovalRecord, CancelRecord, SessionRecord, SpawnRecord } from './records.js';
import { phaseOfRecord, PHASES_FORMAT } from './format.js';
import { StoreError, type JournalRecord } from './types.js';

/** One agent as the journal left it (the facts; `restoreAgent` turns them into an actor). */
export interface JournaledAgent {
  readonly spawn: SpawnRecord;
  /** Entries appended after its seed, in order. */
  readonly entries: Entry[];
  /** Inbox items queued while it worked that have not joined its dialogue yet. */
  readonly queued: InboxItem[];
  /** Its last journaled phase (`reserved` when none was journaled). */
  phase: AgentPhase;
  usage: Usage;
  step: number;
  turns: number;
  close: boolean;
  /** It made its first report (a caller-delivered subagent's answers its `Agent` call). */
  reported: boolean;
  openedBy: UserOrigin | undefined;
  /** The task its hooks accepted, when they ran. */
  hookTask: string | undefined;
  background: { readonly text: string; readonly usage: Usage } | undefined;
  result: AgentResult | undefined;
  /** Whether its result reached its parent (a notice or the Agent call's result after it). */
  delivered: boolean;
  released: boolean;
}

/** A whole session as the journal left it. */
export interface SessionImage {
  readonly sessionId: string;
  /** Agents in spawn order (parents before their subagents). */
  readonly agents: ReadonlyMap<string, JournaledAgent>;
  /** Shared values by hash. */
  readonly blobs: ReadonlyMap<string, unknown>;
  /** Number of records, the header included. */
  readonly records: number;
  /** Cancellations, in the order they began. */
  readonly cancels: readonly CancelRecord[];
  /** Approval requests by id, in the order they were asked, each with its answer if journaled. */
  readonly approvals: ReadonlyMap<string, JournaledApproval>;
}

/** An approval request as the journal holds it. */
export interface JournaledApproval {
  readonly request: ApprovalRecord;
  answer: ApprovalAnswerRecord | undefined;
}

const INBOX_ORIGINS: ReadonlySet<string> = new Set(['person', 'message', 'notice']);

/** Folds `records` (header first) into a {@link SessionImage}; `location` names the journal in errors. */
export function replayJournal(records: readonly JournalRecord[], location: string): SessionImage {
  const header = records[0];
  if (header?.type !== 'session' || typeof header['sessionId'] !== 'string') {
    throw new StoreError('corrupt_journal', `${location}: the journal has no session header`);
  }
  // Before format 4 the first report was not journaled: an agent had made it once it finished a turn.
  const inferReported = typeof header['format'] !== 'number' || header['format'] < PHASES_FORMAT;
  const agents = new Map<string, JournaledAgent>();
  const blobs = new Map<string, unknown>();
  const cancels: CancelRecord[] = [];
  const approvals = new Map<string, JournaledApproval>();
  // `${parent}\n${callId}` → subagent path, to recognise the Agent call that delivered a result.
  const byCall = new Map<string, string>();
  const agentOf = (path: unknown, index: number): JournaledAgent => {
    const agent = typeof path === 'string' ? agents.get(path) : undefined;
    if (!agent) throw new StoreError('corrupt_journal', `${location}: record ${index + 1} names ${JSON.stringify(path)}, which no earlier descriptor spawned`);
    return agent;
  };
  for (let i = 1; i < records.length; i++) {
    const record = records[i] as unknown as SessionRecord;
    switch (record.type) {
      case 'blob':
        blobs.set(record.hash, record.value);
        break;
      case 'spawn':
        if (agents.has(record.path)) throw new StoreError('corrupt_journal', `${location}: record ${i + 1} spawns ${record.path} a second time`);
        if (record.parent !== null) agentOf(record.parent, i);
        if (!blobs.has(record.head)) throw new StoreError('corrupt_journal', `${location}: record ${i + 1} names request head ${record.head}, which no earlier record holds`);
        agents.set(record.path, {
          spawn: record,
          entries: [],
          queued: [],
          phase: 'reserved',
          usage: ZERO_USAGE,
          step: 0,
          turns: 0,
          close: false,
          reported: false,
          openedBy: undefined,
          hookTask: undefined,
          background: undefined,
          result: undefined,
          delivered: false,
          released: false,
        });
        if (record.parent !== null && record.snapshot.call !== null) byCall.set(`${record.parent}\n${record.snapshot.call}`, record.path);
        break;
      case 'advance':
        advance(agentOf(record.path, i), record, phaseOfRecord(record, `${location}: record ${i + 1}`), agents, byCall, inferReported);
        break;
      case 'hook':
        agentOf(record.path, i).hookTask = record.task;
        break;
      case 'background':
        agentOf(record.path, i).background = { text: record.text, usage: record.usage };
        break;
      case 'result': {
        const agent = agentOf(record.path, i);
        advance(agent, { type: 'advance', path: record.path, phase: 'settled', ...(record.entries ? { entries: record.entries } : {}) }, 'settled', agents, byCall, inferReported);
        agent.result = record.result;
        break;
      }
      case 'release':
        agentOf(record.path, i).released = true;
        break;
      case 'cancel':
        agentOf(record.path, i);
        cancels.push(record);
        break;
      case 'approval':
        agentOf(record.path, i);
        // A resume asks a pending request again, under the same id: the first record stays.
        if (!approvals.has(record.id)) approvals.set(record.id, { request: record, answer: undefined });
        break;
      case 'approval-answer': {
        agentOf(record.path, i);
        const asked = approvals.get(record.id);
        if (!asked) throw new StoreError('corrupt_journal', `${location}: record ${i + 1} answers approval ${JSON.stringify(record.id)}, which no earlier record asked`);
        asked.answer ??= record;
        break;
      }
      default:
        throw new StoreError('corrupt_journal', `${location}: record ${i + 1} has the foreign type ${JSON.stringify((record as JournalRecord).type)}`);
    }
  }
  return { sessionId: header['sessionId'], agents, blobs, records: records.length, cancels, approvals };
}

function advance(agent: JournaledAgent, record: AdvanceRecord, phase: AgentPhase, agents: ReadonlyMap<string, JournaledAgent>, byCall: ReadonlyMap<string, string>, inferReported: boolean): void {
  const path = agent.spawn.path;
  const noticeFrom = (origin: UserOrigin): void => {
    if (origin.kind !== 'notice') return;
    const child = agents.get(origin.from);
    if (child?.result) child.delivered = true;
  };
  for (const item of record.queued ?? []) {
    agent.queued.push(item);
    noticeFrom(item.origin);
  }
  for (const entry of record.entries ?? []) {
    agent.entries.push(entry);
    if (entry.kind === 'user') {
      noticeFrom(entry.origin);
      // Queued items join the dialogue in arrival order, injected into the running turn.
      if (!entry.opensTurn && INBOX_ORIGINS.has(entry.origin.kind)) agent.queued.shift();
    } else if (entry.kind === 'tool_result') {
      const child = agents.get(byCall.get(`${path}\n${entry.callId}`) ?? '');
      if (child?.result) child.delivered = true;
    }
  }
  agent.phase = phase;
  if (record.usage) agent.usage = record.usage;
  if (record.step !== undefined) agent.step = record.step;
  if (record.turns !== undefined) agent.turns = record.turns;
  if (record.reported === true || (inferReported && agent.turns > 0)) agent.reported = true;
  if (record.close !== undefined) agent.close = record.close;
  if (record.openedBy !== undefined) agent.openedBy = record.openedBy ?? undefined;
}
