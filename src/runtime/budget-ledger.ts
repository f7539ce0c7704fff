/**
 * Budget accounts of the agent tree. An agent with its own cap in a dimension holds a pool
 * carved from the nearest pool above it (its parent's, or an ancestor's); an agent without one
 * spends from that nearest pool directly. Carving, charging and returning are synchronous and
 * O(1) per dimension, so a spawn's carve happens in the same step as its path and slot
 * reservation: two parents racing for the last of a budget cannot both win.
 *
 * A model request holds its estimate (input estimate plus output limit, one step) in its pool
 * while it runs, so agents sampling at once cannot together cross a cap; when it ends, what it
 * really cost is charged instead. Other spending (summaries, compactions) is charged when the
 * agent's usage grows.
 */
import { addUsage, type Usage } from '../request/usage.js';
import { costOf, type ModelPrice } from '../model/prices.js';
import { BUDGET_DIMENSIONS, BudgetError, DEFAULT_SOFT_LIMIT, formatAmount, type Budget, type BudgetDimension } from '../policy/budget.js';
import { Pool, POOLED, refusal, type BudgetRemaining, type BudgetWarning, type PooledDimension, type RequestEstimate, type RequestHold } from './budget-pool.js';
import { grew, maxUsage, positiveDelta } from './budget-usage.js';

export type { BudgetRemaining, BudgetWarning, RequestEstimate, RequestHold } from './budget-pool.js';

/** One carve a plan makes: `limit` of `dimension`, taken from `from` (undefined: nothing above is capped there). */
interface Carve {
  readonly dimension: PooledDimension;
  readonly limit: number;
  readonly from: Pool | undefined;
}

/**
 * What opening an account would carve, as {@link BudgetLedger.check} found it. `open` takes it
 * instead of planning again while nothing in the ledger has changed since (same revision, same
 * request): a spawn checks early and carves later, often in the same synchronous run.
 */
export interface CarvePlan {
  readonly revision: number;
  readonly request: OpenAccount;
  readonly carves: readonly Carve[];
}

const NO_CARVES: readonly Carve[] = Object.freeze([]);

/**
 * One agent's budget account: its nearest pool per dimension as a field each (its own, else
 * its parent's nearest, copied at opening). One object of a fixed shape per spawn: no table
 * filled key by key and no list of its own pools (a pool is its own when the agent owns it),
 * since a fan-out keeps one account per live subagent through every scavenge.
 */
class BudgetAccount {
  tokens: Pool | undefined;
  costUsd: Pool | undefined;
  steps: Pool | undefined;
  spawns: Pool | undefined;
  /** Absolute time after which no request starts (ms on the runtime's clock). */
  deadline: number | undefined;
  /** Own usage already charged. */
  seen: Usage | undefined;
  /** Pools whose soft limit was reached since its last model request (only with notices on). */
  notices: Pool[] | undefined;

  constructor(
    readonly path: string,
    readonly price: ModelPrice | undefined,
    parent: BudgetAccount | undefined,
  ) {
    this.tokens = parent?.tokens;
    this.costUsd = parent?.costUsd;
    this.steps = parent?.steps;
    this.spawns = parent?.spawns;
  }

  /** The pools it owns (its own caps), in {@link POOLED} order. */
  ownPools(): Pool[] {
    const own: Pool[] = [];
    for (let i = 0; i < POOLED.length; i++) {
      const pool = this[POOLED[i] as PooledDimension];
      if (pool !== undefined && pool.owner === this.path) own.push(pool);
    }
    return own;
  }
}

/** What opening an account takes. */
export interface OpenAccount {
  readonly path: string;
  readonly parentPath: string | null;
  /** The agent's own caps (absent: it spends from its parent's). */
  readonly budget: Budget | undefined;
  /** The price of the agent's model, when the host priced it. */
  readonly price: ModelPrice | undefined;
  readonly model: string;
  readonly startedAt: number;
  /**
   * Resume: rebuild the account as it was, without checking what remains (its carve was
   * checked when it was first made).
   */
  readonly restoring?: boolean;
}

/** The session's budget accounts, by path. */
export class BudgetLedger {
  private readonly accounts = new Map<string, BudgetAccount>();
  /** Counts every change to accounts and pools: a plan made at an older revision is made again. */
  private revision = 0;

  /**
   * Whether reaching a soft limit also leaves a notice for the agent whose cap it is and the
   * agent whose spending reached it, taken with {@link takeNotices} before its next request.
   */
  notices = false;
  /** Set while a resume charges restored usage: a soft limit reached then was reached before the crash. */
  restoring = false;

  constructor(
    private readonly now: () => number,
    private readonly onWarning: (warning: BudgetWarning) => void,
  ) {}

  /** Open accounts (for leak checks). */
  get size(): number {
    return this.accounts.size;
  }

  /**
   * Checks that `open` would succeed now, without taking anything (the spawn's early check,
   * before confirmation); throws the same {@link BudgetError}. What it returns lets `open`
   * skip planning again when nothing changed in between.
   */
  check(request: OpenAccount): CarvePlan {
    const parent = request.parentPath === null ? undefined : this.accounts.get(request.parentPath);
    const carves = this.carvesOf(request, parent);
    this.deadlineOf(request, parent);
    return { revision: this.revision, request, carves };
  }

  /**
   * Opens an agent's account: carves its own caps from the pools above it and charges the
   * spawn. Throws a {@link BudgetError} and takes nothing when a carve does not fit. `checked`:
   * what {@link check} returned for the same request; used only while nothing has changed since
   * (the wall-time checks, which depend on the clock, are made again).
   */
  open(request: OpenAccount, checked?: CarvePlan): void {
    const parent = request.parentPath === null ? undefined : this.accounts.get(request.parentPath);
    const carves = checked !== undefined && checked.revision === this.revision && samePlanRequest(checked.request, request) ? checked.carves : this.carvesOf(request, parent);
    const deadline = this.deadlineOf(request, parent);
    this.revision++;
    const account = new BudgetAccount(request.path, request.price, parent);
    account.deadline = deadline;
    // Walked by index: a spawn makes no iterator here.
    for (let i = 0; i < carves.length; i++) {
      const { dimension, limit, from } = carves[i] as Carve;
      if (from) from.reserved += limit;
      account[dimension] = new Pool(request.path, dimension, limit, request.budget?.softLimit ?? DEFAULT_SOFT_LIMIT, from);
    }
    // The spawn itself is spent from the parent's spawn pool, for good (on resume too: the
    // journal holds the spawn, not the count).
    const spawnPool = parent?.spawns;
    if (spawnPool) this.spend(spawnPool, 1, request.path);
    this.accounts.set(request.path, account);
  }

  /** What opening would carve from the pools above, or the error that refuses it. */
  private carvesOf(request: OpenAccount, parent: BudgetAccount | undefined): readonly Carve[] {
    const budget = request.budget;
    let count = 0;
    if (budget !== undefined) for (let i = 0; i < POOLED.length; i++) if (budget[POOLED[i] as PooledDimension] !== undefined) count++;
    // Exactly as long as it will be (a pushed-to empty array takes room for 16).
    const carves = count === 0 ? NO_CARVES : new Array<Carve>(count);
    let carved = 0;
    const check = !request.restoring;
    const what = request.parentPath === null ? 'the session' : request.path;
    for (let i = 0; i < POOLED.length; i++) {
      const dimension = POOLED[i] as PooledDimension;
      const from = parent?.[dimension];
      const limit = budget?.[dimension];
      // The spawn itself takes one from the parent's spawn pool.
      const extra = dimension === 'spawns' && from ? 1 : 0;
      const asked = (limit ?? 0) + extra;
      if (check && from) {
        const remaining = from.remaining;
        if (limit !== undefined ? asked > remaining : extra > 0 ? remaining < 1 : remaining <= 0) {
          const message =
            limit !== undefined
              ? `${what} cannot get a budget of ${formatAmount(dimension, limit)}${extra ? ' (plus itself)' : ''}: ${from.owner}'s budget has ${formatAmount(dimension, Math.max(0, remaining))} left`
              : `${what} cannot start: ${from.owner}'s ${dimension} budget is spent (${formatAmount(dimension, Math.max(0, remaining))} left of ${formatAmount(dimension, from.limit)})`;
          throw new BudgetError(dimension, asked, Math.max(0, remaining), message);
        }
      }
      if (limit !== undefined) (carves as Carve[])[carved++] = { dimension, limit, from };
    }
    if (check && request.price === undefined && (budget?.costUsd !== undefined || parent?.costUsd !== undefined)) {
      throw new BudgetError('costUsd', 0, 0, `${what} runs model ${request.model}, which has no price in RuntimeOptions.prices, under a costUsd budget: its cost could not be counted`);
    }
    return carves;
  }

  /** The account's deadline (its own `wallMs` or its parent's, the earlier), or the error that refuses it now. */
  private deadlineOf(request: OpenAccount, parent: BudgetAccount | undefined): number | undefined {
    const budget = request.budget;
    const check = !request.restoring;
    const what = request.parentPath === null ? 'the session' : request.path;
    let deadline = parent?.deadline;
    if (budget?.wallMs !== undefined) {
      const own = request.startedAt + budget.wallMs;
      const left = deadline === undefined ? Infinity : deadline - this.now();
      if (check && parent && budget.wallMs > left) {
        throw new BudgetError('wallMs', budget.wallMs, Math.max(0, left), `${what} cannot get a budget of ${formatAmount('wallMs', budget.wallMs)}: ${request.parentPath}'s time budget has ${formatAmount('wallMs', Math.max(0, left))} left`);
      }
      deadline = deadline === undefined ? own : Math.min(deadline, own);
    }
    if (check && parent && deadline !== undefined && budget?.wallMs === undefined && deadline <= this.now()) {
      throw new BudgetError('wallMs', 0, 0, `${what} cannot start: the time budget of ${request.parentPath} has run out`);
    }
    return deadline;
  }

  /**
   * Closes a settled agent's account: what its own caps did not use goes back to the pools they
   * were carved from (what it spent stays spent there).
   */
  settle(path: string): void {
    const account = this.accounts.get(path);
    if (!account) return;
    this.accounts.delete(path);
    this.revision++;
    for (let i = 0; i < POOLED.length; i++) {
      const pool = account[POOLED[i] as PooledDimension];
      if (pool === undefined || pool.owner !== path) continue;
      pool.closed = true;
      const from = pool.from;
      if (!from) continue;
      from.reserved -= pool.limit;
      // A subagent still holding part of this pool keeps it spent (it cannot return it here).
      this.spend(from, pool.used + pool.reserved, path);
    }
  }

  /**
   * Undoes an account whose agent never ran (its spawn failed after the carve): its carves and
   * the spawn it was charged for go back in full.
   */
  abandon(path: string, parentPath: string | null): void {
    const account = this.accounts.get(path);
    if (!account) return;
    this.accounts.delete(path);
    this.revision++;
    for (const pool of account.ownPools()) {
      pool.closed = true;
      if (pool.from) pool.from.reserved -= pool.limit;
    }
    const spawnPool = parentPath === null ? undefined : this.accounts.get(parentPath)?.spawns;
    if (spawnPool) spawnPool.used = Math.max(0, spawnPool.used - 1);
  }

  /** Charges an agent's own usage: its running total (only what is new counts). */
  sync(path: string, total: Usage): void {
    const account = this.accounts.get(path);
    if (!account) return;
    const seen = account.seen;
    if (!seen) {
      account.seen = total;
      this.charge(account, total);
      return;
    }
    // Usually nothing is new (a request's cost was charged when it ended): no objects then.
    if (!grew(total, seen)) return;
    account.seen = maxUsage(seen, total);
    this.charge(account, positiveDelta(total, seen));
  }

  /**
   * Holds a model request's estimate in the agent's pools, or returns the {@link BudgetError}
   * that refuses it (nothing is held then): a request that could cross a cap is not sent.
   */
  beginRequest(path: string, estimate: RequestEstimate): RequestHold | BudgetError {
    const account = this.accounts.get(path);
    if (!account) return { path, steps: undefined, tokens: undefined, tokenAmount: 0, cost: undefined, costAmount: 0 };
    if (account.deadline !== undefined) {
      const now = this.now();
      if (now >= account.deadline) return new BudgetError('wallMs', 0, 0, `the time budget ran out ${formatAmount('wallMs', now - account.deadline)} ago`);
    }
    // Checked in a fixed order (steps, tokens, cost) without a table per request: this runs
    // before every model request of a capped agent.
    const { steps, tokens, costUsd } = account;
    const tokenAmount = estimate.inputTokens + estimate.outputTokens;
    const costAmount = account.price && costUsd ? costOf({ inputTokens: estimate.inputTokens, outputTokens: estimate.outputTokens, cacheReadTokens: 0, cacheWriteTokens: 0, requests: 1, retries: 0 }, account.price) : 0;
    const refused = (steps && refusal(path, steps, 1, estimate)) || (tokens && refusal(path, tokens, tokenAmount, estimate)) || (costUsd && account.price && refusal(path, costUsd, costAmount, estimate));
    if (refused) return refused;
    const cost = costUsd && account.price ? costUsd : undefined;
    if (steps) steps.reserved += 1;
    if (tokens) tokens.reserved += tokenAmount;
    if (cost) cost.reserved += costAmount;
    this.revision++;
    return { path, steps, tokens, tokenAmount, cost, costAmount };
  }

  /**
   * Ends a request: releases its hold and charges what it cost (`used`: nothing when it failed
   * or was aborted; the usage it did report is charged when the agent's usage grows).
   */
  endRequest(hold: RequestHold, used: Usage | undefined): void {
    if (hold.steps) hold.steps.reserved -= 1;
    if (hold.tokens) hold.tokens.reserved -= hold.tokenAmount;
    if (hold.cost) hold.cost.reserved -= hold.costAmount;
    this.revision++;
    if (!used) return;
    const account = this.accounts.get(hold.path);
    if (!account) return;
    // Charged now, before another request can take what the hold just freed; counted as seen
    // so the agent's usage growing by the same amount charges nothing twice.
    account.seen = account.seen ? addUsage(account.seen, used) : used;
    this.charge(account, used);
  }

  /** What an agent may still spend, per dimension its subtree is capped in. */
  remaining(path: string): BudgetRemaining | undefined {
    const account = this.accounts.get(path);
    if (!account) return undefined;
    const out: { -readonly [K in BudgetDimension]?: number } = {};
    for (const dimension of BUDGET_DIMENSIONS) {
      if (dimension === 'wallMs') {
        if (account.deadline !== undefined) out.wallMs = Math.max(0, account.deadline - this.now());
        continue;
      }
      const pool = account[dimension];
      if (pool) out[dimension] = Math.max(0, pool.remaining);
    }
    return out;
  }

  /** Whether any account is capped at all (the runtime skips estimates when none is). */
  capped(path: string): boolean {
    const account = this.accounts.get(path);
    if (account === undefined) return false;
    if (account.deadline !== undefined) return true;
    for (let i = 0; i < POOLED.length; i++) if (account[POOLED[i] as PooledDimension] !== undefined) return true;
    return false;
  }

  private charge(account: BudgetAccount, delta: Usage): void {
    const tokens = delta.inputTokens + delta.outputTokens;
    if (tokens > 0 && account.tokens) this.spend(account.tokens, tokens, account.path);
    if (delta.requests > 0 && account.steps) this.spend(account.steps, delta.requests, account.path);
    if (account.price && account.costUsd) {
      const cost = costOf(delta, account.price);
      if (cost > 0) this.spend(account.costUsd, cost, account.path);
    }
  }

  private spend(pool: Pool, amount: number, by: string): void {
    if (amount <= 0) return;
    pool.used += amount;
    this.revision++;
    if (pool.warned || pool.closed || pool.used < pool.soft * pool.limit) return;
    pool.warned = true;
    // A notice of a limit reached before a crash is in the journaled dialogue, if it was sent.
    if (this.notices && !this.restoring) {
      this.leaveNotice(pool.owner, pool);
      if (by !== pool.owner) this.leaveNotice(by, pool);
    }
    this.onWarning({ path: pool.owner, by, dimension: pool.dimension, limit: pool.limit, used: pool.used, remaining: Math.max(0, pool.remaining) });
  }

  private leaveNotice(path: string, pool: Pool): void {
    const account = this.accounts.get(path);
    if (account) (account.notices ??= []).push(pool);
  }

  /**
   * The pools whose soft limit was reached since the agent's last model request, each once
   * (then forgotten: the next call returns undefined until another is reached).
   */
  takeNotices(path: string): readonly Pool[] | undefined {
    const account = this.accounts.get(path);
    const notices = account?.notices;
    if (!account || !notices) return undefined;
    account.notices = undefined;
    return notices;
  }

  /** Leaves notices taken for a request that was never answered for the agent's next one. */
  returnNotices(path: string, pools: readonly Pool[]): void {
    const account = this.accounts.get(path);
    if (account) account.notices = [...pools, ...(account.notices ?? [])];
  }
}

/** Whether a plan made for `a` holds for `b` (the same spawn, asking the same). */
function samePlanRequest(a: OpenAccount, b: OpenAccount): boolean {
  return a.path === b.path && a.parentPath === b.parentPath && a.budget === b.budget && a.price === b.price && a.model === b.model && a.restoring === b.restoring;
}
