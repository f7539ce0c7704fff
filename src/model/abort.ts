/**
 * Abort helpers shared by the model adapters.
 *
 * Adapters must reject promptly when their signal aborts (see {@link ModelAdapter}). Callers
 * tell an abort apart from a model failure by the error's name, so every adapter rejects with
 * the same kind of error: a `DOMException` named `AbortError`, as `fetch` does.
 */

/**
 * The error an adapter rejects with when `signal` aborted. A reason that already is an
 * AbortError is reused (it keeps the caller's message); any other reason becomes the
 * message of a fresh AbortError, so callers only ever have to check `name === 'AbortError'`.
 */
export function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (isAbortError(reason)) return reason;
  const detail = reason === undefined ? '' : `: ${reason instanceof Error ? reason.message : String(reason)}`;
  return new DOMException(`The operation was aborted${detail}`, 'AbortError');
}

/** Throws {@link abortError} when `signal` has already aborted. */
export function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted) throw abortError(signal);
}

/** Whether `error` is an abort (a DOMException or Error named `AbortError`). */
export function isAbortError(error: unknown): error is Error {
  return error instanceof Error && error.name === 'AbortError';
}

/**
 * Settles like `promise`, but rejects with an AbortError as soon as `signal` aborts, even if
 * the underlying work ignores the signal. The late settlement of `promise` is then dropped.
 */
export function raceAbort<T>(promise: PromiseLike<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    // The work's own late rejection is dropped, never reported as unhandled.
    promise.then(undefined, () => undefined);
    return Promise.reject(abortError(signal));
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(abortError(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
