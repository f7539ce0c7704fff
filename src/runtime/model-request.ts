/**
 * One model request as the runtime makes it: each attempt bounded by the request timeout,
 * transient failures retried with backoff, every retry announced as a `retry` event. The
 * waits go through the runtime's clock, so tests drive them with a simulated one; an abort
 * ends an attempt or a wait at once.
 */
import { abortError, throwIfAborted } from '../model/abort.js';
import { systemClock, type Clock } from '../model/clock.js';
import { classifyFailure, RequestTimeoutError } from '../model/transient.js';
import { errorText } from '../dialogue/error-text.js';
import { resolveRetryPolicy, retryDelay, DEFAULT_REQUEST_TIMEOUT_MS, type ResolvedRetryPolicy } from '../policy/retry-policy.js';
import type { RuntimeCore } from './core.js';
import { failureCode } from './telemetry.js';

/** How one agent's requests are bounded and retried. */
export interface RequestSettings {
  readonly retry: ResolvedRetryPolicy;
  readonly timeoutMs: number;
}

/** A request's answer and how many failed attempts came before it. */
export interface Attempted<T> {
  readonly value: T;
  readonly retries: number;
}

/** The settings of an agent's requests: its role's, then the runtime's, then the defaults. */
export function requestSettingsOf(core: RuntimeCore, path: string): RequestSettings {
  const roleName = core.registry.get(path)?.role;
  let role: ReturnType<RuntimeCore['config']['roles']['resolve']>;
  try {
    role = core.config.roles.resolve(roleName);
  } catch {
    // A resumed agent whose role the host no longer configures keeps the runtime's settings.
    role = undefined;
  }
  return {
    retry: resolveRetryPolicy(role?.retry, core.config.retry),
    timeoutMs: role?.requestTimeoutMs ?? core.config.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
  };
}

/**
 * Runs `run` until it answers, a failure is final, or the retries are spent. A failure that
 * remains is rethrown (after retries, with the number of attempts in its message and the
 * last error as `cause`); an abort of `signal` rejects with an AbortError at once. `tally`,
 * when given, holds the number of attempts made so far (what a failure cost).
 */
export async function withRetries<T>(
  core: RuntimeCore,
  path: string,
  settings: RequestSettings,
  signal: AbortSignal,
  run: (signal: AbortSignal) => PromiseLike<T> | T,
  tally?: { attempts: number },
): Promise<Attempted<T>> {
  for (let retries = 0; ; retries++) {
    try {
      if (tally) tally.attempts = retries + 1;
      return { value: await attempt(core.config.clock, settings.timeoutMs, signal, run), retries };
    } catch (error) {
      if (signal.aborted) throw error;
      const failure = classifyFailure(error, core.config.now());
      if (!failure.transient || retries >= settings.retry.maxRetries) {
        if (retries === 0) throw error;
        throw new Error(`${errorText(error)} (gave up after ${retries + 1} attempts)`, { cause: error });
      }
      const delayMs = retryDelay(settings.retry, retries + 1, failure.retryAfterMs);
      core.events.emit('retry', { path, attempt: retries + 1, delayMs, error: errorText(error), ...(failure.status !== undefined ? { status: failure.status } : {}) });
      core.trace?.chatRetried(path, { attempt: retries + 1, delayMs, errorType: failureCode(error, failure.status), error: errorText(error), status: failure.status });
      await core.config.clock.sleep(delayMs, signal);
    }
  }
}

/**
 * One attempt: `run` gets a signal that aborts when `signal` does or when `timeoutMs` passes
 * (then the attempt rejects with a {@link RequestTimeoutError}). The attempt settles at once
 * either way, even if `run` ignores its signal; its timer and listener are removed when it ends.
 */
async function attempt<T>(clock: Clock, timeoutMs: number, signal: AbortSignal, run: (signal: AbortSignal) => PromiseLike<T> | T): Promise<T> {
  throwIfAborted(signal);
  const controller = new AbortController();
  let timedOut = false;
  // The attempt settles as soon as its signal aborts, even if `run` ignores it. It is aborted
  // only from here, so it rejects here too (no listener of its own on its signal).
  let rejectAttempt: ((error: unknown) => void) | undefined;
  const abortAttempt = (reason: unknown): void => {
    controller.abort(reason);
    rejectAttempt?.(abortError(controller.signal));
  };
  const forward = (): void => abortAttempt(signal.reason);
  signal.addEventListener('abort', forward, { once: true });
  const cancelTimeout = Number.isFinite(timeoutMs)
    ? startTimeout(clock, timeoutMs, () => {
        timedOut = true;
        abortAttempt(new RequestTimeoutError(timeoutMs));
      })
    : undefined;
  try {
    return await new Promise<T>((resolve, reject) => {
      rejectAttempt = reject;
      // A synchronous throw from `run` becomes a rejection like any other failure.
      new Promise<T>((settle) => settle(run(controller.signal))).then(resolve, reject);
    });
  } catch (error) {
    if (timedOut && !signal.aborted) throw new RequestTimeoutError(timeoutMs);
    throw error;
  } finally {
    signal.removeEventListener('abort', forward);
    cancelTimeout?.();
  }
}

/**
 * Calls `onTimeout` after `ms` on `clock`, unless the returned function is called first. The
 * system clock's sleep is a global `setTimeout` (looked up now, so fake timers still drive
 * it): calling it directly spares every model request an AbortController, a listener, a
 * promise and its rejection. Any other clock is waited on through its `sleep`.
 */
function startTimeout(clock: Clock, ms: number, onTimeout: () => void): () => void {
  if (clock === systemClock) {
    const timer = setTimeout(onTimeout, ms);
    return () => clearTimeout(timer);
  }
  const wait = new AbortController();
  clock.sleep(ms, wait.signal).then(onTimeout, () => undefined);
  return () => wait.abort(ATTEMPT_ENDED);
}

/**
 * What ends an attempt's timeout wait on a clock other than the system's. One shared
 * AbortError: aborting without a reason makes a new DOMException (and its stack) each time,
 * which nothing ever reads.
 */
const ATTEMPT_ENDED = new DOMException('the request attempt ended', 'AbortError');
