import { APICallError } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { classifyFailure, RequestTimeoutError, retryAfterMs } from '../../src/model/transient.js';
import { DEFAULT_RETRY_POLICY, resolveRetryPolicy, retryDelay } from '../../src/policy/retry-policy.js';

const withStatus = (status: number, extra: object = {}): Error => Object.assign(new Error(`HTTP ${status}`), { status, ...extra });

describe('classifyFailure', () => {
  it.each([
    [408, true],
    [409, true],
    [429, true],
    [500, true],
    [503, true],
    [400, false],
    [401, false],
    [403, false],
    [404, false],
    [422, false],
  ])('HTTP %i is transient: %s', (status, transient) => {
    expect(classifyFailure(withStatus(status))).toEqual({ transient, status });
    expect(classifyFailure(Object.assign(new Error('x'), { statusCode: status })).transient).toBe(transient);
  });

  it("takes the AI SDK's isRetryable over the status", () => {
    const error = new APICallError({ message: 'overloaded', url: 'u', requestBodyValues: {}, statusCode: 400, isRetryable: true });
    expect(classifyFailure(error)).toEqual({ transient: true, status: 400 });
  });

  it('network failures are transient, on the error or its cause; other errors and aborts are not', () => {
    expect(classifyFailure(Object.assign(new Error('reset'), { code: 'ECONNRESET' })).transient).toBe(true);
    expect(classifyFailure(new TypeError('fetch failed', { cause: { code: 'UND_ERR_SOCKET' } })).transient).toBe(true);
    expect(classifyFailure(new TypeError('fetch failed')).transient).toBe(true);
    expect(classifyFailure(new RequestTimeoutError(5)).transient).toBe(true);
    expect(classifyFailure(Object.assign(new Error('nope'), { code: 'ENOENT' })).transient).toBe(false);
    expect(classifyFailure(new TypeError('x is not a function')).transient).toBe(false);
    expect(classifyFailure(new DOMException('aborted', 'AbortError')).transient).toBe(false);
  });

  it('survives hostile error values', () => {
    const throwing = Object.defineProperty({}, 'status', {
      get() {
        throw new Error('getter');
      },
    });
    for (const value of [undefined, null, 'text', 42, Object.create(null), throwing, { headers: { get: () => { throw new Error('x'); } } }]) {
      expect(classifyFailure(value)).toMatchObject({ transient: false });
    }
  });
});

describe('retryAfterMs', () => {
  it('reads retry-after-ms, retry-after seconds and an HTTP date, from plain headers or Headers', () => {
    expect(retryAfterMs({ responseHeaders: { 'retry-after-ms': '1500.5' } })).toBe(1500.5);
    expect(retryAfterMs({ headers: { 'Retry-After': '2' } })).toBe(2000);
    expect(retryAfterMs({ headers: new Headers({ 'retry-after': '7' }) })).toBe(7000);
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterMs({ headers: { 'retry-after': 'Thu, 01 Jan 2026 00:00:30 GMT' } }, now)).toBe(30_000);
    expect(retryAfterMs({ headers: { 'retry-after': 'soon' } })).toBeUndefined();
    expect(retryAfterMs({ headers: {} })).toBeUndefined();
    expect(retryAfterMs(new Error('no headers'))).toBeUndefined();
  });
});

describe('retryDelay', () => {
  it('grows by the factor, is capped, and honours a retry-after within the cap', () => {
    const policy = resolveRetryPolicy({ jitter: 0, initialDelayMs: 1_000, maxDelayMs: 5_000 });
    expect([1, 2, 3, 4].map((n) => retryDelay(policy, n))).toEqual([1_000, 2_000, 4_000, 5_000]);
    expect(retryDelay(policy, 1, 3_500)).toBe(3_500);
    // A retry-after beyond the cap is not waited for; the backoff applies (as the AI SDK does).
    expect(retryDelay(policy, 1, 90_000)).toBe(1_000);
  });

  it('jitter shortens a wait by at most its share', () => {
    const policy = resolveRetryPolicy({ jitter: 0.5, initialDelayMs: 1_000 });
    expect(retryDelay(policy, 1, undefined, () => 0)).toBe(1_000);
    expect(retryDelay(policy, 1, undefined, () => 0.9)).toBe(550);
    for (let i = 0; i < 100; i++) {
      const delay = retryDelay(policy, 1);
      expect(delay).toBeGreaterThanOrEqual(500);
      expect(delay).toBeLessThanOrEqual(1_000);
    }
  });

  it('layers resolve field by field over the defaults', () => {
    expect(resolveRetryPolicy({ maxRetries: 0 }, { maxRetries: 4, jitter: 0 })).toEqual({ ...DEFAULT_RETRY_POLICY, maxRetries: 0, jitter: 0 });
  });
});
