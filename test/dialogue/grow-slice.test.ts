import { describe, expect, it } from 'vitest';
import { GrowSlice } from '../../src/dialogue/grow-slice.js';

const items = <T>(s: GrowSlice<T>): (T | undefined)[] => Array.from({ length: s.length }, (_, i) => s.at(i));

describe('GrowSlice', () => {
  it('starts empty', () => {
    const s = GrowSlice.empty<number>();
    expect(s.length).toBe(0);
    expect(s.at(0)).toBeUndefined();
    expect(s.last()).toBeUndefined();
  });

  it('push returns a new version and leaves the old one unchanged', () => {
    const a = GrowSlice.empty<number>().push(1);
    const b = a.push(2);
    expect(items(a)).toEqual([1]);
    expect(items(b)).toEqual([1, 2]);
    expect(b.last()).toBe(2);
    expect(a.at(1)).toBeUndefined();
    expect(b.at(-1)).toBeUndefined();
  });

  it('appending to an older version copies, so both branches keep their contents', () => {
    const base = GrowSlice.empty<string>().push('a');
    const left = base.push('b').push('c');
    const right = base.push('x');
    const leftMore = left.push('d');
    expect(items(base)).toEqual(['a']);
    expect(items(left)).toEqual(['a', 'b', 'c']);
    expect(items(right)).toEqual(['a', 'x']);
    expect(items(leftMore)).toEqual(['a', 'b', 'c', 'd']);
    expect(items(right.push('y'))).toEqual(['a', 'x', 'y']);
  });

  it('is one empty slice for everyone, and what one caller appends to it reaches no other', () => {
    const empty = GrowSlice.empty<string>();
    expect(GrowSlice.empty<number>()).toBe(empty);
    const mine = empty.push('mine');
    const yours = GrowSlice.empty<string>().push('yours');
    expect(items(mine)).toEqual(['mine']);
    expect(items(yours)).toEqual(['yours']);
    expect(items(empty)).toEqual([]);
    expect(items(mine.push('more'))).toEqual(['mine', 'more']);
    expect(items(yours)).toEqual(['yours']);
  });

  it('lowerBound finds the first key at or above a value', () => {
    let s = GrowSlice.empty<number>();
    for (const n of [2, 4, 4, 8]) s = s.push(n);
    const id = (n: number): number => n;
    expect(s.lowerBound(0, id)).toBe(0);
    expect(s.lowerBound(4, id)).toBe(1);
    expect(s.lowerBound(5, id)).toBe(3);
    expect(s.lowerBound(9, id)).toBe(4);
    expect(GrowSlice.empty<number>().lowerBound(1, id)).toBe(0);
  });
});
