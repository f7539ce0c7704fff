/**
 * Kept for callers of the earlier name: {@link sanitizeContext} is idempotent now, so
 * sanitizing twice (the runtime, then an inspector's own options) is safe.
 */
import { sanitizeContext } from './sanitize.js';

/** Same as {@link sanitizeContext}. */
export const sanitizeContextOnce: (context: unknown) => unknown = sanitizeContext;
