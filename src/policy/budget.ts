/**
 * Budgets: caps on what an agent and everything under it may spend. Pure rules: the shape of a
 * budget, checking one a host or a model wrote, and the typed error a refused spawn or request
 * gets. The runtime's accounts live in src/runtime/budget-ledger.ts.
 */

/** What a budget caps. */
export type BudgetDimension = 'tokens' | 'costUsd' | 'wallMs' | 'steps' | 'spawns';

/** Every dimension, in the order messages list them. */
export const BUDGET_DIMENSIONS: readonly BudgetDimension[] = Object.freeze(['tokens', 'costUsd', 'wallMs', 'steps', 'spawns']);

/**
 * Caps on an agent's subtree (the agent and all its subagents together). Absent fields are not
 * capped here (an ancestor's cap still holds).
 *
 * - `tokens`: input plus output tokens of every model request (cached input included).
 * - `costUsd`: the cost of those tokens at `RuntimeOptions.prices` (a model without a price
 *   cannot run under a cost cap).
 * - `wallMs`: time from the agent's start; no model request starts after it runs out.
 * - `steps`: model requests (retried attempts included).
 * - `spawns`: subagents started (at any depth).
 * - `softLimit`: the share of a cap at which a `budget-warning` is emitted (default 0.8).
 *
 * @example
 * ```ts
 * createRuntime({ model, prices, budget: { tokens: 200_000, costUsd: 2, spawns: 20 } });
 * ```
 */
export interface Budget {
  readonly tokens?: number;
  readonly costUsd?: number;
  readonly wallMs?: number;
  readonly steps?: number;
  readonly spawns?: number;
  readonly softLimit?: number;
}

/** The default share of a cap at which the runtime warns. */
export const DEFAULT_SOFT_LIMIT = 0.8;

const INTEGER_DIMENSIONS: ReadonlySet<BudgetDimension> = new Set(['tokens', 'wallMs', 'steps', 'spawns']);
const BUDGET_FIELDS: ReadonlySet<string> = new Set([...BUDGET_DIMENSIONS, 'softLimit']);

/**
 * Checks a budget and returns it frozen, with only the fields it sets. Throws a `TypeError`
 * naming `where` and the field that is wrong (unknown fields are refused, so a typo never
 * leaves a subtree uncapped).
 *
 * @example
 * ```ts
 * checkBudget({ tokens: 10_000 }, 'createRuntime budget'); // { tokens: 10000 }
 * ```
 */
export function checkBudget(value: unknown, where: string): Budget {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new TypeError(`${where} must be an object such as { tokens: 100000, costUsd: 1.5 }; got ${JSON.stringify(value)}`);
  }
  // Runs for every `Agent` call that asks for a budget: no entry pairs, one key list.
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  let complete = true;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    const raw = record[key];
    if (!BUDGET_FIELDS.has(key)) throw new TypeError(`${where}: "${key}" is not a budget field; known fields: ${[...BUDGET_FIELDS].join(', ')}`);
    if (raw === undefined) {
      complete = false;
      continue;
    }
    if (key === 'softLimit') {
      if (typeof raw !== 'number' || !(raw > 0 && raw <= 1)) throw new TypeError(`${where}.softLimit must be a number in (0, 1]; got ${JSON.stringify(raw)}`);
    } else if (INTEGER_DIMENSIONS.has(key as BudgetDimension)) {
      if (typeof raw !== 'number' || !Number.isSafeInteger(raw) || raw < 0) throw new TypeError(`${where}.${key} must be an integer >= 0; got ${JSON.stringify(raw)}`);
    } else if (typeof raw !== 'number' || !Number.isFinite(raw) || raw < 0) {
      throw new TypeError(`${where}.${key} must be a finite number >= 0; got ${JSON.stringify(raw)}`);
    }
  }
  // A frozen plain budget that sets only what it names (a parsed `Agent` call's) is already
  // what this returns: no copy.
  if (complete && Object.isFrozen(record) && Object.getPrototypeOf(record) === Object.prototype) return record as Budget;
  const out: Record<string, number> = {};
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    if (record[key] !== undefined) out[key] = record[key] as number;
  }
  return Object.freeze(out) as Budget;
}

/** Whether a budget caps anything. */
export function capsAnything(budget: Budget | undefined): boolean {
  if (budget === undefined) return false;
  for (let i = 0; i < BUDGET_DIMENSIONS.length; i++) if (budget[BUDGET_DIMENSIONS[i] as BudgetDimension] !== undefined) return true;
  return false;
}

/**
 * The tighter of two budgets, per dimension (absent means uncapped). A model's `Agent` call
 * and a role's budget meet here; `softLimit` is the tighter one too.
 *
 * @example
 * ```ts
 * tighterBudget({ tokens: 5000 }, { tokens: 8000, steps: 4 }); // { tokens: 5000, steps: 4 }
 * ```
 */
export function tighterBudget(a: Budget | undefined, b: Budget | undefined): Budget | undefined {
  if (!a) return b;
  if (!b) return a;
  const out: Record<string, number> = {};
  for (const key of [...BUDGET_DIMENSIONS, 'softLimit'] as const) {
    const x = a[key];
    const y = b[key];
    const v = x === undefined ? y : y === undefined ? x : Math.min(x, y);
    if (v !== undefined) out[key] = v;
  }
  return Object.freeze(out) as Budget;
}

/**
 * The dimensions where `asked` is larger than `ceiling` (each with both values): a model may ask
 * for a smaller budget than its role's, never a larger one.
 */
export function exceedsCeiling(asked: Budget, ceiling: Budget | undefined): Array<{ dimension: BudgetDimension; asked: number; ceiling: number }> {
  if (!ceiling) return [];
  const out: Array<{ dimension: BudgetDimension; asked: number; ceiling: number }> = [];
  for (const dimension of BUDGET_DIMENSIONS) {
    const x = asked[dimension];
    const c = ceiling[dimension];
    if (x !== undefined && c !== undefined && x > c) out.push({ dimension, asked: x, ceiling: c });
  }
  return out;
}

/** A spawn or a request that a budget refused; the message is written for the model that asked. */
export class BudgetError extends Error {
  override readonly name = 'BudgetError';
  readonly code = 'budget' as const;
  constructor(
    /** The capped dimension that refused. */
    readonly dimension: BudgetDimension,
    /** What was asked for (a carve, or a request's estimate). */
    readonly asked: number,
    /** What remained. */
    readonly remaining: number,
    message: string,
  ) {
    super(message);
  }
}

/** How a dimension's amount reads in messages. */
export function formatAmount(dimension: BudgetDimension, value: number): string {
  switch (dimension) {
    case 'costUsd':
      return `$${value.toFixed(4)}`;
    case 'wallMs':
      return `${Math.round(value)} ms`;
    case 'tokens':
      return `${Math.round(value)} tokens`;
    case 'steps':
      return `${value} model requests`;
    case 'spawns':
      return `${value} subagents`;
  }
}
