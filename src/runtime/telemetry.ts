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

/** The provider a model adapter talks to: its `provider`, else its name up to the first `.` or `:`. */
export function providerOf(adapter: ModelAdapter): string {
  return adapter.provider ?? adapter.name.split(/[.:]/)[0] ?? adapter.name;
}
