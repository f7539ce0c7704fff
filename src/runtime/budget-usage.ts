/**
 * Usage arithmetic the budget ledger charges by: what is new in an agent's running total, kept
 * allocation-free when nothing is (the common case after a request's cost was charged).
 */
import type { Usage } from '../request/usage.js';

/** Whether `after` has more of anything than `before`. */
export function grew(after: Usage, before: Usage): boolean {
  return (
    after.inputTokens > before.inputTokens ||
    after.outputTokens > before.outputTokens ||
    after.cacheReadTokens > before.cacheReadTokens ||
    after.cacheWriteTokens > before.cacheWriteTokens ||
    after.requests > before.requests ||
    after.retries > before.retries
  );
}

export function positiveDelta(after: Usage, before: Usage): Usage {
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

export function maxUsage(a: Usage, b: Usage): Usage {
  return {
    inputTokens: Math.max(a.inputTokens, b.inputTokens),
    outputTokens: Math.max(a.outputTokens, b.outputTokens),
    cacheReadTokens: Math.max(a.cacheReadTokens, b.cacheReadTokens),
    cacheWriteTokens: Math.max(a.cacheWriteTokens, b.cacheWriteTokens),
    requests: Math.max(a.requests, b.requests),
    retries: Math.max(a.retries, b.retries),
  };
}
