/**
 * Parsing the model-facing `context` value into a {@link ContextSpec}. Strict on purpose:
 * the value comes from a model, and a precise error it can read and retry beats a guess.
 * Words are matched exactly (case and whitespace included, so " 3" and "All" are refused),
 * and numbers must be canonical positive decimals ("3", not "03", "3.0" or "3 turns").
 */
import { ContextSpecError } from './errors.js';
import { quote } from './quote.js';
import type { ContextLabel, ContextMode, ContextSpec } from './types.js';

const WORDS: Readonly<Record<string, ContextSpec>> = Object.freeze({
  none: 'none',
  independent: 'none',
  all: 'all',
  fork: 'all',
  summary: 'summary',
});

/** What the error messages say is accepted. */
export const ACCEPTED_CONTEXT_VALUES =
  '"none" (or "independent"), "all" (or "fork"), "summary", or a positive whole number of recent turns (a number like 3 or a decimal string like "3")';

const DECIMAL = /^[1-9][0-9]*$/;

/**
 * Parses a spawn's `context` value. Accepts `none`/`independent`, `all`/`fork`, `summary`,
 * and a positive safe integer given as a number or a canonical decimal string. Anything
 * else throws a {@link ContextSpecError} (`code: 'invalid_context'`) whose message quotes
 * the value and lists what is accepted.
 */
export function parseContextSpec(value: unknown): ContextSpec {
  if (typeof value === 'string') {
    if (Object.hasOwn(WORDS, value)) return WORDS[value] as ContextSpec;
    if (DECIMAL.test(value)) return turns(Number(value), value, 'it is larger than the largest safe integer');
    return fail(value, /^\s|\s$/.test(value) ? 'surrounding whitespace is not accepted' : 'it is not a known context value');
  }
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return fail(value, 'it is not a finite number');
    if (!Number.isInteger(value)) return fail(value, 'a number of turns must be a whole number');
    if (value <= 0) return fail(value, 'a number of turns must be at least 1');
    return turns(value, value, 'it is larger than the largest safe integer');
  }
  return fail(value, `a ${typeName(value)} is not a context value`);
}

function turns(n: number, given: unknown, tooLarge: string): ContextSpec {
  return Number.isSafeInteger(n) ? Object.freeze({ turns: n }) : fail(given, tooLarge);
}

function fail(value: unknown, reason: string): never {
  throw new ContextSpecError(`Invalid context ${quote(value)}: ${reason}. Accepted: ${ACCEPTED_CONTEXT_VALUES}.`, value);
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/** Whether `value` is a well-formed canonical spec (for specs that come from configuration, not from a model). */
export function isContextSpec(value: unknown): value is ContextSpec {
  if (value === 'none' || value === 'all' || value === 'summary') return true;
  if (typeof value !== 'object' || value === null) return false;
  const n = (value as { turns?: unknown }).turns;
  return typeof n === 'number' && Number.isSafeInteger(n) && n > 0;
}

/** The mode family of a spec, as policy and metadata name it. */
export function contextModeOf(spec: ContextSpec): ContextMode {
  return typeof spec === 'string' ? spec : 'turns';
}

/** A spec as a stable string: `none`, `all`, `summary` or the decimal N (parses back to the same spec). */
export function contextLabel(spec: ContextSpec): ContextLabel {
  return typeof spec === 'string' ? spec : String(spec.turns);
}
