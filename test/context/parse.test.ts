import { describe, expect, it } from 'vitest';
import { ContextSpecError } from '../../src/context/errors.js';
import { ACCEPTED_CONTEXT_VALUES, contextLabel, contextModeOf, isContextSpec, parseContextSpec } from '../../src/context/parse.js';
import type { ContextSpec } from '../../src/context/types.js';
import { thrown } from '../thrown.js';

/** The ContextSpecError parsing `value` throws. */
function rejection(value: unknown): ContextSpecError {
  return thrown(() => parseContextSpec(value), ContextSpecError);
}

describe('parseContextSpec', () => {
  it.each([
    ['none', 'none'],
    ['independent', 'none'],
    ['all', 'all'],
    ['fork', 'all'],
    ['summary', 'summary'],
    [3, { turns: 3 }],
    [1, { turns: 1 }],
    ['3', { turns: 3 }],
    ['12', { turns: 12 }],
    [Number.MAX_SAFE_INTEGER, { turns: Number.MAX_SAFE_INTEGER }],
    [String(Number.MAX_SAFE_INTEGER), { turns: Number.MAX_SAFE_INTEGER }],
  ] as const)('accepts %j', (value, expected) => {
    expect(parseContextSpec(value)).toEqual(expected);
  });

  it('returns frozen turn specs', () => {
    expect(Object.isFrozen(parseContextSpec('4'))).toBe(true);
  });

  it.each([
    [0, '0', 'a number of turns must be at least 1'],
    [-2, '-2', 'a number of turns must be at least 1'],
    [1.5, '1.5', 'a number of turns must be a whole number'],
    [Number.NaN, 'NaN', 'it is not a finite number'],
    [Infinity, 'Infinity', 'it is not a finite number'],
    [2 ** 53, '9007199254740992', 'it is larger than the largest safe integer'],
    ['9007199254740992', '"9007199254740992"', 'it is larger than the largest safe integer'],
    ['0', '"0"', 'it is not a known context value'],
    ['-3', '"-3"', 'it is not a known context value'],
    ['03', '"03"', 'it is not a known context value'],
    ['3.0', '"3.0"', 'it is not a known context value'],
    ['3 turns', '"3 turns"', 'it is not a known context value'],
    [' 3', '" 3"', 'surrounding whitespace is not accepted'],
    ['all ', '"all "', 'surrounding whitespace is not accepted'],
    ['All', '"All"', 'it is not a known context value'],
    ['everything', '"everything"', 'it is not a known context value'],
    ['', '""', 'it is not a known context value'],
    ['toString', '"toString"', 'it is not a known context value'],
    [null, 'null', 'a null is not a context value'],
    [undefined, 'undefined', 'a undefined is not a context value'],
    [true, 'true', 'a boolean is not a context value'],
    [{ turns: 3 }, '{"turns":3}', 'a object is not a context value'],
    [[3], '[3]', 'a array is not a context value'],
    [3n, '3n', 'a bigint is not a context value'],
  ])('rejects %s', (value, shown, reason) => {
    const error = rejection(value);
    expect(error.code).toBe('invalid_context');
    expect(error.name).toBe('ContextSpecError');
    expect(error.value).toBe(value);
    expect(error.message).toBe(`Invalid context ${shown}: ${reason}. Accepted: ${ACCEPTED_CONTEXT_VALUES}.`);
  });

  it('quotes long or unserializable values briefly', () => {
    expect(rejection('x'.repeat(200)).message).toContain(`"${'x'.repeat(76)}...:`);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(rejection(cyclic).message).toContain('Invalid context [object Object]: a object');
    expect(rejection(Symbol('s')).message).toContain('Invalid context Symbol(s): a symbol');
  });

  it('lists exactly what is accepted', () => {
    expect(ACCEPTED_CONTEXT_VALUES).toBe(
      '"none" (or "independent"), "all" (or "fork"), "summary", or a positive whole number of recent turns (a number like 3 or a decimal string like "3")',
    );
  });
});

describe('contextModeOf and contextLabel', () => {
  const cases: [ContextSpec, string, string][] = [
    ['none', 'none', 'none'],
    ['all', 'all', 'all'],
    ['summary', 'summary', 'summary'],
    [{ turns: 3 }, 'turns', '3'],
  ];
  it.each(cases)('%j has mode %s and label %s', (spec, mode, label) => {
    expect(contextModeOf(spec)).toBe(mode);
    expect(contextLabel(spec)).toBe(label);
    expect(parseContextSpec(contextLabel(spec))).toEqual(spec);
  });
});

describe('isContextSpec', () => {
  it.each([['none'], ['all'], ['summary'], [{ turns: 2 }]])('accepts %j', (value) => {
    expect(isContextSpec(value)).toBe(true);
  });
  it.each([['fork'], ['independent'], [{ turns: 0 }], [{ turns: 1.5 }], [{ turns: '3' }], [{}], [null], [3], [undefined]])('rejects %j', (value) => {
    expect(isContextSpec(value)).toBe(false);
  });
});
