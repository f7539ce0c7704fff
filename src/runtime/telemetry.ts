/**
 * The runtime's side of tracing: the provider a model adapter names, and a failure's short
 * code. The span facts themselves are built in `machines/agent-trace.ts`, shared with
 * `delegatingAgent`.
 */
import type { ModelAdapter } from '../model/adapter.js';
import { RequestTimeoutError } from '../model/transient.js';
import { errorCode } from './errors.js';

/**
 * A failure as a short code for `error.type`: the error's own code (`ECONNRESET`, a
 * RuntimeError's), `timeout` for a request timeout, else the HTTP status, else `model_error`.
 */
export function failureCode(error: unknown, status: number | undefined): string {
  if (error instanceof RequestTimeoutError) return 'timeout';
  const code = errorCode(error);
  if (code !== undefined) return code;
  return status !== undefined ? String(status) : 'model_error';
}

/** The provider a request to `model` goes to: the adapter's `provider`, else its name up to the first `.` or `:`. */
export function providerOf(adapter: ModelAdapter, model: string): string {
  const provider = adapter.provider;
  if (typeof provider === 'string') return provider;
  if (typeof provider === 'function') {
    try {
      return provider(model);
    } catch {
      // A model the adapter does not know fails its request with a clear error; the span just lacks the name.
    }
  }
  // Scanned, not split by a pattern: this runs before every traced request.
  const name = adapter.name;
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (c === 0x2e || c === 0x3a) return name.slice(0, i);
  }
  return name;
}
