/**
 * Budget pools: one capped dimension of one agent's subtree, what a model request holds in
 * them, and the error a request that does not fit gets. The ledger (budget-ledger.ts) keeps
 * the pools of the agent tree.
 */
import { BudgetError, formatAmount, type BudgetDimension } from '../policy/budget.js';

/** Dimensions held in pools (wall time is a deadline instead). */
export type PooledDimension = Exclude<BudgetDimension, 'wallMs'>;
export const POOLED: readonly PooledDimension[] = ['tokens', 'costUsd', 'steps', 'spawns'];

/** One capped dimension of one agent's subtree. */
export class Pool {
  used = 0;
  reserved = 0;
  warned = false;
  closed = false;
  constructor(
    readonly owner: string,
    readonly dimension: PooledDimension,
    readonly limit: number,
    readonly soft: number,
    /** The pool above it that its limit was carved from (undefined: nothing above was capped there). */
    readonly from?: Pool | undefined,
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

/**
 * A model request's hold on its pools, released when the request ends: one object with a
 * field per pooled dimension a request can hold (no table per request; this is made before
 * every model request of a capped agent).
 */
export interface RequestHold {
  readonly path: string;
  readonly steps: Pool | undefined;
  readonly tokens: Pool | undefined;
  readonly tokenAmount: number;
  readonly cost: Pool | undefined;
  readonly costAmount: number;
}

/** What a model request is estimated to use at most. */
export interface RequestEstimate {
  readonly inputTokens: number;
  readonly outputTokens: number;
}

/** The error refusing a request that could use `amount` of `pool`, or undefined when it fits. */
export function refusal(path: string, pool: Pool, amount: number, estimate: RequestEstimate): BudgetError | undefined {
  if (amount <= pool.remaining) return undefined;
  const dimension = pool.dimension;
  const left = Math.max(0, pool.remaining);
  const whose = pool.owner === path ? 'its' : `${pool.owner}'s`;
  const need = dimension === 'tokens' ? `${formatAmount(dimension, amount)} (input estimate ${estimate.inputTokens} + output limit ${estimate.outputTokens})` : formatAmount(dimension, amount);
  return new BudgetError(dimension, amount, left, `the next model request could use ${need}, more than ${whose} ${dimension} budget has left (${formatAmount(dimension, left)} of ${formatAmount(dimension, pool.limit)})`);
}
