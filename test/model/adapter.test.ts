import { describe, expect, it } from 'vitest';
import { addUsage, requestUsage, ZERO_USAGE } from '../../src/model/adapter.js';

describe('usage arithmetic', () => {
  it('adds field by field', () => {
    const a = { inputTokens: 1, outputTokens: 2, cacheReadTokens: 3, cacheWriteTokens: 4, requests: 5, retries: 6 };
    expect(addUsage(a, a)).toEqual({ inputTokens: 2, outputTokens: 4, cacheReadTokens: 6, cacheWriteTokens: 8, requests: 10, retries: 12 });
    expect(addUsage(a, ZERO_USAGE)).toEqual(a);
    expect(Object.isFrozen(ZERO_USAGE)).toBe(true);
  });

  it('keeps a cost only when both sides have one', () => {
    const a = { ...ZERO_USAGE, inputTokens: 1, cost: 0.5 };
    expect(addUsage(a, a).cost).toBe(1);
    expect(addUsage(a, ZERO_USAGE)).not.toHaveProperty('cost');
  });

  it('counts a reply as one request unless it reports its own counts, and adds retries to both', () => {
    const tokens = { inputTokens: 10, outputTokens: 2, cacheReadTokens: 0, cacheWriteTokens: 0 };
    expect(requestUsage(tokens)).toMatchObject({ requests: 1, retries: 0 });
    expect(requestUsage(tokens, 2)).toMatchObject({ requests: 3, retries: 2, inputTokens: 10 });
    expect(requestUsage({ ...tokens, requests: 4, retries: 3 }, 1)).toMatchObject({ requests: 5, retries: 4 });
  });
});
