import { describe, expect, it } from 'vitest';
import { userEntry } from '../../src/dialogue/entry.js';
import { addUsage, ZERO_USAGE } from '../../src/model/adapter.js';
import { appendEntries, entrySeq } from '../../src/model/entry-seq.js';

describe('usage arithmetic', () => {
  it('adds field by field', () => {
    const a = { inputTokens: 1, outputTokens: 2, cacheReadTokens: 3, cacheWriteTokens: 4 };
    expect(addUsage(a, a)).toEqual({ inputTokens: 2, outputTokens: 4, cacheReadTokens: 6, cacheWriteTokens: 8 });
    expect(addUsage(a, ZERO_USAGE)).toEqual(a);
    expect(Object.isFrozen(ZERO_USAGE)).toBe(true);
  });
});

describe('entrySeq', () => {
  it('is an indexable, iterable, frozen view that appending does not change', () => {
    const u1 = userEntry({ text: 'one', id: 'u1' });
    const u2 = userEntry({ text: 'two', id: 'u2' });
    const source = [u1];
    const seq = entrySeq(source);
    source.push(u2);
    expect(seq.length).toBe(1);
    expect(seq.at(0)).toBe(u1);
    expect(seq.at(1)).toBeUndefined();
    const longer = appendEntries(seq, u2);
    expect([...longer]).toEqual([u1, u2]);
    expect(longer.toArray()).toEqual([u1, u2]);
    expect(Object.isFrozen(longer.toArray())).toBe(true);
    expect(seq.length).toBe(1);
  });
});
