/**
 * The journal a running session writes: the runtime calls it at a few named points and it
 * turns what happened into records on a {@link SessionStore}, each fact once.
 *
 * - `spawned`: an agent's descriptor, when it is reserved (its parent's unwritten entries
 *   first, so a fork's snapshot always names entries already in the journal);
 * - `observed`: after each transition of an agent, what changed: entries appended, inbox items
 *   queued, its phase, counters and first report, and the hook outcome and background when they appear;
 * - `settled`: its last entries with its result (one record), then the release of its path and slot.
 */
import { hash as hashOf } from 'node:crypto';
import type { AgentPhase } from '../../machines/agent.meta.js';
import type { AgentContext, AgentInput, AgentResult, InboxItem, InboxQueue } from '../../machines/agent.types.js';
import type { Dialogue } from '../dialogue/dialogue.js';
import type { Entry, UserOrigin } from '../dialogue/entry.js';
import type { DialogueView } from '../dialogue/types.js';
import type { Usage } from '../model/adapter.js';
import { requestHeadHash } from '../request/serialize.js';
import type { AdvanceRecord, ApprovalAnswerRecord, ApprovalRecord, CancelRecord, SessionRecord, SpawnRecord } from './records.js';
import type { JournaledAgent, SessionImage } from './replay.js';
import type { JournalRecord, SessionStore } from './types.js';

/** What the journal last wrote about one agent. */
interface Written {
  own: number;
  seedLength: number | undefined;
  phase: AgentPhase;
  inbox: InboxQueue;
  usage: Usage | undefined;
  step: number;
  turns: number;
  close: boolean;
  reported: boolean;
  openedBy: UserOrigin | undefined;
  hook: boolean;
  background: boolean;
  done: boolean;
}

/** A session's journal on a store. */
export class SessionJournal {
  private readonly written = new Map<string, Written>();
  private readonly blobs = new Set<string>();
  private lastText: { text: string; hash: string } | undefined;

  constructor(
    readonly store: SessionStore,
    image?: SessionImage,
  ) {
    if (!image) return;
    for (const hash of image.blobs.keys()) this.blobs.add(hash);
    for (const [path, agent] of image.agents) this.written.set(path, writtenOf(agent));
  }

  private append(record: SessionRecord): void {
    // A failed store already told the runtime; what happens after that is not journaled.
    if (!this.store.failure) this.store.append(record as unknown as JournalRecord);
  }

  private blob(hash: string, value: unknown): string {
    if (!this.blobs.has(hash)) {
      this.blobs.add(hash);
      this.append({ type: 'blob', hash, value });
    }
    return hash;
  }

  private textBlob(text: string): string {
    if (this.lastText?.text !== text) this.lastText = { text, hash: hashOf('sha256', text, 'hex') };
    return this.blob(this.lastText.hash, text);
  }

  /**
   * An agent was reserved and is about to start. `parent` is its parent's current context and
   * phase, written first when they changed.
   */
  spawned(input: AgentInput, parent?: { readonly context: AgentContext; readonly phase: AgentPhase }, trace?: SpawnRecord['trace'], authority?: SpawnRecord['authority']): void {
    if (parent && input.parentPath !== null) this.observed(input.parentPath, parent.context, parent.phase);
    const { system, snapshot, framing, ...rest } = input;
    const head = this.blob(requestHeadHash(system), system);
    const projectContext = framing?.kind === 'independent' && framing.projectContext !== undefined ? framing.projectContext : undefined;
    const persona = framing === undefined ? undefined : framing.kind === 'independent' ? framing.instructions : framing.role?.instructions;
    const record: SpawnRecord = {
      type: 'spawn',
      path: input.path,
      parent: input.parentPath,
      sessionId: input.sessionId,
      role: input.role ?? null,
      preset: system.preset,
      head,
      tools: { allowed: system.tools.map((t) => t.name), removed: system.removedTools ?? [] },
      persona: persona ?? null,
      snapshot: { length: snapshot?.source.length ?? 0, call: snapshot?.source.triggeringCallId ?? null },
      projectContext: projectContext === undefined ? null : this.textBlob(projectContext),
      input: { ...rest, framing: projectContext === undefined ? framing : { ...framing, projectContext: undefined }, spec: snapshot?.spec ?? null },
      ...(trace ? { trace } : {}),
      ...(authority ? { authority } : {}),
    };
    this.append(record);
    this.written.set(input.path, {
      own: 0,
      seedLength: undefined,
      phase: 'reserved',
      inbox: null,
      usage: undefined,
      step: 0,
      turns: 0,
      close: false,
      reported: false,
      openedBy: undefined,
      hook: false,
      background: false,
      done: false,
    });
  }

  /** An agent's snapshot after a transition (its context and phase): writes what changed since the last one. */
  observed(path: string, context: AgentContext, phase: AgentPhase): void {
    const w = this.written.get(path);
    if (!w || w.done) return;
    if (!w.hook && context.input.hasTaskHooks && context.acceptedTask !== null) {
      w.hook = true;
      this.append({ type: 'hook', path, task: context.acceptedTask });
    }
    if (!w.background && context.background !== undefined) {
      w.background = true;
      this.append({ type: 'background', path, text: context.background, usage: context.usage });
    }
    const record: { -readonly [K in keyof AdvanceRecord]: AdvanceRecord[K] } = { type: 'advance', path, phase };
    let changed = phase !== w.phase;
    const entries = this.newEntries(w, context.dialogue);
    if (entries.length > 0) record.entries = entries;
    if (context.inbox !== w.inbox) {
      const queued = newItems(context.inbox, w.inbox);
      if (queued.length > 0) record.queued = queued;
      w.inbox = context.inbox;
    }
    if (context.usage !== w.usage && (w.usage !== undefined || context.usage.inputTokens + context.usage.outputTokens > 0)) record.usage = context.usage;
    w.usage = context.usage;
    if (context.step !== w.step) record.step = w.step = context.step;
    if (context.turnsCompleted !== w.turns) record.turns = w.turns = context.turnsCompleted;
    if (context.closeRequested !== w.close) record.close = w.close = context.closeRequested;
    if (context.firstReportMade && !w.reported) record.reported = w.reported = true;
    if (context.turnOpenedBy !== w.openedBy) {
      w.openedBy = context.turnOpenedBy;
      record.openedBy = context.turnOpenedBy ?? null;
    }
    changed ||= Object.keys(record).length > 3;
    if (!changed) return;
    w.phase = phase;
    this.append(record);
  }

  private newEntries(w: Written, dialogue: Dialogue | DialogueView): Entry[] {
    const seed = 'seedLength' in dialogue && typeof dialogue.seedLength === 'number' ? dialogue.seedLength : 0;
    if (w.seedLength === undefined) {
      // Seeding happens once (the first non-empty dialogue); its copied entries are not written.
      if (dialogue.length === 0) return [];
      w.seedLength = seed;
    }
    const out: Entry[] = [];
    for (let p = w.seedLength + w.own; p < dialogue.length; p++) out.push(dialogue.at(p)!);
    w.own += out.length;
    return out;
  }

  /** A cancellation is about to stop these agents (see {@link CancelRecord}). */
  cancelling(record: Omit<CancelRecord, 'type'>): void {
    this.append({ type: 'cancel', ...record });
  }

  /** A call asks for approval, or was answered (see {@link ApprovalRecord}). */
  approval(record: ApprovalRecord | ApprovalAnswerRecord): void {
    this.append(record);
  }

  /** An agent settled: its last entries, its result, then the release of its path and slot. */
  settled(result: AgentResult, dialogue: DialogueView | undefined): void {
    const w = this.written.get(result.path);
    if (!w || w.done) return;
    const entries = dialogue ? this.newEntries(w, dialogue) : [];
    w.done = true;
    // One record: a crash cannot leave the final entries without the result, or the reverse.
    this.append({ type: 'result', path: result.path, result, ...(entries.length > 0 ? { entries } : {}) });
    this.append({ type: 'release', path: result.path });
  }

  /**
   * A resumed agent's actor exists with this context: later observations are compared with
   * it (its restored inbox queue is not written again).
   */
  adopt(path: string, context: AgentContext): void {
    const w = this.written.get(path);
    if (!w) return;
    w.inbox = context.inbox;
    w.usage = context.usage;
    if (context.dialogue.length > 0) w.seedLength = context.dialogue.seedLength;
  }

  /**
   * Before an effect that must not happen twice (a tool call that is not idempotent): resolves
   * once everything journaled so far, the call itself included, is stored and the store still
   * holds the session; rejects with the store's error otherwise.
   */
  async beforeEffect(): Promise<void> {
    await (this.store.fence ? this.store.fence() : this.store.flush());
  }

  /** Whether the journal has the descriptor of `path`. */
  knows(path: string): boolean {
    return this.written.has(path);
  }
}

function newItems(queue: InboxQueue, seen: InboxQueue): InboxItem[] {
  const items: InboxItem[] = [];
  for (let node = queue; node !== null && node !== seen; node = node.next) items.push(node.item);
  return items.reverse();
}

function writtenOf(agent: JournaledAgent): Written {
  return {
    own: agent.entries.length,
    seedLength: undefined,
    phase: agent.phase,
    inbox: null,
    usage: agent.usage,
    step: agent.step,
    turns: agent.turns,
    close: agent.close,
    reported: agent.reported,
    openedBy: agent.openedBy,
    hook: agent.hookTask !== undefined,
    background: agent.background !== undefined,
    done: agent.result !== undefined,
  };
}
