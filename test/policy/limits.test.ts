import { describe, expect, it } from 'vitest';
import type { LimitCheck } from '../../src/policy/limits.js';
import { checkLimits, DEFAULT_LIMITS, LimitError, resolveLimits } from '../../src/policy/limits.js';

/** The error of a refused check. */
function refusal(check: LimitCheck): LimitError {
  if (check.ok) throw new Error('expected a refusal');
  expect(check.error).toBeInstanceOf(LimitError);
  return check.error;
}

describe('limits', () => {
  it('defaults to depth 3 and 8 concurrent subagents, with no runtime cap, and 64 levels and 1 MiB for inputs', () => {
    const inputs = { maxArgumentDepth: 64, maxArgumentBytes: 1_048_576, maxAnswerDepth: 64, maxAnswerBytes: 1_048_576, maxSchemaDepth: 64, maxSchemaBytes: 1_048_576 };
    expect(DEFAULT_LIMITS).toEqual({ maxDepth: 3, maxChildren: 8, ...inputs });
    expect(resolveLimits()).toEqual(DEFAULT_LIMITS);
    expect(resolveLimits({ maxDepth: undefined, maxTotal: 20 })).toEqual({ maxDepth: 3, maxChildren: 8, maxTotal: 20, ...inputs });
    expect(Object.isFrozen(resolveLimits({ maxDepth: 0 }))).toBe(true);
  });

  it('rejects limits that are not positive integers', () => {
    expect(() => resolveLimits({ maxDepth: -1 })).toThrow('limit maxDepth must be an integer of at least 0, got -1');
    expect(() => resolveLimits({ maxChildren: 0 })).toThrow('limit maxChildren must be an integer of at least 1, got 0');
    expect(() => resolveLimits({ maxTotal: 2.5 })).toThrow(RangeError);
    expect(() => resolveLimits({ maxChildren: Number.NaN })).toThrow(RangeError);
  });

  it('allows spawns within every limit', () => {
    expect(checkLimits({ depth: 3, liveChildren: 7, liveTotal: 100 }, DEFAULT_LIMITS)).toEqual({ ok: true });
    expect(checkLimits({ depth: 1, liveChildren: 0, liveTotal: 4 }, { ...DEFAULT_LIMITS, maxTotal: 5 })).toEqual({ ok: true });
  });

  it('refuses a subagent deeper than maxDepth', () => {
    const error = refusal(checkLimits({ depth: 4, liveChildren: 0, liveTotal: 0 }, DEFAULT_LIMITS));
    expect(error).toMatchObject({ code: 'depth_limit', limit: 'maxDepth', maximum: 3, name: 'LimitError' });
    expect(error.message).toBe(
      'cannot start a subagent at depth 4: the maximum depth is 3; do this work yourself or return it to your caller',
    );
  });

  it('refuses a ninth concurrent subagent of one parent', () => {
    const error = refusal(checkLimits({ depth: 1, liveChildren: 8, liveTotal: 8 }, DEFAULT_LIMITS));
    expect(error).toMatchObject({ code: 'capacity', limit: 'maxChildren', maximum: 8 });
    expect(error.message).toBe(
      'cannot start another subagent: 8 of at most 8 are already running for this agent; wait for one to finish or close one',
    );
  });

  it('refuses past the runtime-wide total', () => {
    const error = refusal(checkLimits({ depth: 2, liveChildren: 1, liveTotal: 5 }, resolveLimits({ maxTotal: 5 })));
    expect(error).toMatchObject({ code: 'capacity', limit: 'maxTotal', maximum: 5 });
    expect(error.message).toBe('cannot start another subagent: the runtime already runs 5 of at most 5; wait for one to finish');
    expect(error.reason).toBe('the runtime already runs 5 of at most 5; wait for one to finish');
  });

  it('checks depth before capacity', () => {
    expect(refusal(checkLimits({ depth: 9, liveChildren: 99, liveTotal: 99 }, resolveLimits({ maxTotal: 1 }))).code).toBe('depth_limit');
  });

  it('with maxDepth 0 refuses every subagent', () => {
    expect(refusal(checkLimits({ depth: 1, liveChildren: 0, liveTotal: 0 }, resolveLimits({ maxDepth: 0 }))).code).toBe('depth_limit');
  });
});
