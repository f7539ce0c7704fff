/**
 * The lifecycle of one runtime's agents: the port the agent machine calls (published, adopted,
 * finished, turn ended), watching each actor (busy and idle, usage, the journal, spans),
 * cancellation (the one owner of the cascade, children first), halting when the store
 * fails, quiet tracking and result waiters.
 */
import type { AnyActorRef } from 'xstate';
import type { AgentContext, SubagentReportEvent, TurnReport } from '../../machines/agent.types.js';
import { resultOf, subagentReportOf } from '../../machines/agent.machine.js';
import { agentPhaseOf } from '../../machines/agent.image.js';
import { releaseSubagent } from '../../machines/subagents.js';
import { configureReports, type ReportPresenter } from '../../machines/subagent-reports.js';
import { traceAgentEnd, traceAgentStart } from '../../machines/agent-trace.js';
import type { DialogueView } from '../dialogue/types.js';
import { errorText } from '../dialogue/error-text.js';
import type { Usage } from '../model/adapter.js';
import { completeResult } from './completed-result.js';
import type { SessionJournal } from '../store/journal.js';
import type { SessionImage } from '../store/replay.js';
import type { StoreError } from '../store/types.js';
import type { TraceBuilder } from '../otel/trace-builder.js';
import type { SpanRef } from '../otel/types.js';
import { stateValueString } from '../text/state-value.js';
import { authorityOf } from './authority.js';
import type { RuntimeBudgets } from './budgets.js';
import type { RuntimeConfig } from './config.js';
import { inTurn, isBusy, type AgentSnapshot, type Directory } from './directory.js';
import { RuntimeError } from './errors.js';
import { QuietTracker } from './quiet.js';
import type { HostEvents } from './host-events.js';
import type { AgentRecord, Registry } from './registry.js';
import type { RetentionStore } from './retention.js';
import type { TurnWaiters } from './turns.js';
import type { AgentResult, CancelReport, CancelledAgent, FirstReportValue } from './types.js';
import type { UsageAccount, UsageLedger } from './usage-ledger.js';

/** What the lifecycle works with. */
export interface LifecycleParts {
  readonly config: Pick<RuntimeConfig, 'now'>;
  readonly events: HostEvents;
  readonly registry: Registry;
  readonly directory: Directory;
  readonly retention: RetentionStore;
  readonly budgets: RuntimeBudgets;
  readonly ledger: UsageLedger;
  /** Usage accounts of live agents, by path (opened at spawn, closed here when they finish). */
  readonly accounts: Map<string, UsageAccount>;
  readonly turns: TurnWaiters;
  readonly journal: SessionJournal | undefined;
  readonly trace: TraceBuilder | undefined;
  /** Outcomes a resumed session replays (the spans' identities among them). */
  readonly replayed: SessionImage['agents'] | undefined;
  /** How the tree's agents word their subagents' reports. */
  readonly presenter: ReportPresenter;
  /** The router's hand-over of a host-run root's subagent reports; true when it took the report. */
  handOver(event: SubagentReportEvent): boolean;
}

/** The lifecycle of one runtime's agents. */
export class Lifecycle {
  private readonly resultWaiters = new Map<string, Array<{ readonly resolve: (result: AgentResult) => void; readonly reject: (error: Error) => void }>>();
  private readonly busy = new QuietTracker();
  /** Set when the store failed: the session takes no new work. */
  failure: StoreError | undefined;

  constructor(private readonly parts: LifecycleParts) {}

  /**
   * Tree service (`configureReports`' `complete`): a settling agent's result as this runtime
   * completes it, when the agent takes it: its usage from its account (with its subtree's),
   * the elapsed time by the runtime's clock, and its prefix measured on the provider's bodies
   * when the adapter reported them (before `finished` delivers it). An unheld path keeps what it made.
   */
  complete(made: AgentResult): AgentResult {
    const record = this.parts.registry.get(made.path);
    if (!record) return made;
    const result = completeResult(made, record, this.parts.accounts.get(record.path), this.parts.config.now());
    record.completed = result;
    return result;
  }

  /** Whether the agent at `path` is doing work. */
  isBusy(path: string): boolean {
    return this.busy.has(path);
  }

  /** How many agents are doing work (for leak checks). */
  get busyCount(): number {
    return this.busy.size;
  }

  /** How many agents' results someone awaits (for leak checks). */
  get resultWaiterCount(): number {
    return this.resultWaiters.size;
  }

  /** Tracks busy/idle, usage and tree changes of an agent's actor. */
  watch(record: AgentRecord): void {
    const actor = record.actor;
    // One whose first step threw has no context to watch; its spawn undoes it.
    if (!actor || actor.getSnapshot().status === 'error') return;
    const account = this.parts.accounts.get(record.path);
    let last: string | undefined;
    let context: AgentContext | undefined;
    let usage: Usage | undefined;
    const journal = this.parts.journal;
    const started = actor.getSnapshot() as { value: unknown; context: AgentContext };
    // The span opens before the descriptor is journaled, which keeps its identity for a resume.
    const span = this.parts.trace ? traceAgentStart(this.parts.trace, started.context.input, this.parts.replayed?.get(record.path)?.spawn.trace) : undefined;
    if (journal) this.journalStart(journal, record.path, started, span);
    // The tree's agents word their subagents' reports with this runtime's choice (set on its root); a subagent's start is news.
    if (record.parentPath === null) configureReports(actor, { presenter: this.parts.presenter, handOver: (event) => this.failure !== undefined || this.parts.handOver(event), complete: (made) => this.complete(made) });
    else if (this.parts.events.stream.active) {
      this.parts.events.stream.publish({
        type: 'subagent-spawned',
        path: record.path,
        parentPath: record.parentPath,
        role: record.role,
        context: record.contextLabel,
        delivery: record.delivery,
        lifetime: record.lifetime,
        task: record.task,
      });
    }
    actor.subscribe({
      next: (snapshot: { value: unknown; context: AgentContext; getMeta(): Record<string, unknown> }) => {
        // A halted session's actors stop where they are: what they do after is nobody's news.
        if (this.failure) return;
        context = snapshot.context;
        if (context.usage !== usage) {
          // The usage it starts with is not news; only what it spends from here on is.
          const started = usage !== undefined;
          usage = context.usage;
          // Usage is counted as it is spent, so a subtree total is current while agents run.
          account?.set(usage);
          this.parts.budgets.spent(record.path, usage);
          if (started && account && this.parts.events.stream.active) {
            this.parts.events.stream.publish({ type: 'usage-updated', path: record.path, usage: account.own, subtreeUsage: account.subtree, sessionUsage: this.parts.ledger.total() });
          }
        }
        const state = stateValueString(snapshot.value);
        journal?.observed(record.path, snapshot.context, agentPhaseOf(snapshot));
        if (state === last) return;
        last = state;
        if (isBusy(this.parts.directory.metaIn(snapshot, state))) this.busy.add(record.path);
        else this.busy.delete(record.path);
        // An idle agent lets its last request go (a continuable subagent may wait for hours):
        // a spawn from it rebuilds the same request from its dialogue (lastRequestOf).
        if (state === 'running.idle') record.lastRequest = undefined;
        this.parts.events.emit('change', { path: record.path, state });
      },
      // An actor that crashes (a bug, never a model's doing) still yields its one result.
      error: (error: unknown) => {
        this.busy.delete(record.path);
        if (context) {
          const failed: AgentResult = {
            ...resultOf(context, this.parts.config.now()),
            status: 'failed',
            stopReason: 'internal_error',
            error: `internal error in ${record.path}: ${errorText(error)}`,
          };
          this.finished(failed, context.dialogue);
          this.reportForCrashed(record, context, failed);
        }
        this.parts.events.emit('change', { path: record.path, state: 'settled' });
      },
      complete: () => {
        this.busy.delete(record.path);
        // Stopped from outside (`actor.stop()` on it or an ancestor) without reaching a final state: it
        // still reports once, after the subagents its stop cancelled (only a delivered record leaves the registry).
        if (context && !record.delivered) {
          const stopped: AgentResult = { ...resultOf(context, this.parts.config.now()), status: 'cancelled', stopReason: 'cancelled', error: `${record.path} was stopped` };
          this.finished(stopped, context.dialogue);
          this.reportForCrashed(record, context, stopped);
          this.parts.events.emit('change', { path: record.path, state: 'cancelled' });
        }
      },
    });
  }

  /**
   * An actor that failed or was stopped without settling cannot send its own report: its parent's
   * actor gets the `subagent.report` the agent would have sent, and decides as for any other.
   */
  private reportForCrashed(record: AgentRecord, context: AgentContext, result: AgentResult): void {
    if (record.parentPath === null || this.failure) return;
    const event = subagentReportOf(context, { kind: 'result', result });
    const parent = this.parts.registry.get(record.parentPath)?.actor;
    if (!event || this.parts.handOver(event)) return;
    if (parent && parent.getSnapshot().status === 'active') parent.send(event);
  }

  /** Journals a new agent's descriptor (its parent's news first), or adopts a resumed one. */
  private journalStart(journal: SessionJournal, path: string, snapshot: { value: unknown; context: AgentContext }, span: SpanRef | undefined): void {
    if (journal.knows(path)) {
      journal.adopt(path, snapshot.context);
      return;
    }
    const parentPath = snapshot.context.input.parentPath;
    const parent = parentPath === null ? undefined : this.parts.registry.get(parentPath)?.actor?.getSnapshot();
    journal.spawned(snapshot.context.input, parent ? { context: parent.context, phase: agentPhaseOf(parent) } : undefined, span, authorityOf(this.parts.registry.get(path)));
  }

  /**
   * The store failed: the session stops taking work. Every actor is stopped where it is (no
   * result is invented), waiters for quiet are released, what the host awaits (prompts in
   * flight, `result()`, spawn handles) rejects with the store's error, and hosts get a
   * `halted` event. What the store acknowledged before stays; the session can be resumed from it.
   */
  halt(error: StoreError): void {
    if (this.failure) return;
    this.failure = error;
    this.rejectWaiters(error);
    // Stopping each tree's root (an actor without an XState parent) stops the tree: its
    // subagents are cancelled by their parents' supervisors, and what they report goes nowhere
    // (a failed session observes no snapshot, delivers no result and hands over every report).
    for (const record of this.parts.registry.all()) if (record.actor && record.actor._parent === undefined) record.actor.stop();
    this.busy.clear();
    this.parts.trace?.endAll('session_halted');
    this.parts.events.emit('halted', { error });
  }

  /** Rejects every promise the host awaits on this session's agents (halt). */
  private rejectWaiters(error: StoreError): void {
    this.parts.turns.failAll(error);
    const results = [...this.resultWaiters.values()];
    this.resultWaiters.clear();
    for (const list of results) for (const waiter of list) waiter.reject(error);
    for (const record of this.parts.registry.all()) {
      const first = record.onFirstReport;
      record.onFirstReport = undefined;
      first?.reject(error);
    }
  }

  /** Throws when the session no longer takes work (its store failed). */
  assertRunning(): void {
    if (this.failure) throw new RuntimeError('session_halted', `the session stopped taking work: ${this.failure.message}`);
  }

  /** Resolves when no agent is busy. */
  whenQuiet(): Promise<void> {
    return this.busy.whenQuiet();
  }

  /** Runtime hook from the machine: a parent created a subagent's actor (for a path spawn just reserved), about to start it. */
  adopt(path: string, actor: AnyActorRef | undefined): void {
    const record = this.parts.registry.get(path);
    if (!record || !actor) return;
    record.actor = actor;
    this.watch(record);
  }

  /** Runtime hook from the machine: the agent entered `running`. */
  published(path: string): void {
    this.parts.registry.publish(path);
  }

  /**
   * Runtime hook from the machine: the agent reached `settled` or `cancelled`.
   * Exactly once per agent: the result is completed (subtree usage, elapsed time) and journaled,
   * live descendants are cancelled, the path and slot are released, and waiters get the result.
   * The agent's actor then reports it to its parent's actor (the machine's delivery).
   */
  finished(reported: AgentResult, dialogue?: DialogueView): void {
    const record = this.parts.registry.get(reported.path);
    // A halted session invents no results (its actors are stopped where they are).
    if (!record || record.delivered || this.failure) return;
    // Completed when the agent took it (`complete`), unless its tree has no such service.
    const result = record.completed === reported ? reported : this.complete(reported);
    record.delivered = true;
    record.completed = undefined;
    this.parts.accounts.delete(record.path);
    this.parts.budgets.spent(record.path, reported.usage);
    this.parts.budgets.settled(record.path);
    // Journaled before its subagents are cancelled: a resume then cancels any it finds live.
    this.parts.journal?.settled(result, dialogue);
    // A finished agent leaves no live subagents behind.
    for (const child of [...record.children]) this.cancel(child, `${reported.path} finished`);
    this.parts.registry.release(record.path, result);
    this.parts.retention.add(result, dialogue);
    if (this.parts.trace) traceAgentEnd(this.parts.trace, result);
    this.parts.events.emit('result', result);
    this.parts.turns.agentFinished(result);
    const waiters = this.resultWaiters.get(record.path);
    this.resultWaiters.delete(record.path);
    for (const waiter of waiters ?? []) waiter.resolve(result);
    // Whoever holds the spawn's handle (the host, a host-run root's Agent call) gets the first report.
    resolveFirstReport(record, { kind: 'result', result });
  }

  /**
   * Undoes a spawn that failed after its reservation and before its actor ran: stops the
   * actor if there is one, frees path, slot and usage account, and drops its waiters.
   */
  abandon(path: string): void {
    const record = this.parts.registry.get(path);
    if (!record || record.delivered) return;
    record.delivered = true;
    record.onFirstReport = undefined;
    if (record.actor) {
      releaseSubagent(record.actor, path);
      try {
        record.actor.stop();
      } catch {
        // A failed actor may refuse to stop; it holds nothing once unreserved.
      }
    }
    this.parts.registry.unreserve(path);
    this.parts.accounts.delete(path);
    this.parts.budgets.abandoned(path, record.parentPath);
    this.parts.trace?.agentEnded(path, { status: 'failed', stopReason: 'start_failed' });
    this.resultWaiters.delete(path);
    this.busy.delete(path);
  }

  /** Runtime hook from the machine: a continuable agent finished a turn. */
  turnEnded(reported: TurnReport): void {
    const account = this.parts.accounts.get(reported.path);
    account?.set(reported.usage);
    const report: TurnReport = account ? { ...reported, usage: account.own, subtreeUsage: account.subtree } : reported;
    this.parts.trace?.turnEnded(report.path, report.turn, report.status, report.stopReason);
    this.parts.events.emit('turn', report);
    this.parts.turns.turnEnded(report);
    const record = this.parts.registry.get(report.path);
    if (record) resolveFirstReport(record, { kind: 'turn', text: report.text, turn: report.turn });
  }

  /** A promise of an agent's one result (already delivered results resolve at once). */
  resultOf(path: string): Promise<AgentResult> {
    // A halted session's agents were stopped where they were: their results never come.
    if (this.failure && this.parts.registry.get(path)) return Promise.reject(this.failure);
    if (!this.parts.registry.get(path)) {
      const done = this.parts.retention.get(path)?.result;
      if (done) return Promise.resolve(done);
      const tomb = this.parts.registry.tombstone(path);
      if (tomb) return Promise.reject(new RuntimeError('unknown_agent', `agent ${path} has settled and its result is no longer retained (released or trimmed by the retention policy)`));
      return Promise.reject(new RuntimeError('unknown_agent', `no agent at ${path}`));
    }
    return new Promise((resolve, reject) => {
      const list = this.resultWaiters.get(path) ?? [];
      list.push({ resolve, reject });
      this.resultWaiters.set(path, list);
    });
  }

  /**
   * Cancels the subtree under `path`, children before parents; reports what it stopped. `call`
   * names the `cancel_agent` call that asked for it, for the journal.
   */
  cancel(path: string, reason?: string, call?: { readonly by: string; readonly callId: string }): CancelReport {
    const targets: AgentRecord[] = [];
    const stopped: CancelledAgent[] = [];
    for (const record of this.parts.registry.subtreePostOrder(path)) {
      if (record.delivered || !record.actor) continue;
      targets.push(record);
      stopped.push({ path: record.path, state: this.parts.directory.stateOf(record.path) ?? 'reserved' });
    }
    // Journaled before the first agent stops: a crash mid-cascade leaves a resume what to finish.
    if (stopped.length > 0) this.parts.journal?.cancelling({ path, ...(reason ? { reason } : {}), stopped, ...(call ? { call } : {}) });
    this.parts.trace?.cancelled(path, stopped, reason, call ? { path: call.by, callId: call.callId } : undefined);
    for (const record of targets) {
      // An agent an earlier one's cancellation already finished (its parent's cascade) is skipped.
      if (!record.delivered) record.actor?.send({ type: 'cancel', ...(reason ? { reason } : {}) });
    }
    return { stopped };
  }

  /**
   * Cancels the turn in progress of `path` (a prompt's abort): first the subagents `affected`
   * selects (their subtrees, children first), then the turn itself. A continuable agent (the
   * root is one) goes idle; a one-shot agent is cancelled. What it stopped goes to the prompts
   * waiting on `path` (their outcome's `cancelled`). Idle agents have no turn to cancel.
   */
  cancelTurn(path: string, reason: string, affected: (child: string) => boolean): void {
    const record = this.parts.registry.get(path);
    if (!record?.actor || record.delivered) return;
    const snapshot = record.actor.getSnapshot() as AgentSnapshot;
    const state = stateValueString(snapshot.value);
    if (!inTurn(this.parts.directory.metaIn(snapshot, state))) return;
    if (record.lifetime === 'one-shot') {
      this.parts.turns.noteCancelled(path, this.cancel(path, reason));
      return;
    }
    const stopped: CancelledAgent[] = [];
    for (const child of [...record.children]) if (affected(child)) stopped.push(...this.cancel(child, reason).stopped);
    stopped.push({ path, state });
    this.parts.turns.noteCancelled(path, { stopped });
    // Leaving the working state stops the model request and the tool calls (aborting them).
    record.actor.send({ type: 'interrupt', reason });
  }
}

/** Resolves the spawn handle's `firstReport` with the agent's first report (once; the root has no handle). */
function resolveFirstReport(record: AgentRecord, report: FirstReportValue): void {
  const waiter = record.onFirstReport;
  record.onFirstReport = undefined;
  waiter?.resolve(report);
}
