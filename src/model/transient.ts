/**
 * Which model failures are worth retrying, and what the provider asked for.
 *
 * Errors come from anywhere: the AI SDK's `APICallError` (`statusCode`, `responseHeaders`,
 * `isRetryable`), a host adapter's own error (`status` or `statusCode`, `headers` as an
 * object or a `Headers`), Node's network errors (`code: 'ECONNRESET'`, possibly on `cause`),
 * undici's `TypeError('fetch failed')`. Every field is read defensively: a hostile error
 * object with throwing getters or no prototype must not break the runtime.
 */

/** A model request that took longer than the runtime's `requestTimeoutMs`. Transient. */
export class RequestTimeoutError extends Error {
  override readonly name = 'RequestTimeoutError';
  constructor(readonly timeoutMs: number) {
    super(`the model request timed out after ${timeoutMs} ms`);
  }
}

/** What the runtime reads from a failed request. */
export interface FailureInfo {
  /** Whether another attempt may succeed. */
  readonly transient: boolean;
  /** The HTTP status, when the error carries one. */
  readonly status?: number;
  /** The wait the provider asked for (`retry-after-ms`, `retry-after`), in ms. */
  readonly retryAfterMs?: number;
}

/** Statuses a retry may fix: request timeout, conflict, rate limit, and server errors. */
function isTransientStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/** Node and undici error codes of a connection that failed on the way, not of a bad request. */
const NETWORK_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'EAI_AGAIN',
  'ENETUNREACH',
  'ENETDOWN',
  'EHOSTUNREACH',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_CLOSED',
]);

/** Reads a field of a foreign value; a throwing getter or a primitive counts as missing. */
function field(source: unknown, key: string): unknown {
  if ((typeof source !== 'object' && typeof source !== 'function') || source === null) return undefined;
  try {
    return (source as Record<string, unknown>)[key];
  } catch {
    return undefined;
  }
}

function statusOf(error: unknown): number | undefined {
  for (const key of ['statusCode', 'status']) {
    const value = field(error, key);
    if (typeof value === 'number' && Number.isInteger(value) && value >= 100 && value <= 599) return value;
  }
  return undefined;
}

/** One header of a plain object (any letter case) or a `Headers`-like object. */
function header(headers: unknown, name: string): string | undefined {
  const get = field(headers, 'get');
  if (typeof get === 'function') {
    try {
      const value: unknown = get.call(headers, name);
      return typeof value === 'string' ? value : undefined;
    } catch {
      return undefined;
    }
  }
  if (typeof headers !== 'object' || headers === null) return undefined;
  let keys: string[];
  try {
    keys = Object.keys(headers);
  } catch {
    return undefined;
  }
  const key = keys.find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : field(headers, key);
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined;
}

/**
 * The wait a provider asked for, in ms: `retry-after-ms` (ms, OpenAI), else `retry-after`
 * (seconds, or an HTTP date measured from `now`). Undefined when absent or unreadable.
 */
export function retryAfterMs(error: unknown, now: number = Date.now()): number | undefined {
  const headers = field(error, 'responseHeaders') ?? field(error, 'headers') ?? field(field(error, 'cause'), 'responseHeaders');
  if (headers === undefined) return undefined;
  const ms = header(headers, 'retry-after-ms');
  if (ms !== undefined && ms.trim() !== '' && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const after = header(headers, 'retry-after');
  if (after === undefined || after.trim() === '') return undefined;
  if (Number.isFinite(Number(after))) return Math.max(0, Number(after) * 1000);
  const date = Date.parse(after);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function networkCodeOf(error: unknown): string | undefined {
  // The code may sit on the error, or on its cause (undici's `fetch failed` wraps the socket error).
  for (let current = error, depth = 0; current !== undefined && depth < 4; current = field(current, 'cause'), depth++) {
    const code = field(current, 'code');
    if (typeof code === 'string' && NETWORK_CODES.has(code)) return code;
  }
  return undefined;
}

/**
 * Whether a failed model request is worth another attempt, and what its error says. Transient:
 * a {@link RequestTimeoutError}; an error whose `isRetryable` is true (AI SDK); HTTP 408, 409,
 * 429 and 5xx; network failures (a Node or undici code such as `ECONNRESET`, or a `fetch
 * failed` TypeError). Everything else, aborts included, is final: a 400 or 401 will fail
 * again, and a broken reply is not the network's fault.
 *
 * @example
 * ```ts
 * classifyFailure(Object.assign(new Error('rate limited'), { status: 429, headers: { 'retry-after': '3' } }));
 * // { transient: true, status: 429, retryAfterMs: 3000 }
 * ```
 */
export function classifyFailure(error: unknown, now: number = Date.now()): FailureInfo {
  if (error instanceof RequestTimeoutError) return { transient: true };
  const status = statusOf(error);
  const after = retryAfterMs(error, now);
  const extra = { ...(status !== undefined ? { status } : {}), ...(after !== undefined ? { retryAfterMs: after } : {}) };
  if (field(error, 'name') === 'AbortError') return { transient: false, ...extra };
  const flagged = field(error, 'isRetryable');
  if (typeof flagged === 'boolean') return { transient: flagged, ...extra };
  if (status !== undefined) return { transient: isTransientStatus(status), ...extra };
  if (networkCodeOf(error) !== undefined) return { transient: true, ...extra };
  const message = field(error, 'message');
  const fetchFailed = error instanceof TypeError && typeof message === 'string' && /^fetch failed\b/i.test(message);
  return { transient: fetchFailed, ...extra };
}
