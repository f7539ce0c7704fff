/**
 * Usage: what model work cost, and its arithmetic. Every layer that counts usage (the agent
 * machine, the runtime's ledger, adapters and summarizers) uses this one type.
 */

/**
 * What model work cost: tokens, and how many requests produced them. The one usage type of the
 * library: a reply's usage, an agent's own total, a subtree's total and the session's total
 * all have this shape. Zeros where a provider reports none.
 *
 * @example
 * ```ts
 * const total = addUsage(result.usage, { ...ZERO_USAGE, inputTokens: 120, requests: 1 });
 * ```
 */
export interface Usage {
  /** Every input token, cached ones included. */
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** Input tokens served from the provider's prompt cache (part of `inputTokens`). */
  readonly cacheReadTokens: number;
  /** Input tokens written to the provider's prompt cache (part of `inputTokens`). */
  readonly cacheWriteTokens: number;
  /** Model requests answered, retried attempts included (a request aborted by a cancel is not counted). */
  readonly requests: number;
  /** Requests that repeated a failed attempt (counted in `requests` too). */
  readonly retries: number;
  /**
   * Estimated cost, in the currency of `RuntimeOptions.prices`. Present only where the runtime
   * reports usage and every model counted here has a price.
   */
  readonly cost?: number;
}

/**
 * Usage as a model adapter or summarizer reports one reply: the token counts. `requests` and
 * `retries` are counted by the runtime (one request, no retry) unless the adapter reports them
 * itself, for example because it retried internally.
 */
export type ReplyUsage = Omit<Usage, 'requests' | 'retries' | 'cost'> & Partial<Pick<Usage, 'requests' | 'retries'>>;

/** A zero usage value. */
export const ZERO_USAGE: Usage = Object.freeze({ inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, requests: 0, retries: 0 });

/** Adds two usage values. A cost is kept only when both sides have one. */
export function addUsage(a: Usage, b: Usage): Usage {
  const sum: Usage = {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    cacheReadTokens: a.cacheReadTokens + b.cacheReadTokens,
    cacheWriteTokens: a.cacheWriteTokens + b.cacheWriteTokens,
    requests: a.requests + b.requests,
    retries: a.retries + b.retries,
  };
  return a.cost !== undefined && b.cost !== undefined ? { ...sum, cost: a.cost + b.cost } : sum;
}

/** Subtracts usage counted earlier from a later running total. A cost is kept when the later total has one. */
export function subtractUsage(after: Usage, before: Usage): Usage {
  const out: Usage = {
    inputTokens: after.inputTokens - before.inputTokens,
    outputTokens: after.outputTokens - before.outputTokens,
    cacheReadTokens: after.cacheReadTokens - before.cacheReadTokens,
    cacheWriteTokens: after.cacheWriteTokens - before.cacheWriteTokens,
    requests: after.requests - before.requests,
    retries: after.retries - before.retries,
  };
  return after.cost !== undefined ? { ...out, cost: after.cost - (before.cost ?? 0) } : out;
}

/**
 * The usage of one answered request: the reply's tokens, counted as one request with no retry
 * unless the reply says otherwise. Extra `retries` (attempts the caller repeated) add to both
 * counts.
 */
export function requestUsage(reply: ReplyUsage, retries = 0): Usage {
  return {
    inputTokens: reply.inputTokens,
    outputTokens: reply.outputTokens,
    cacheReadTokens: reply.cacheReadTokens,
    cacheWriteTokens: reply.cacheWriteTokens,
    requests: (reply.requests ?? 1) + retries,
    retries: (reply.retries ?? 0) + retries,
  };
}
