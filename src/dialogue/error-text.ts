/**
 * Readable text for any thrown value. Host tools, callbacks and providers may throw
 * anything (`throw Object.create(null)`, a BigInt, a cyclic object, a Proxy whose traps
 * throw); the text of such a value becomes a tool result or a result's `error`, so making it
 * must never throw itself.
 */

/** Longest error text kept; a provider's error body can be megabytes. */
export const MAX_ERROR_TEXT = 4_000;

/**
 * The message of an `Error`, a string as is, or the best description of any other value.
 * Never throws.
 *
 * @example
 * ```ts
 * errorText(new Error('disk full'));     // 'disk full'
 * errorText(Object.create(null));        // '{}'
 * errorText(10n);                        // '10'
 * ```
 */
export function errorText(error: unknown): string {
  // Only an object or a function can defeat both describe() and String() (null and every
  // other primitive converts), so the last resort names one of those two types.
  const text = attempt(() => describe(error)) ?? attempt(() => String(error)) ?? `an unprintable ${typeof error} was thrown`;
  return text.length > MAX_ERROR_TEXT ? `${text.slice(0, MAX_ERROR_TEXT)}… (truncated)` : text;
}

function describe(error: unknown): string | undefined {
  if (typeof error === 'string') return error;
  if (error instanceof Error) {
    const message: unknown = error.message;
    if (typeof message === 'string' && message !== '') return message;
    return error.name || 'Error';
  }
  if (typeof error === 'object' && error !== null) return attempt(() => jsonOf(error));
  if (typeof error === 'symbol') return error.toString();
  return String(error);
}

/** JSON with BigInts as digits and cycles marked, or undefined when there is nothing to show. */
function jsonOf(value: object): string | undefined {
  const seen = new WeakSet<object>();
  return JSON.stringify(value, (_key, v: unknown) => {
    if (typeof v === 'bigint') return v.toString();
    if (typeof v === 'object' && v !== null) {
      if (seen.has(v)) return '[Circular]';
      seen.add(v);
    }
    return v;
  });
}

function attempt(make: () => string | undefined): string | undefined {
  try {
    const text = make();
    return typeof text === 'string' ? text : undefined;
  } catch {
    return undefined;
  }
}
