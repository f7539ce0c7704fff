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
import type { Usage } from '../request/usage.js';
import { costOf, type ModelPrice } from '../model/prices.js';
import { BUDGET_DIMENSIONS, BudgetError, DEFAULT_SOFT_LIMIT, formatAmount, type Budget, type BudgetDimension } from '../policy/budget.js';

/** Dimensions held in pools (wall time is a deadline instead). */
type PooledDimension = Exclude<BudgetDimension, 'wallMs'>;
const POOLED: readonly PooledDimension[] = ['tokens', 'costUsd', 'steps', 'spawns'];

/** One capped dimension of one agent's subtree. */
class Pool {
  used = 0;
  reserved = 0;
  warned = false;
  closed = false;
  constructor(
    readonly owner: string,
    readonly dimension: PooledDimension,
    readonly limit: number,
    readonly soft: number,
  ) {}

  get remaining(): number {
    return this.limit - this.used - this.reserved;
  }
}

/** A `budget-warning`: a cap's soft limit was reached. */
export interface BudgetWarning {
  /** The agent whose cap it is (its subtree spends from it). */
  readonly path: string;
  /** The agent whose spending reached the soft limit. */
  readonly by: string;
  readonly dimension: BudgetDimension;
  readonly limit: number;
  readonly used: number;
  readonly remaining: number;
}

/** What one agent may still spend, per capped dimension (what its own or nearest cap leaves). */
export type BudgetRemaining = Partial<Record<BudgetDimension, number>>;

/** A model request's hold on its pools, released when the request ends. */
export interface RequestHold {
  readonly path: string;
  readonly holds: ReadonlyArray<readonly [Pool, number]>;
}

/** What a model request is estimated to use at most. */
export interface RequestEstimate {
  readonly inputTokens: number;
  readonly outputTokens: number;
}

/** One agent's budget account. */
class BudgetAccount {
  /** The nearest pool per dimension: its own, else its parent's nearest. */
  readonly holders: Partial<Record<PooledDimension, Pool>> = {};
  /** Its own pools and what each took from the pool above it (0 when nothing above was capped). */
  readonly own: Array<{ pool: Pool; from: Pool | undefined; carved: number }> = [];
  /** Absolute time after which no request starts (ms on the runtime's clock). */
  deadline: number | undefined;
  /** Own usage already charged. */
  seen: Usage | undefined;

  constructor(
    readonly path: string,
    readonly price: ModelPrice | undefined,
  ) {}
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
   * before confirmation); throws the same {@link BudgetError}.
   */
  check(request: OpenAccount): void {
    this.plan(request);
  }

  /**
   * Opens an agent's account: carves its own caps from the pools above it and charges the
   * spawn. Throws a {@link BudgetError} and takes nothing when a carve does not fit.
   */
  open(request: OpenAccount): void {
    const plan = this.plan(request);
    const account = new BudgetAccount(request.path, request.price);
    const parent = request.parentPath === null ? undefined : this.accounts.get(request.parentPath);
    if (parent) Object.assign(account.holders, parent.holders);
    account.deadline = plan.deadline;
    for (const { dimension, limit, from } of plan.carves) {
      const pool = new Pool(request.path, dimension, limit, request.budget?.softLimit ?? DEFAULT_SOFT_LIMIT);
      if (from) from.reserved += limit;
      account.own.push({ pool, from, carved: from ? limit : 0 });
      account.holders[dimension] = pool;
    }
    // The spawn itself is spent from the parent's spawn pool, for good (on resume too: the
    // journal holds the spawn, not the count).
    const spawnPool = parent?.holders.spawns;
    if (spawnPool) this.spend(spawnPool, 1, request.path);
    this.accounts.set(request.path, account);
  }

  /** What opening would carve, or the error that refuses it. */
  private plan(request: OpenAccount): { carves: Array<{ dimension: PooledDimension; limit: number; from: Pool | undefined }>; deadline: number | undefined } {
    const parent = request.parentPath === null ? undefined : this.accounts.get(request.parentPath);
    const budget = request.budget;
    const carves: Array<{ dimension: PooledDimension; limit: number; from: Pool | undefined }> = [];
    const check = !request.restoring;
    const what = request.parentPath === null ? 'the session' : request.path;
    for (const dimension of POOLED) {
      const from = parent?.holders[dimension];
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
      if (limit !== undefined) carves.push({ dimension, limit, from });
    }
    if (check && request.price === undefined && (budget?.costUsd !== undefined || parent?.holders.costUsd !== undefined)) {
      throw new BudgetError('costUsd', 0, 0, `${what} runs model ${request.model}, which has no price in RuntimeOptions.prices, under a costUsd budget: its cost could not be counted`);
    }
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
    return { carves, deadline };
  }

  /**
   * Closes a settled agent's account: what its own caps did not use goes back to the pools they
   * were carved from (what it spent stays spent there).
   */
  settle(path: string): void {
    const account = this.accounts.get(path);
    if (!account) return;
    this.accounts.delete(path);
    for (const { pool, from, carved } of account.own) {
      pool.closed = true;
      if (!from) continue;
      from.reserved -= carved;
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
    for (const { pool, from, carved } of account.own) {
      pool.closed = true;
      if (from) from.reserved -= carved;
    }
    const spawnPool = parentPath === null ? undefined : this.accounts.get(parentPath)?.holders.spawns;
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
    if (!account) return { path, holds: [] };
    const now = this.now();
    if (account.deadline !== undefined && now >= account.deadline) {
      return new BudgetError('wallMs', 0, 0, `the time budget ran out ${formatAmount('wallMs', now - account.deadline)} ago`);
    }
    // Checked in a fixed order (steps, tokens, cost) without a table per request: this runs
    // before every model request of a capped agent.
    const { steps, tokens, costUsd } = account.holders;
    const tokenAmount = estimate.inputTokens + estimate.outputTokens;
    const costAmount = account.price && costUsd ? costOf({ inputTokens: estimate.inputTokens, outputTokens: estimate.outputTokens, cacheReadTokens: 0, cacheWriteTokens: 0, requests: 1, retries: 0 }, account.price) : 0;
    const refused = (steps && refusal(path, steps, 1, estimate)) || (tokens && refusal(path, tokens, tokenAmount, estimate)) || (costUsd && account.price && refusal(path, costUsd, costAmount, estimate));
    if (refused) return refused;
    const holds: Array<readonly [Pool, number]> = [];
    if (steps) holds.push([steps, 1]);
    if (tokens) holds.push([tokens, tokenAmount]);
    if (costUsd && account.price) holds.push([costUsd, costAmount]);
    for (const [pool, amount] of holds) pool.reserved += amount;
    return { path, holds };
  }

  /**
   * Ends a request: releases its hold and charges what it cost (`used`: nothing when it failed
   * or was aborted; the usage it did report is charged when the agent's usage grows).
   */
  endRequest(hold: RequestHold, used: Usage | undefined): void {
    for (const [pool, amount] of hold.holds) pool.reserved -= amount;
    if (!used) return;
    const account = this.accounts.get(hold.path);
    if (!account) return;
    // Charged now, before another request can take what the hold just freed; counted as seen
    // so the agent's usage growing by the same amount charges nothing twice.
    account.seen = account.seen ? addPlain(account.seen, used) : used;
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
      const pool = account.holders[dimension];
      if (pool) out[dimension] = Math.max(0, pool.remaining);
    }
    return out;
  }

  /** Whether any account is capped at all (the runtime skips estimates when none is). */
  capped(path: string): boolean {
    const account = this.accounts.get(path);
    if (account === undefined) return false;
    if (account.deadline !== undefined) return true;
    for (const dimension of POOLED) if (account.holders[dimension] !== undefined) return true;
    return false;
  }

  private charge(account: BudgetAccount, delta: Usage): void {
    const tokens = delta.inputTokens + delta.outputTokens;
    if (tokens > 0 && account.holders.tokens) this.spend(account.holders.tokens, tokens, account.path);
    if (delta.requests > 0 && account.holders.steps) this.spend(account.holders.steps, delta.requests, account.path);
    if (account.price && account.holders.costUsd) {
      const cost = costOf(delta, account.price);
      if (cost > 0) this.spend(account.holders.costUsd, cost, account.path);
    }
  }

  private spend(pool: Pool, amount: number, by: string): void {
    if (amount <= 0) return;
    pool.used += amount;
    if (pool.warned || pool.closed || pool.used < pool.soft * pool.limit) return;
    pool.warned = true;
    this.onWarning({ path: pool.owner, by, dimension: pool.dimension, limit: pool.limit, used: pool.used, remaining: Math.max(0, pool.remaining) });
  }
}

/** The error refusing a request that could use `amount` of `pool`, or undefined when it fits. */
function refusal(path: string, pool: Pool, amount: number, estimate: RequestEstimate): BudgetError | undefined {
  if (amount <= pool.remaining) return undefined;
  const dimension = pool.dimension;
  const left = Math.max(0, pool.remaining);
  const whose = pool.owner === path ? 'its' : `${pool.owner}'s`;
  const need = dimension === 'tokens' ? `${formatAmount(dimension, amount)} (input estimate ${estimate.inputTokens} + output limit ${estimate.outputTokens})` : formatAmount(dimension, amount);
  return new BudgetError(dimension, amount, left, `the next model request could use ${need}, more than ${whose} ${dimension} budget has left (${formatAmount(dimension, left)} of ${formatAmount(dimension, pool.limit)})`);
}

/** Whether `after` has more of anything than `before`. */
function grew(after: Usage, before: Usage): boolean {
  return (
    after.inputTokens > before.inputTokens ||
    after.outputTokens > before.outputTokens ||
    after.cacheReadTokens > before.cacheReadTokens ||
    after.cacheWriteTokens > before.cacheWriteTokens ||
    after.requests > before.requests ||
    after.retries > before.retries
  );
}

function positiveDelta(after: Usage, before: Usage): Usage {
  const d = (a: number, b: number): number => Math.max(0, a - b);
  return {
    inputTokens: d(after.inputTokens, before.inputTokens),
    outputTokens: d(after.outputTokens, before.outputTokens),
    cacheReadTokens: d(after.cacheReadTokens, before.cacheReadTokens),
    cacheWriteTokens: d(after.cacheWriteTokens, before.cacheWriteTokens),
    requests: d(after.requests, before.requests),
    retries: d(after.retries, before.retries),
  };
}

function maxUsage(a: Usage, b: Usage): Usage {
  return {
    inputTokens: Math.max(a.inputTokens, b.inputTokens),
    outputTokens: Math.max(a.outputTokens, b.outputTokens),
    cacheReadTokens: Math.max(a.cacheReadTokens, b.cacheReadTokens),
    cacheWriteTokens: Math.max(a.cacheWriteTokens, b.cacheWriteTokens),
    requests: Math.max(a.requests, b.requests),
    retries: Math.max(a.retries, b.retries),
  };
}

function addPlain(a: Usage, b: Usage): Usage {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    cacheReadTokens: a.cacheReadTokens + b.cacheReadTokens,
    cacheWriteTokens: a.cacheWriteTokens + b.cacheWriteTokens,
    requests: a.requests + b.requests,
    retries: a.retries + b.retries,
  };
}
