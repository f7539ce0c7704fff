/**
 * How failed model requests are retried: the policy's fields, their defaults, and the backoff
 * delay. Pure: which errors count as transient is decided at the model seam
 * (`src/model/transient.ts`), the waiting is done by the runtime.
 */

/**
 * Retries of transient model failures (HTTP 408, 409, 429, 5xx, network errors, request
 * timeouts). Every field is optional; an unset field takes the runtime's value, then
 * {@link DEFAULT_RETRY_POLICY}'s. The wait before retry `n` (1-based) is
 * `min(initialDelayMs · backoffFactor^(n-1), maxDelayMs)`, shortened by up to `jitter` of
 * itself at random; a provider's `retry-after-ms` or `retry-after` header replaces it when
 * it asks for no more than `maxDelayMs`.
 *
 * @example
 * ```ts
 * createRuntime({ model, retry: { maxRetries: 5, initialDelayMs: 500 } });
 * ```
 */
export interface RetryPolicy {
  /** Attempts after the first one (default 2, as the AI SDK); 0 turns retries off. */
  readonly maxRetries?: number;
  /** The wait before the first retry, in ms (default 2,000). */
  readonly initialDelayMs?: number;
  /** What each further wait is multiplied by (default 2). */
  readonly backoffFactor?: number;
  /** The longest wait, in ms (default 60,000); also the longest `retry-after` honoured. */
  readonly maxDelayMs?: number;
  /** The share of a backoff wait that is random, from 0 (none) to 1 (default 0.2). */
  readonly jitter?: number;
}

/** A policy with every field set. */
export type ResolvedRetryPolicy = Required<RetryPolicy>;

/** The defaults: 2 retries, 2 s then 4 s (less up to 20% jitter), waits capped at 60 s. */
export const DEFAULT_RETRY_POLICY: ResolvedRetryPolicy = Object.freeze({
  maxRetries: 2,
  initialDelayMs: 2_000,
  backoffFactor: 2,
  maxDelayMs: 60_000,
  jitter: 0.2,
});

/** How long one model request may take before it is aborted and counted as a transient failure: 10 minutes. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 600_000;

const FIELD_RULES: Readonly<Record<keyof RetryPolicy, { readonly check: (n: number) => boolean; readonly expected: string }>> = {
  maxRetries: { check: (n) => Number.isSafeInteger(n) && n >= 0, expected: 'an integer ≥ 0' },
  initialDelayMs: { check: (n) => Number.isFinite(n) && n >= 0, expected: 'a number of ms ≥ 0' },
  backoffFactor: { check: (n) => Number.isFinite(n) && n >= 1, expected: 'a number ≥ 1' },
  maxDelayMs: { check: (n) => Number.isFinite(n) && n >= 0, expected: 'a number of ms ≥ 0' },
  jitter: { check: (n) => Number.isFinite(n) && n >= 0 && n <= 1, expected: 'a number from 0 to 1' },
};

/**
 * Checks a retry policy given by a host or a definition; `where` names it in the message.
 * @throws TypeError naming the field, what it must be and what it was.
 */
export function checkRetryPolicy(policy: unknown, where: string): RetryPolicy {
  if (typeof policy !== 'object' || policy === null || Array.isArray(policy)) throw new TypeError(`${where} must be an object of retry settings`);
  const source = policy as Record<string, unknown>;
  const out: Record<string, number> = {};
  for (const key of Object.keys(source)) {
    const rule = (FIELD_RULES as Readonly<Record<string, (typeof FIELD_RULES)[keyof RetryPolicy]>>)[key];
    if (rule === undefined) throw new TypeError(`${where}: unknown retry setting "${key}" (known: ${Object.keys(FIELD_RULES).join(', ')})`);
    const value = source[key];
    if (value === undefined) continue;
    if (typeof value !== 'number' || !rule.check(value)) throw new TypeError(`${where}.${key} must be ${rule.expected}, got ${String(value)}`);
    out[key] = value;
  }
  return Object.freeze(out) as RetryPolicy;
}

/**
 * Checks a request timeout (a positive number of ms, or `Infinity` for none).
 * @throws TypeError naming `where`.
 */
export function checkRequestTimeout(ms: unknown, where: string): number {
  if (typeof ms !== 'number' || Number.isNaN(ms) || ms <= 0) throw new TypeError(`${where} must be a number of ms > 0 (Infinity for none), got ${String(ms)}`);
  return ms;
}

/** The policy with each field taken from the first layer that sets it, then the defaults. */
export function resolveRetryPolicy(...layers: ReadonlyArray<RetryPolicy | undefined>): ResolvedRetryPolicy {
  const pick = <K extends keyof RetryPolicy>(key: K): number => {
    for (const layer of layers) {
      const value = layer?.[key];
      if (value !== undefined) return value;
    }
    return DEFAULT_RETRY_POLICY[key];
  };
  return {
    maxRetries: pick('maxRetries'),
    initialDelayMs: pick('initialDelayMs'),
    backoffFactor: pick('backoffFactor'),
    maxDelayMs: pick('maxDelayMs'),
    jitter: pick('jitter'),
  };
}

/**
 * The wait before retry `retry` (1 for the first), in whole ms. A `retryAfterMs` the provider
 * asked for wins when it is within `maxDelayMs`; otherwise the exponential backoff applies,
 * less `jitter · random()` of itself, so clients that failed together do not retry together.
 *
 * @example
 * ```ts
 * retryDelay(resolveRetryPolicy({ jitter: 0 }), 2); // 4000
 * retryDelay(resolveRetryPolicy(), 1, 1500);        // 1500 (the provider's retry-after)
 * ```
 */
export function retryDelay(policy: ResolvedRetryPolicy, retry: number, retryAfterMs?: number, random: () => number = Math.random): number {
  if (retryAfterMs !== undefined && retryAfterMs >= 0 && retryAfterMs <= policy.maxDelayMs) return Math.ceil(retryAfterMs);
  const base = Math.min(policy.initialDelayMs * policy.backoffFactor ** (retry - 1), policy.maxDelayMs);
  return Math.round(base * (1 - policy.jitter * random()));
}
