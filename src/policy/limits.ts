/**
 * The runtime's limits: how deep the agent tree may grow and how many subagents may be live
 * (checked at spawn time), and how deep and large the values models hand it may be
 * ({@link InputLimits}: tool-call arguments, structured answers, output schemas).
 */
import { DEFAULT_INPUT_LIMITS, MAX_NESTING_LIMIT, type InputLimits } from '../request/input-limits.js';

/**
 * The limits a runtime enforces: the spawn limits (checked before capabilities are confirmed)
 * and the input limits.
 *
 * @example
 * ```ts
 * createRuntime({ model, limits: { maxDepth: 2, maxArgumentDepth: 32, maxAnswerBytes: 65_536 } });
 * ```
 */
export interface Limits extends InputLimits {
  /** Deepest allowed subagent; the root is depth 0, its subagents depth 1. Default 3. */
  readonly maxDepth: number;
  /** Live (reserved, running or idle) subagents one parent may have at once. Default 8. */
  readonly maxChildren: number;
  /** Live subagents in the whole runtime (the root not counted); absent means unbounded. */
  readonly maxTotal?: number;
}

/**
 * The defaults: depth 3 and 8 concurrent subagents per parent, no runtime-wide cap, and the
 * input limits' defaults (64 levels, 1 MiB).
 */
export const DEFAULT_LIMITS: Limits = Object.freeze({ maxDepth: 3, maxChildren: 8, ...DEFAULT_INPUT_LIMITS });

/**
 * Fills unset limits with the defaults and validates them.
 *
 * @throws RangeError when a limit is not a positive integer (a depth of 0 is allowed and
 *   means "no subagents"), or a nesting limit is above {@link MAX_NESTING_LIMIT}.
 */
export function resolveLimits(partial: Partial<Limits> = {}): Limits {
  const limits = { ...DEFAULT_LIMITS, ...definedOnly(partial) };
  const check = (name: string, value: number, min: number, max = Number.MAX_SAFE_INTEGER): void => {
    if (!Number.isSafeInteger(value) || value < min) {
      throw new RangeError(`limit ${name} must be an integer of at least ${min}, got ${value}`);
    }
    if (value > max) throw new RangeError(`limit ${name} may be at most ${max}, got ${value}`);
  };
  check('maxDepth', limits.maxDepth, 0);
  check('maxChildren', limits.maxChildren, 1);
  if (limits.maxTotal !== undefined) check('maxTotal', limits.maxTotal, 1);
  for (const name of ['maxArgumentDepth', 'maxAnswerDepth', 'maxSchemaDepth'] as const) check(name, limits[name], 1, MAX_NESTING_LIMIT);
  for (const name of ['maxArgumentBytes', 'maxAnswerBytes', 'maxSchemaBytes'] as const) check(name, limits[name], 1);
  return Object.freeze(limits);
}

/** Which limit refused the spawn. */
export type LimitErrorCode = 'depth_limit' | 'capacity';

/**
 * A spawn refused by a limit. The message is written for the parent model, which receives
 * it as a tool error and should know what to do instead.
 */
export class LimitError extends Error {
  override readonly name = 'LimitError';
  readonly code: LimitErrorCode;
  /** Which limit: `maxDepth`, `maxChildren` or `maxTotal`. */
  readonly limit: 'maxDepth' | 'maxChildren' | 'maxTotal';
  /** The limit's value. */
  readonly maximum: number;

  /** Why, without the opening "cannot start ..." (for callers that name the subagent themselves). */
  readonly reason: string;

  constructor(code: LimitErrorCode, limit: LimitError['limit'], maximum: number, headline: string, reason: string) {
    super(`${headline}: ${reason}`);
    this.code = code;
    this.limit = limit;
    this.maximum = maximum;
    this.reason = reason;
  }
}

/** The numbers a spawn is checked against, counted before the spawn is reserved. */
export interface LimitUsage {
  /** The depth the new subagent would have (its parent's depth + 1). */
  readonly depth: number;
  /** The parent's live subagents now, reserved ones included. */
  readonly liveChildren: number;
  /** Live subagents in the whole runtime now, reserved ones included (the root not counted). */
  readonly liveTotal: number;
}

/** The result of a check: a refusal is a value, so callers can turn it into a tool error. */
export type LimitCheck = { readonly ok: true } | { readonly ok: false; readonly error: LimitError };

/**
 * Checks a spawn against the limits: depth first (retrying never helps), then the parent's
 * capacity, then the runtime's (waiting for a subagent to finish helps both).
 */
export function checkLimits(usage: LimitUsage, limits: Limits): LimitCheck {
  if (usage.depth > limits.maxDepth) {
    return refuse(new LimitError('depth_limit', 'maxDepth', limits.maxDepth,
      `cannot start a subagent at depth ${usage.depth}`, `the maximum depth is ${limits.maxDepth}; do this work yourself or return it to your caller`));
  }
  if (usage.liveChildren >= limits.maxChildren) {
    return refuse(new LimitError('capacity', 'maxChildren', limits.maxChildren,
      `cannot start another subagent`, `${usage.liveChildren} of at most ${limits.maxChildren} are already running for this agent; wait for one to finish or close one`));
  }
  if (limits.maxTotal !== undefined && usage.liveTotal >= limits.maxTotal) {
    return refuse(new LimitError('capacity', 'maxTotal', limits.maxTotal,
      `cannot start another subagent`, `the runtime already runs ${usage.liveTotal} of at most ${limits.maxTotal}; wait for one to finish`));
  }
  return { ok: true };
}

function refuse(error: LimitError): LimitCheck {
  return { ok: false, error };
}

/** Drops keys whose value is undefined, so `{ maxDepth: undefined }` keeps the default. */
function definedOnly(partial: Partial<Limits>): Partial<Limits> {
  return Object.fromEntries(Object.entries(partial).filter(([, value]) => value !== undefined));
}
