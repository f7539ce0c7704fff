/**
 * The runtime's budget service: which budget each agent gets, carving it at reservation,
 * charging what agents spend, checking each model request before it is sent, and rebuilding
 * the accounts on resume. The core calls it at a handful of seams (root start, spawn, usage
 * change, settle, abandon); the arithmetic is the {@link BudgetLedger}'s.
 */
import type { AgentInput } from '../../machines/agent.types.js';
import type { Dialogue } from '../dialogue/dialogue.js';
import { userEntry, type Entry, type UserEntry } from '../dialogue/entry.js';
import { jsonLength } from '../dialogue/json-length.js';
import type { Usage } from '../request/usage.js';
import type { ModelRequest } from '../request/types.js';
import { estimateTokens, requestHeadBytes } from '../request/prefix-reuse.js';
import type { ModelPrice, PriceTable } from '../model/prices.js';
import { BudgetError, capsAnything, checkBudget, exceedsCeiling, formatAmount, tighterBudget, type Budget } from '../policy/budget.js';
import { BudgetLedger, type BudgetRemaining, type BudgetWarning, type CarvePlan, type RequestHold } from './budget-ledger.js';
import type { Pool } from './budget-pool.js';

/** The output a reply is assumed to use at most when no `maxOutputTokens` is configured. */
export const DEFAULT_MAX_OUTPUT_TOKENS = 4096;

/** What the budget service needs from the runtime's options. */
export interface BudgetOptions {
  readonly budget?: Budget;
  readonly prices?: PriceTable;
  readonly maxOutputTokens?: number;
  /** Whether any role has a budget (then the `Agent` tool offers one). */
  readonly rolesHaveBudgets: boolean;
  /** `RuntimeOptions.budgetNotice`: a soft limit reached adds a notice to the next request. */
  readonly notices?: boolean;
}

/** A budget notice taken for an agent's next model request: its entry, and what it tells of. */
export interface BudgetNotice {
  readonly entry: UserEntry;
  readonly pools: readonly Pool[];
}

/** Where a spawn's budget comes from, lowest precedence first. */
export interface SpawnBudgetSources {
  /** The role's `budget`. */
  readonly role?: Budget | undefined;
  /** The host's (`runtime.spawn` options or `spawnPolicy`): replaces the role's. */
  readonly host?: Budget | undefined;
  /** The model's `Agent` call: may only be smaller than the role's or host's. */
  readonly asked?: unknown;
  /** Names the role in messages. */
  readonly roleLabel?: string;
}

/** What a request's estimate reads. */
type EstimatedRequest = Pick<ModelRequest, 'system' | 'model' | 'effort' | 'output'> & { readonly messages: Iterable<Entry> };

/** The runtime's budgets. */
export class RuntimeBudgets {
  readonly ledger: BudgetLedger;
  /** Whether the session has budgets at all: the `Agent` tool then offers `budget`, and requests are estimated. */
  readonly enabled: boolean;
  readonly maxOutputTokens: number;
  private readonly rootBudget: Budget | undefined;

  constructor(
    private readonly options: BudgetOptions,
    now: () => number,
    onWarning: (warning: BudgetWarning) => void,
  ) {
    this.rootBudget = options.budget === undefined ? undefined : checkBudget(options.budget, 'RuntimeOptions.budget');
    const max = options.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS;
    if (!Number.isSafeInteger(max) || max <= 0) throw new TypeError(`RuntimeOptions.maxOutputTokens must be a positive integer; got ${String(options.maxOutputTokens)}`);
    this.maxOutputTokens = max;
    this.enabled = capsAnything(this.rootBudget) || options.rolesHaveBudgets;
    this.ledger = new BudgetLedger(now, onWarning);
    this.ledger.notices = options.notices === true;
  }

  /** The price of `model`, when the host priced it. */
  priceOf(model: string): ModelPrice | undefined {
    const prices = this.options.prices;
    return prices && Object.hasOwn(prices, model) ? prices[model] : undefined;
  }

  /**
   * Opens the root's account with the session's budget. A cost cap on a model without a price
   * is refused here, at start (a `TypeError` from `createRuntime`).
   */
  openRoot(path: string, model: string, startedAt: number): Budget | undefined {
    try {
      this.ledger.open({ path, parentPath: null, budget: this.rootBudget, price: this.priceOf(model), model, startedAt });
    } catch (error) {
      if (error instanceof BudgetError) throw new TypeError(`RuntimeOptions.budget: ${error.message}`, { cause: error });
      throw error;
    }
    return capsAnything(this.rootBudget) ? this.rootBudget : undefined;
  }

  /**
   * The budget a spawn asks for: the host's (else the role's), narrowed by what the model
   * asked. A model asking for more than the role or host allows is refused with a
   * {@link BudgetError} naming the dimension.
   */
  spawnBudget(sources: SpawnBudgetSources): Budget | undefined {
    const ceiling = sources.host ?? sources.role;
    if (sources.asked === undefined) return capsAnything(ceiling) ? ceiling : undefined;
    const asked = checkBudget(sources.asked, 'Agent budget');
    // No role's or host's budget to stay under (the common case): the model's ask, as checked.
    if (ceiling === undefined) return capsAnything(asked) ? asked : undefined;
    const over = exceedsCeiling(asked, ceiling)[0];
    if (over) {
      const whose = sources.host ? "the host's budget for this spawn" : `the budget of ${sources.roleLabel ?? 'its role'}`;
      throw new BudgetError(over.dimension, over.asked, over.ceiling, `a subagent may get a smaller budget than ${whose}, never a larger one: ${over.dimension} ${formatAmount(over.dimension, over.asked)} asked, ${formatAmount(over.dimension, over.ceiling)} allowed`);
    }
    const budget = tighterBudget(ceiling, asked);
    return capsAnything(budget) ? budget : undefined;
  }

  /**
   * Checks, without taking anything, that a spawn's carve fits now (the early check). Returns
   * the plan for {@link carve}, which reuses it when nothing changed in between.
   */
  precheck(path: string, parentPath: string, budget: Budget | undefined, model: string, startedAt: number): CarvePlan {
    return this.ledger.check({ path, parentPath, budget, price: this.priceOf(model), model, startedAt });
  }

  /**
   * Carves a subagent's budget from its parent's (synchronous; throws a {@link BudgetError},
   * taking nothing). `checked`: what {@link precheck} returned for this spawn.
   */
  carve(path: string, parentPath: string, budget: Budget | undefined, model: string, startedAt: number, checked?: CarvePlan): void {
    this.ledger.open({ path, parentPath, budget, price: this.priceOf(model), model, startedAt }, checked);
  }

  /** Resume: reopens an agent's account as its descriptor and usage say; returns what closes it. */
  restore(input: AgentInput, spent: Usage): () => void {
    this.ledger.open({ path: input.path, parentPath: input.parentPath, budget: input.budget, price: this.priceOf(input.model), model: input.model, startedAt: input.startedAt, restoring: true });
    this.ledger.restoring = true;
    try {
      this.ledger.sync(input.path, spent);
    } finally {
      this.ledger.restoring = false;
    }
    return () => this.ledger.settle(input.path);
  }

  /** An agent's usage grew. */
  spent(path: string, usage: Usage): void {
    this.ledger.sync(path, usage);
  }

  /** An agent settled: its unused budget goes back to its parent's. */
  settled(path: string): void {
    this.ledger.settle(path);
  }

  /** A spawn was undone before its agent ran: everything it carved goes back. */
  abandoned(path: string, parentPath: string | null): void {
    this.ledger.abandon(path, parentPath);
  }

  /**
   * Holds a model request's estimate, or says why it may not be sent. `dialogue`: the dialogue
   * whose effective entries are `request.messages` (the estimate then walks only what it
   * appended since the last request). Undefined when the agent
   * is not capped at all (nothing is estimated then).
   */
  beforeRequest(path: string, request: EstimatedRequest, dialogue?: Pick<Dialogue, 'effectiveJsonLength'>): RequestHold | BudgetError | undefined {
    if (!this.ledger.capped(path)) return undefined;
    const inputTokens = estimateTokens(inputSizeOf(request, dialogue));
    return this.ledger.beginRequest(path, { inputTokens, outputTokens: this.maxOutputTokens });
  }

  /**
   * The notice for an agent's next model request, when a soft limit it spends under was reached
   * since its last one (only with `RuntimeOptions.budgetNotice`): one user entry naming, per
   * cap, the dimension, what is used and what remains. Taken once; {@link returnNotice} gives it
   * back when the request it went into was never answered.
   */
  takeNotice(path: string): BudgetNotice | undefined {
    if (!this.ledger.notices) return undefined;
    const pools = this.ledger.takeNotices(path);
    if (!pools) return undefined;
    return { entry: userEntry({ text: noticeText(path, pools), origin: { kind: 'notice', from: (pools[0] as Pool).owner }, opensTurn: false }), pools };
  }

  /** A request with this notice failed: the agent's next request carries it instead. */
  returnNotice(path: string, notice: BudgetNotice): void {
    this.ledger.returnNotices(path, notice.pools);
  }

  /** A request ended: its hold is released and what it cost (when it answered) charged. */
  afterRequest(hold: RequestHold, used: Usage | undefined): void {
    this.ledger.endRequest(hold, used);
  }

  /** What an agent may still spend, per capped dimension (live agents only). */
  remaining(path: string): BudgetRemaining | undefined {
    return this.ledger.remaining(path);
  }
}

/**
 * A request's input size for the budget estimate: its head and model frame as the wire
 * serializes them (measured once per head), plus each message's JSON length. From the
 * dialogue the messages are its effective entries of, when given: it keeps the sum with its
 * log, so only what was appended since the last request is walked.
 */
function inputSizeOf(request: EstimatedRequest, dialogue: Pick<Dialogue, 'effectiveJsonLength'> | undefined): number {
  const head = requestHeadBytes(request);
  if (dialogue) return head + dialogue.effectiveJsonLength();
  let size = head;
  for (const entry of request.messages) size += jsonLength(entry);
  return size;
}

/**
 * A budget notice's text, as the agent reads it: per cap, whose it is, the dimension, the soft
 * limit reached, what is used and what remains (as the pools stand when the request is made).
 */
function noticeText(path: string, pools: readonly Pool[]): string {
  const lines = pools.map((pool) => {
    const dimension = pool.dimension;
    const whose = pool.owner === path ? 'your' : `${pool.owner}'s`;
    const who = pool.owner === path ? 'you and every agent under you' : 'you';
    return `- ${whose} ${dimension} budget (${who} spend from it) reached ${Math.round(pool.soft * 100)}%: ${formatAmount(dimension, pool.used)} used of ${formatAmount(dimension, pool.limit)}, ${formatAmount(dimension, Math.max(0, pool.remaining))} left.`;
  });
  return `Budget notice from the runtime:\n${lines.join('\n')}\nA model request that could cross a budget is not sent: finish within what is left.`;
}
