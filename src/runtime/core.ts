/**
 * The runtime's internal state and the lifecycle plumbing every other runtime module uses:
 * watching actors, delivering results exactly once, cancelling subtrees children-first.
 */
import type { InspectionEvent, Observer } from 'xstate';
import { createActor } from 'xstate';
import type { AgentInput } from '../../machines/agent.types.js';
import { agentInput } from '../../machines/agent.input.js';
import type { AgentLogic, CoreBuilders } from './core-builders.js';
import { sanitizeInspectionEvent } from '../inspect/sanitize.js';
import { ROOT_PATH } from './paths.js';
import { Registry } from './registry.js';
import { RetentionStore } from './retention.js';
import { type CoordinationPort } from '../../machines/coordination.js';
import { runtimeCoordinationPort } from './coordination-port.js';
import { SessionJournal } from '../store/journal.js';
import type { SessionImage } from '../store/replay.js';
import { receiptToolContent, reportPresenter, type ReportPresenter } from '../../machines/subagent-reports.js';
import { UsageLedger, type UsageAccount } from './usage-ledger.js';
import { RuntimeBudgets } from './budgets.js';
import { ApprovalDesk } from './approvals.js';
import { NarrowingWarnings } from './narrowing.js';
import type { Usage } from '../model/adapter.js';
import { DEFAULT_MAX_STEPS, TurnWaiters } from './turns.js';
import type { RuntimeOptions } from './types.js';
import { configure, rootModelOf, type RuntimeConfig } from './config.js';
import { HostEvents } from './host-events.js';
import { Router } from './router.js';
import { Lifecycle } from './lifecycle.js';
import { Directory } from './directory.js';
import type { EventsOptions, RuntimeStreamEvent } from './stream-events.js';
import type { TraceBuilder } from '../otel/trace-builder.js';
import { tracingFor } from '../otel/load.js';
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
 * `Agent` calls a subagent answers, by the calling agent's path, then call id: each finishes
 * when its parent's machine writes the answer (or as cancelled when its step is stopped
 * first). One per runtime. Two maps rather than one keyed by a joined string: the path and
 * id strings are the machine's own (their hashes kept), a joined key would be built per call.
 */
export type AnsweredLater = Map<string, Map<string, { answered(content: string, isError: boolean): void }>>;

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
  readonly ledger: UsageLedger;
  /** Budget caps of the tree: carved at spawn, checked before each model request. */
  readonly budgets: RuntimeBudgets;
  /** Calls waiting for the host's approval, journaled and answered once each. */
  readonly approvals: ApprovalDesk;
  /** Authority roles asked for and their parents lacked, found while spawning. */
  readonly narrowing: NarrowingWarnings;
  /** How every agent of this runtime words its subagents' reports (with the results completed here). */
  readonly presenter: ReportPresenter;
  /** Usage accounts of live agents, by path. */
  private readonly accounts = new Map<string, UsageAccount>();
  /** The machine's port: publishing, adopting, finishing, turns; cancellation, halting, quiet and result waiters. */
  readonly lifecycle: Lifecycle;
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
    this.presenter = reportPresenter(config.resultMetadata);
    this.sessionIds = new AgentSessionIds(config.sessionId, image?.agents.size ?? 0);
    this.trace = tracingFor(config.telemetry);
    this.journal = config.store ? new SessionJournal(config.store, image) : undefined;
    this.replayed = image?.agents;
    config.store?.onFailure((error) => this.lifecycle.halt(error));
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
      { ...(config.budget ? { budget: config.budget } : {}), ...(config.prices ? { prices: config.prices } : {}), ...(config.maxOutputTokens !== undefined ? { maxOutputTokens: config.maxOutputTokens } : {}), rolesHaveBudgets: config.roles.haveBudgets, notices: config.budgetNotice === true },
      config.now,
      (warning) => events.emit('budget-warning', warning),
    );
    this.lifecycle = new Lifecycle({
      config,
      events,
      registry: this.registry,
      directory: this.directory,
      retention: this.retention,
      budgets: this.budgets,
      ledger: this.ledger,
      accounts: this.accounts,
      turns: this.turns,
      journal: this.journal,
      trace: this.trace,
      replayed: this.replayed,
      presenter: this.presenter,
      handOver: (event) => this.router.handOverToHost(event),
    });
    const lifecycle = this.lifecycle;
    this.router = new Router({
      registry: this.registry,
      directory: this.directory,
      coordination: this.coordination,
      hostRoot: config.hostRoot,
      presenter: this.presenter,
      turns: this.turns,
      assertRunning: () => lifecycle.assertRunning(),
      cancelTurn: (path, reason, affected) => lifecycle.cancelTurn(path, reason, affected),
      isBusy: (path) => lifecycle.isBusy(path),
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
    this.lifecycle.watch(record);
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

  /** An iterator over the session's events (see `Runtime.events`). */
  openEvents(options?: EventsOptions): AsyncIterableIterator<RuntimeStreamEvent> {
    return this.events.open(options, {
      running: this.lifecycle.failure === undefined && this.registry.get(ROOT_PATH) !== undefined,
      finished: (path) => this.registry.get(path) === undefined && (this.registry.tombstone(path) !== undefined || this.retention.get(path) !== undefined),
    });
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
      resultWaiters: this.lifecycle.resultWaiterCount,
      busy: this.lifecycle.busyCount,
      turnWaiters: this.turns.size,
      childActorIds,
    };
  }
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
