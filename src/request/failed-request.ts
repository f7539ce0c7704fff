/**
 * A model request that failed for good (after its retries) still cost something: every
 * attempt was sent, and providers bill what they received. The error that ends the agent's
 * turn carries that usage, so its machine adds it like any reply's.
 */
import type { Usage } from './usage.js';

/**
 * Thrown by a host for a request whose attempts all failed: `message` is the failure's text,
 * `cause` the last attempt's error, `usage` what the attempts cost (each one a request, every
 * one after the first a retry; tokens as far as known).
 *
 * @example
 * ```ts
 * throw new FailedRequestError('HTTP 503 (gave up after 3 attempts)', { ...ZERO_USAGE, requests: 3, retries: 2 }, { cause: last });
 * ```
 */
export class FailedRequestError extends Error {
  override readonly name = 'FailedRequestError';

  constructor(
    message: string,
    readonly usage: Usage,
    options: { readonly cause: unknown },
  ) {
    super(message, options);
  }
}

/** What a failed request cost, when the error says (a {@link FailedRequestError}). */
export function failedRequestUsage(error: unknown): Usage | undefined {
  return error instanceof FailedRequestError ? error.usage : undefined;
}
