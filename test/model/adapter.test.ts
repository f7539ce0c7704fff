import { describe, expect, it } from 'vitest';
import { addUsage, ZERO_USAGE } from '../../src/model/adapter.js';

describe('usage arithmetic', () => {
  it('adds field by field', () => {
    const a = { inputTokens: 1, outputTokens: 2, cacheReadTokens: 3, cacheWriteTokens: 4 };
    expect(addUsage(a, a)).toEqual({ inputTokens: 2, outputTokens: 4, cacheReadTokens: 6, cacheWriteTokens: 8 });
    expect(addUsage(a, ZERO_USAGE)).toEqual(a);
    expect(Object.isFrozen(ZERO_USAGE)).toBe(true);
  });
});
