/**
 * The runtime's internal state and the lifecycle plumbing every other runtime module uses:
 * watching actors, delivering results exactly once, cancelling subtrees children-first.
 */
import type { AnyActorRef, InspectionEvent, Observer } from 'xstate';
import { createActor } from 'xstate';
import type { AgentContext, AgentInput, TurnReport } from '../../machines/agent.types.js';
import { resultOf, subagentReportOf } from '../../machines/agent.machine.js';
import { agentInput } from '../../machines/agent.input.js';
import { releaseSubagent } from '../../machines/subagents.js';
import type { DialogueView } from '../dialogue/types.js';
import { wirePrefixReuse } from '../request/wire-reuse.js';
import { RuntimeError } from './errors.js';
import type { AgentLogic, CoreBuilders } from './core-builders.js';
import { sanitizeInspectionEvent } from '../inspect/sanitize.js';
import { stateValueString } from '../text/state-value.js';
import { agentPhaseOf } from '../../machines/agent.image.js';
import { ROOT_PATH } from './paths.js';
import { Registry, type AgentRecord } from './registry.js';
import { RetentionStore } from './retention.js';
import { type CoordinationPort } from '../../machines/coordination.js';
import { runtimeCoordinationPort } from './coordination-port.js';
import { SessionJournal } from '../store/journal.js';
import type { SessionImage } from '../store/replay.js';
import type { StoreError } from '../store/types.js';
import { configureReports, receiptToolContent, reportPresenter, type ReportPresenter } from '../../machines/subagent-reports.js';
import { UsageLedger, type UsageAccount } from './usage-ledger.js';
import { RuntimeBudgets } from './budgets.js';
import { ApprovalDesk } from './approvals.js';
import { authorityOf } from './authority.js';
import { NarrowingWarnings } from './narrowing.js';
import type { Usage } from '../model/adapter.js';
import { DEFAULT_MAX_STEPS, TurnWaiters } from './turns.js';
import type { AgentResult, CancelReport, CancelledAgent, FirstReportValue, RuntimeOptions } from './types.js';
import { errorText } from '../dialogue/error-text.js';
import { configure, rootModelOf, type RuntimeConfig } from './config.js';
import { HostEvents } from './host-events.js';
import { Router } from './router.js';
import { Directory, inTurn, isBusy, stateMetaOf } from './directory.js';
import type { EventsOptions, RuntimeStreamEvent } from './stream-events.js';
import type { TraceBuilder } from '../otel/trace-builder.js';
import type { SpanRef } from '../otel/types.js';
import { tracingFor } from '../otel/load.js';
import { traceAgentEnd, traceAgentStart } from '../../machines/agent-trace.js';
import { AgentSessionIds } from '../../machines/agent-session-ids.js';

/** What {@link RuntimeCore.footprint} counts. */
export interface RuntimeFootprint {
  /** Held paths (live agents, the root included). */
  readonly records: number;
  /** Released paths remembered for clear errors (capped at MAX_TOMBSTONES). */
  readonly tombstones: number;
  /** Settled agents kept by the retention policy. */
  readonly retained: number;
  readonly accounts: number;
  readonly resultWaiters: number;
  readonly busy: number;
  readonly turnWaiters: number;
  /** The most distinct XState actor ids any live parent has handed its children. */
  readonly childActorIds: number;
}


/**
 * `Agent` calls a subagent answers, by `path\ncallId`: each finishes when its parent's machine
 * writes the answer (or as cancelled when its step is stopped first). One per runtime.
 */
export type AnsweredLater = Map<string, (content: string, isError: boolean) => void>;

/** Internal state of one runtime. Not public: hosts use the {@link Runtime} facade. */
export class RuntimeCore {
  /** The validated configuration (nothing else reads `RuntimeOptions`). */
  readonly config: RuntimeConfig;
  /** The host's listeners and event iterators. */
  readonly events: HostEvents;
  readonly registry: Registry;
  /** Agents by path, and the only reader of their snapshots. */
  readonly directory: Directory;
  readonly logic: AgentLogic;
  /** Issues the agents' own session ids (deterministic for a given tree id). */
  private readonly sessionIds: AgentSessionIds;
  /** Settled agents' results and final dialogues, bounded by the host's retention policy. */
  readonly retention: RetentionStore;
  private readonly resultWaiters = new Map<string, Array<{ readonly resolve: (result: AgentResult) => void; readonly reject: (error: Error) => void }>>();
  private readonly busy = new Set<string>();
  private quietWaiters: Array<() => void> = [];
  readonly ledger: UsageLedger;
  /** Budget caps of the tree: carved at spawn, checked before each model request. */
  readonly budgets: RuntimeBudgets;
  /** Calls waiting for the host's approval, journaled and answered once each. */
  readonly approvals: ApprovalDesk;
  /** Authority roles asked for and their parents lacked, found while spawning. */
  readonly narrowing: NarrowingWarnings;
  /** How every agent of this runtime words its subagents' reports (with the results completed here). */
  readonly presenter: ReportPresenter;
  /** Each result as the machine reported it → as completed here (subtree usage, elapsed time by the runtime's clock). */
  private readonly completedResults = new WeakMap<AgentResult, AgentResult>();
  /** Usage accounts of live agents, by path. */
  private readonly accounts = new Map<string, UsageAccount>();
  /** Prompts waiting for the end of their turn. */
  readonly turns: TurnWaiters = new TurnWaiters(this);
  /** The directory and effects the coordination tools (machines/coordination.ts) run against. */
  readonly coordination: CoordinationPort = runtimeCoordinationPort(this);
  /** `Agent` calls of host-streamed steps that their parents' machines answer later (tool-events.ts). */
  readonly answeredLater: AnsweredLater = new Map();
  /** Messages, prompts, notices and the hand-over to a host-run root. */
  readonly router: Router;
  /** The span builder, when the host traces (`telemetry`). */
  readonly trace: TraceBuilder | undefined;

  /** The session's journal, when the host attached a store. */
  readonly journal: SessionJournal | undefined;
  /** Outcomes a resumed session replays instead of running them again (hooks, backgrounds). */
  readonly replayed: SessionImage['agents'] | undefined;
  /** Set when the store failed: the session takes no new work. */
  failure: StoreError | undefined;

  constructor(
    options: RuntimeOptions,
    private readonly builders: CoreBuilders<RuntimeCore>,
    image?: SessionImage,
  ) {
    const config = configure(options);
    this.config = config;
    this.events = new HostEvents(config.onListenerError);
    this.registry = new Registry(config.limits);
    this.retention = new RetentionStore(config.retention);
    this.directory = new Directory(this.registry, this.retention, config.now);
    this.ledger = new UsageLedger(config.prices);
    this.presenter = reportPresenter(config.resultMetadata, (reported) => this.completedResults.get(reported) ?? reported);
    this.sessionIds = new AgentSessionIds(config.sessionId, image?.agents.size ?? 0);
    this.trace = tracingFor(config.telemetry);
    this.journal = config.store ? new SessionJournal(config.store, image) : undefined;
    this.replayed = image?.agents;
    config.store?.onFailure((error) => this.halt(error));
    this.narrowing = new NarrowingWarnings(config.onWarning);
    const events = this.events;
    this.approvals = new ApprovalDesk({
      approve: config.approve,
      rules: config.approvalRules,
      journal: this.journal,
      journaled: image?.approvals,
      requested: (request) => (events.emit('approval-requested', request), events.publish({ type: 'approval-requested', path: request.path, request })),
      answered: (answer) => (events.emit('approval-answered', answer), events.publish({ type: 'approval-answered', path: answer.path, answer })),
    });
    this.budgets = new RuntimeBudgets(
      { ...(config.budget ? { budget: config.budget } : {}), ...(config.prices ? { prices: config.prices } : {}), ...(config.maxOutputTokens !== undefined ? { maxOutputTokens: config.maxOutputTokens } : {}), rolesHaveBudgets: config.roles.haveBudgets },
      config.now,
      (warning) => events.emit('budget-warning', warning),
    );
    this.router = new Router({
      registry: this.registry,
      directory: this.directory,
      coordination: this.coordination,
      hostRoot: config.hostRoot,
      presenter: this.presenter,
      turns: this.turns,
      assertRunning: () => this.assertRunning(),
      cancelTurn: (path, reason, affected) => this.cancelTurn(path, reason, affected),
      isBusy: (path) => this.busy.has(path),
      compact: (path, dialogue, signal) => builders.compact(this, path, dialogue, signal),
    });
    this.logic = builders.logic(this);
  }

  /** Creates and starts the root agent (idle, published). */
  startRoot(): void {
    const record = this.registry.addRoot(ROOT_PATH, this.config.now());
    const model = rootModelOf(this.config);
    this.openAccount(ROOT_PATH, null, model);
    const budget = this.budgets.openRoot(ROOT_PATH, model, record.reservedAt);
    const input: AgentInput = agentInput({
      path: ROOT_PATH,
      sessionId: this.agentSessionId(),
      treeId: this.config.sessionId,
      task: null,
      system: this.config.heads.root(),
      model,
      effort: this.config.heads.presetOf(this.config.heads.root())?.defaults?.effort,
      lifetime: 'continuable',
      delivery: 'caller',
      maxSteps: this.config.defaults?.maxSteps ?? DEFAULT_MAX_STEPS,
      budget,
      startedAt: record.reservedAt,
    });
    const inspect = this.config.inspect;
    const actor = createActor(this.logic, {
      input,
      id: record.actorId,
      // Agents find each other by path (send_message): the system id is the path.
      systemId: ROOT_PATH,
      ...(inspect ? { inspect: sanitizingObserver(inspect, (error) => this.events.reportListenerError(error, 'inspect')) } : {}),
    });
    record.actor = actor;
    this.watch(record);
    actor.start();
  }

  /** The parent-delivery receipt of a subagent that has just started, under the host's metadata choice. */
  receiptOf(path: string, lifetime: string): string {
    const record = this.registry.get(path);
    const retained = record ? undefined : this.retention.get(path)?.result;
    const input = { path, role: record ? record.role : retained?.role, context: record?.contextLabel ?? retained?.context ?? '', lifetime, sessionId: this.directory.sessionIdOf(path), treeId: this.config.sessionId };
    return receiptToolContent(input, this.config.resultMetadata);
  }

  /** A new agent's own session id (the tree's id is {@link sessionId}). */
  agentSessionId(): string {
    return this.sessionIds.issue();
  }

  /** Opens the usage account of an agent about to start (under its parent's account). */
  openAccount(path: string, parentPath: string | null, model: string): void {
    const parent = parentPath === null ? undefined : this.accounts.get(parentPath);
    this.accounts.set(path, this.ledger.open(parent, model));
  }

  /**
   * Resume: reopens an agent's account with what it had spent, so its ancestors' subtree
   * totals count it again; a settled agent's account is closed once its subagents reopened theirs.
   */
  reopenAccount(path: string, parentPath: string | null, model: string, spent: Usage): () => void {
    this.openAccount(path, parentPath, model);
    this.accounts.get(path)?.set(spent);
    return () => this.accounts.delete(path);
  }

  /** An agent's own and subtree usage so far (live agents only). */
  usageOf(path: string): { readonly usage: Usage; readonly subtreeUsage: Usage } | undefined {
    const account = this.accounts.get(path);
    return account ? { usage: account.own, subtreeUsage: account.subtree } : undefined;
  }

  /** Tracks busy/idle, usage and tree changes of an agent's actor. */
  watch(record: AgentRecord): void {
    const actor = record.actor;
    if (!actor) return;
    const account = this.accounts.get(record.path);
    let last = '';
    let context: AgentContext | undefined;
    let usage: Usage | undefined;
    const journal = this.journal;
    const started = actor.getSnapshot() as { value: unknown; context: AgentContext };
    // The span opens before the descriptor is journaled, which keeps its identity for a resume.
    const span = this.trace ? traceAgentStart(this.trace, started.context.input, this.replayed?.get(record.path)?.spawn.trace) : undefined;
    if (journal) this.journalStart(journal, record.path, started, span);
    // The tree's agents word their subagents' reports with this runtime's metadata choice.
    if (record.parentPath === null) configureReports(actor.system, { presenter: this.presenter, handOver: (event) => this.router.handOverToHost(event) });
    if (record.parentPath !== null && this.events.stream.active) {
      this.events.stream.publish({
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
        context = snapshot.context;
        if (context.usage !== usage) {
          // The usage it starts with is not news; only what it spends from here on is.
          const started = usage !== undefined;
          usage = context.usage;
          // Usage is counted as it is spent, so a subtree total is current while agents run.
          account?.set(usage);
          this.budgets.spent(record.path, usage);
          if (started && account && this.events.stream.active) {
            this.events.stream.publish({ type: 'usage-updated', path: record.path, usage: account.own, subtreeUsage: account.subtree, sessionUsage: this.ledger.total() });
          }
        }
        const state = stateValueString(snapshot.value);
        journal?.observed(record.path, snapshot.context, agentPhaseOf(snapshot));
        if (state === last) return;
        last = state;
        if (isBusy(stateMetaOf(snapshot))) this.busy.add(record.path);
        else this.setNotBusy(record.path);
        // An idle agent lets its last request go (a continuable subagent may wait for hours):
        // a spawn from it rebuilds the same request from its dialogue (lastRequestOf).
        if (state === 'running.idle') record.lastRequest = undefined;
        this.events.emit('change', { path: record.path, state });
      },
      // An actor that crashes (a bug, never a model's doing) still yields its one result.
      error: (error: unknown) => {
        this.setNotBusy(record.path);
        if (context) {
          const failed: AgentResult = {
            ...resultOf(context, this.config.now()),
            status: 'failed',
            stopReason: 'internal_error',
            error: `internal error in ${record.path}: ${errorText(error)}`,
          };
          this.finished(failed, context.dialogue);
          this.reportForCrashed(record, context, failed);
        }
        this.events.emit('change', { path: record.path, state: 'settled' });
      },
      complete: () => {
        this.setNotBusy(record.path);
        // Stopped from outside (`actor.stop()` on it or an ancestor) without reaching a final
        // state: it still reports once, after the subagents its stop cancelled.
        if (context && !record.delivered && this.registry.get(record.path) === record) {
          const stopped: AgentResult = { ...resultOf(context, this.config.now()), status: 'cancelled', stopReason: 'cancelled', error: `${record.path} was stopped` };
          this.finished(stopped, context.dialogue);
          this.reportForCrashed(record, context, stopped);
          this.events.emit('change', { path: record.path, state: 'cancelled' });
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
    const parent = this.registry.get(record.parentPath)?.actor;
    if (!event || this.router.handOverToHost(event)) return;
    if (parent && parent.getSnapshot().status === 'active') parent.send(event);
  }

  /** Journals a new agent's descriptor (its parent's news first), or adopts a resumed one. */
  private journalStart(journal: SessionJournal, path: string, snapshot: { value: unknown; context: AgentContext }, span: SpanRef | undefined): void {
    if (journal.knows(path)) {
      journal.adopt(path, snapshot.context);
      return;
    }
    const parentPath = snapshot.context.input.parentPath;
    const parent = parentPath === null ? undefined : this.registry.get(parentPath)?.actor?.getSnapshot();
    journal.spawned(snapshot.context.input, parent ? { context: parent.context, phase: agentPhaseOf(parent) } : undefined, span, authorityOf(this.registry.get(path)));
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
    // Reverse reservation order stops every subagent before its parent, so no parent's stop
    // cancels anything. `stop()` refuses actors with a parent; XState's internal `_stop` is
    // the same procedure without that check.
    for (const record of [...this.registry.all()].reverse()) (record.actor as unknown as { _stop?: () => void } | undefined)?._stop?.();
    this.busy.clear();
    this.trace?.endAll('session_halted');
    const waiters = this.quietWaiters;
    this.quietWaiters = [];
    for (const resolve of waiters) resolve();
    this.events.emit('halted', { error });
  }

  /** Rejects every promise the host awaits on this session's agents (halt). */
  private rejectWaiters(error: StoreError): void {
    this.turns.failAll(error);
    const results = [...this.resultWaiters.values()];
    this.resultWaiters.clear();
    for (const list of results) for (const waiter of list) waiter.reject(error);
    for (const record of this.registry.all()) {
      const first = record.onFirstReport;
      record.onFirstReport = undefined;
      first?.reject(error);
    }
  }

  /** Throws when the session no longer takes work (its store failed). */
  assertRunning(): void {
    if (this.failure) throw new RuntimeError('session_halted', `the session stopped taking work: ${this.failure.message}`);
  }

  private setNotBusy(path: string): void {
    if (!this.busy.delete(path) || this.busy.size > 0 || this.quietWaiters.length === 0) return;
    // Checked a microtask later: an agent that just settled or ended a turn reports to its
    // parent a microtask later, and a parent it wakes is busy again by then.
    queueMicrotask(() => {
      if (this.busy.size > 0) return;
      const waiters = this.quietWaiters;
      this.quietWaiters = [];
      for (const resolve of waiters) resolve();
    });
  }

  /** Resolves when no agent is busy. */
  whenQuiet(): Promise<void> {
    // Looked at a microtask later: a report an agent just sent is still on its way to the
    // parent it will wake (agents report to their parents a microtask after they settle).
    return new Promise((resolve) =>
      queueMicrotask(() => {
        if (this.busy.size === 0) resolve();
        else this.quietWaiters.push(resolve);
      }),
    );
  }

  /** Runtime hook from the machine: a parent created a subagent's actor, about to start it. */
  adopt(path: string, actor: AnyActorRef | undefined): void {
    const record = this.registry.get(path);
    if (!record || !actor || record.actor) return;
    record.actor = actor;
    this.watch(record);
  }

  /** Runtime hook from the machine: the agent entered `running`. */
  published(path: string): void {
    this.registry.publish(path);
  }

  /**
   * Runtime hook from the machine: the agent reached `settled` or `cancelled`.
   * Exactly once per agent: the result is completed (subtree usage, elapsed time) and journaled,
   * live descendants are cancelled, the path and slot are released, and waiters get the result.
   * The agent's actor then reports it to its parent's actor (the machine's delivery).
   */
  finished(reported: AgentResult, dialogue?: DialogueView): void {
    const record = this.registry.get(reported.path);
    // A halted session invents no results (its actors are stopped where they are).
    if (!record || record.delivered || this.failure) return;
    record.delivered = true;
    const account = this.accounts.get(record.path);
    account?.set(reported.usage);
    this.accounts.delete(record.path);
    this.budgets.spent(record.path, reported.usage);
    this.budgets.settled(record.path);
    const result: AgentResult = {
      ...reported,
      // Measured on the provider's bodies when the adapter reported them; the canonical figure stays as `prefix.canonical`.
      ...(record.parentPath !== null && record.firstWire ? { prefix: wirePrefixReuse(reported.prefix, record.parentWire, record.firstWire) } : {}),
      elapsedMs: Math.max(0, this.config.now() - record.reservedAt),
      ...(account ? { usage: account.own, subtreeUsage: account.subtree } : {}),
    };
    // Journaled before its subagents are cancelled: a resume then cancels any it finds live.
    this.completedResults.set(reported, result);
    this.journal?.settled(result, dialogue);
    // A finished agent leaves no live subagents behind.
    for (const child of [...record.children]) this.cancel(child, `${reported.path} finished`);
    this.registry.release(record.path, result);
    this.retention.add(result, dialogue);
    if (this.trace) traceAgentEnd(this.trace, result);
    this.events.emit('result', result);
    this.turns.agentFinished(result);
    const waiters = this.resultWaiters.get(record.path);
    this.resultWaiters.delete(record.path);
    for (const waiter of waiters ?? []) waiter.resolve(result);
    // Whoever holds the spawn's handle (the host, a host-run root's Agent call) gets the first report.
    if (record.parentPath !== null) resolveFirstReport(record, { kind: 'result', result });
  }

  /**
   * Undoes a spawn that failed after its reservation and before its actor ran: stops the
   * actor if there is one, frees path and slot, and drops the waiters registered for it.
   */
  abandon(path: string): void {
    const record = this.registry.get(path);
    if (!record || record.delivered) return;
    record.delivered = true;
    record.onFirstReport = undefined;
    if (record.actor) releaseSubagent(record.actor, path);
    try {
      record.actor?.stop();
    } catch {
      // A failed actor may refuse to stop; it holds nothing once unreserved.
    }
    this.registry.unreserve(path);
    this.budgets.abandoned(path, record.parentPath);
    this.trace?.agentEnded(path, { status: 'failed', stopReason: 'start_failed' });
    this.resultWaiters.delete(path);
    this.setNotBusy(path);
  }

  /** Runtime hook from the machine: a continuable agent finished a turn. */
  turnEnded(reported: TurnReport): void {
    const account = this.accounts.get(reported.path);
    account?.set(reported.usage);
    const report: TurnReport = account ? { ...reported, usage: account.own, subtreeUsage: account.subtree } : reported;
    this.trace?.turnEnded(report.path, report.turn, report.status, report.stopReason);
    this.events.emit('turn', report);
    if (this.turns.has(report.path)) this.turns.turnEnded(report);
    const record = this.registry.get(report.path);
    if (record && record.parentPath !== null) resolveFirstReport(record, { kind: 'turn', text: report.text, turn: report.turn });
  }

  /** A promise of an agent's one result (already delivered results resolve at once). */
  resultOf(path: string): Promise<AgentResult> {
    // A halted session's agents were stopped where they were: their results never come.
    if (this.failure && this.registry.get(path)) return Promise.reject(this.failure);
    if (!this.registry.get(path)) {
      const done = this.retention.get(path)?.result;
      if (done) return Promise.resolve(done);
      const tomb = this.registry.tombstone(path);
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
    for (const record of this.registry.subtreePostOrder(path)) {
      if (record.delivered || !record.actor) continue;
      targets.push(record);
      stopped.push({ path: record.path, state: this.directory.stateOf(record.path) ?? 'reserved' });
    }
    // Journaled before the first agent stops: a crash mid-cascade leaves a resume what to finish.
    if (stopped.length > 0) this.journal?.cancelling({ path, ...(reason ? { reason } : {}), stopped, ...(call ? { call } : {}) });
    this.trace?.cancelled(path, stopped, reason, call ? { path: call.by, callId: call.callId } : undefined);
    for (const record of targets) {
      // An agent an earlier one's cancellation already finished (its parent's cascade) is skipped.
      if (!record.delivered) record.actor?.send({ type: 'cancel', ...(reason ? { reason } : {}) });
    }
    return { stopped };
  }

  /** An iterator over the session's events (see `Runtime.events`). */
  openEvents(options?: EventsOptions): AsyncIterableIterator<RuntimeStreamEvent> {
    return this.events.open(options, {
      running: this.failure === undefined && this.registry.get(ROOT_PATH) !== undefined,
      finished: (path) => this.registry.get(path) === undefined && (this.registry.tombstone(path) !== undefined || this.retention.get(path) !== undefined),
    });
  }

  /**
   * Cancels the turn in progress of `path`: first the subagents `affected` selects (their
   * subtrees, children first), then the turn itself. A continuable agent (and the root) goes
   * idle; a one-shot agent is cancelled. Idle agents have no turn to cancel.
   */
  cancelTurn(path: string, reason: string, affected: (child: string) => boolean = () => true): CancelReport {
    const record = this.registry.get(path);
    const state = this.directory.stateOf(path);
    const meta = this.directory.metaOf(path);
    if (!record?.actor || record.delivered || state === undefined || meta === undefined || !inTurn(meta)) return { stopped: [] };
    if (record.parentPath !== null && record.lifetime === 'one-shot') {
      const report = this.cancel(path, reason);
      this.turns.noteCancelled(path, report);
      return report;
    }
    const stopped: CancelledAgent[] = [];
    for (const child of [...record.children]) if (affected(child)) stopped.push(...this.cancel(child, reason).stopped);
    stopped.push({ path, state });
    const report: CancelReport = { stopped };
    this.turns.noteCancelled(path, report);
    // Leaving the working state stops the model request and the tool calls (aborting them).
    record.actor.send({ type: 'interrupt', reason });
    return report;
  }

  /**
   * Sizes of everything the runtime keeps per agent path, for leak checks: each must be
   * bounded by the live agents, the retention policy or a fixed cap (tombstones), never by
   * the number of agents a session has run.
   */
  footprint(): RuntimeFootprint {
    let childActorIds = 0;
    for (const record of this.registry.all()) childActorIds = Math.max(childActorIds, record.childIds.distinct);
    return {
      records: this.registry.size,
      tombstones: this.registry.tombstoneCount,
      retained: this.retention.size,
      accounts: this.accounts.size,
      resultWaiters: this.resultWaiters.size,
      busy: this.busy.size,
      turnWaiters: this.turns.size,
      childActorIds,
    };
  }
}

/** Resolves the spawn handle's `firstReport` with the agent's first report (once). */
function resolveFirstReport(record: AgentRecord, report: FirstReportValue): void {
  const waiter = record.onFirstReport;
  record.onFirstReport = undefined;
  waiter?.resolve(report);
}

export function sanitizingObserver(
  inspect: Observer<InspectionEvent> | ((event: InspectionEvent) => void),
  onError: (error: unknown) => void,
): Observer<InspectionEvent> {
  const next = typeof inspect === 'function' ? inspect : inspect.next?.bind(inspect);
  return {
    next: (event: InspectionEvent) => {
      // An observer's bug must not fail (or half-start) the agent being observed.
      try {
        next?.(sanitizeInspectionEvent(event));
      } catch (error) {
        onError(error);
      }
    },
  };
}
