import { describe, expect, it } from 'vitest';
import type { Entry } from '../../src/dialogue/entry.js';
import { EntrySeqBuilder, EntryView } from '../../src/dialogue/entry-seq.js';
import type { EntrySeq } from '../../src/dialogue/types.js';
import { ids, isDeepFrozen, open, reply } from './helpers.js';

const es = (...names: string[]): Entry[] => names.map((n) => open(n));

/** A foreign EntrySeq (not an EntryView), like other layers build. */
function foreign(entries: readonly Entry[]): EntrySeq {
  return Object.freeze({
    length: entries.length,
    at: (i: number) => entries[i],
    toArray: () => Object.freeze([...entries]),
    [Symbol.iterator]: () => entries[Symbol.iterator](),
  });
}

describe('EntryView', () => {
  it('EMPTY is empty and frozen', () => {
    expect(EntryView.EMPTY.length).toBe(0);
    expect(EntryView.EMPTY.at(0)).toBeUndefined();
    expect([...EntryView.EMPTY]).toEqual([]);
    expect(EntryView.EMPTY.toArray()).toEqual([]);
    expect(Object.isFrozen(EntryView.EMPTY)).toBe(true);
  });

  it('of() copies its input and indexes like Array.prototype.at', () => {
    const source = es('a', 'b', 'c');
    const view = EntryView.of(source);
    source.pop();
    expect(view.length).toBe(3);
    expect(view.at(0)?.id).toBe('a');
    expect(view.at(-1)?.id).toBe('c');
    expect(view.at(-3)?.id).toBe('a');
    expect(view.at(-4)).toBeUndefined();
    expect(view.at(3)).toBeUndefined();
    expect(view.at(1.5)).toBeUndefined();
    expect(view.at(Number.NaN)).toBeUndefined();
    expect(EntryView.of([])).toBe(EntryView.EMPTY);
  });

  it('toArray returns a fresh frozen array each time', () => {
    const view = EntryView.of(es('a', 'b'));
    const one = view.toArray();
    const two = view.toArray();
    expect(one).not.toBe(two);
    expect(one).toEqual(two);
    expect(Object.isFrozen(one)).toBe(true);
  });

  it('is frozen and exposes only its length as an enumerable property', () => {
    const view = EntryView.of(es('a'));
    expect(Object.isFrozen(view)).toBe(true);
    expect(Object.keys(view)).toEqual(['length']);
    expect(isDeepFrozen(view)).toBe(true);
  });

  it('from() returns an EntryView as is and wraps a foreign sequence without copying', () => {
    const view = EntryView.of(es('a'));
    expect(EntryView.from(view)).toBe(view);
    const entries = es('x', 'y', 'z');
    const wrapped = EntryView.from(foreign(entries));
    expect(wrapped.at(1)).toBe(entries[1]);
    expect(wrapped.at(-1)).toBe(entries[2]);
    expect(ids(wrapped)).toEqual(['x', 'y', 'z']);
    expect(wrapped.runCount).toBe(1);
  });

  it('slice() follows Array.prototype.slice bounds', () => {
    const view = EntryView.of(es('a', 'b', 'c', 'd'));
    expect(ids(view.slice(1, 3))).toEqual(['b', 'c']);
    expect(ids(view.slice(-2))).toEqual(['c', 'd']);
    expect(ids(view.slice(0, -1))).toEqual(['a', 'b', 'c']);
    expect(ids(view.slice(-10, 10))).toEqual(['a', 'b', 'c', 'd']);
    expect(ids(view.slice(1.9, 2.9))).toEqual(['b']);
    expect(view.slice(3, 1).length).toBe(0);
    expect(ids(view.slice())).toEqual(['a', 'b', 'c', 'd']);
  });

  it('finds entries across many runs by binary search', () => {
    const builder = new EntrySeqBuilder();
    const all: Entry[] = [];
    for (let i = 0; i < 50; i++) {
      const e = open(`e${i}`);
      all.push(e);
      builder.entry(e);
    }
    const view = builder.build();
    expect(view.runCount).toBe(50);
    all.forEach((e, i) => expect(view.at(i)).toBe(e));
    expect([...view]).toEqual(all);
  });
});

describe('EntrySeqBuilder', () => {
  it('places single entries and ranges in order', () => {
    const a = es('a', 'b', 'c');
    const lead = reply('lead');
    const view = new EntrySeqBuilder().entry(lead).range(EntryView.of(a), 1, 3).build();
    expect(ids(view)).toEqual(['lead', 'b', 'c']);
    expect(view.at(0)).toBe(lead);
  });

  it('clamps ranges and ignores empty ones', () => {
    const view = EntryView.of(es('a', 'b'));
    const built = new EntrySeqBuilder().range(view, -5, 1).range(view, 1, 99).range(view, 2, 1).build();
    expect(ids(built)).toEqual(['a', 'b']);
    expect(new EntrySeqBuilder().range(view, 5, 9).build()).toBe(EntryView.EMPTY);
  });

  it('reads an append-only array in place, never past the given end', () => {
    const buffer = es('a', 'b');
    const view = new EntrySeqBuilder().array(buffer, 0, 2).build();
    buffer.push(open('c'));
    expect(view.length).toBe(2);
    expect(view.at(0)).toBe(buffer[0]);
    expect(new EntrySeqBuilder().array(buffer, -1, 99).build().length).toBe(3);
    expect(new EntrySeqBuilder().array(buffer, 2, 2).build().length).toBe(0);
  });

  it('merges adjacent ranges of the same store and keeps other stores apart', () => {
    const buffer = es('a', 'b', 'c', 'd');
    const merged = new EntrySeqBuilder().array(buffer, 0, 2).array(buffer, 2, 4).build();
    expect(merged.runCount).toBe(1);
    expect(ids(merged)).toEqual(['a', 'b', 'c', 'd']);
    const gap = new EntrySeqBuilder().array(buffer, 0, 1).array(buffer, 2, 4).build();
    expect(gap.runCount).toBe(2);
    const other = es('x');
    const two = new EntrySeqBuilder().array(buffer, 0, 1).array(other, 0, 1).build();
    expect(two.runCount).toBe(2);
    const seq = foreign(buffer);
    const seqMerged = new EntrySeqBuilder().range(seq, 0, 2).range(seq, 2, 4).build();
    expect(seqMerged.runCount).toBe(1);
    expect(ids(seqMerged)).toEqual(['a', 'b', 'c', 'd']);
    const mixed = new EntrySeqBuilder().range(seq, 0, 1).array(buffer, 1, 2).range(seq, 2, 3).build();
    expect(mixed.runCount).toBe(3);
    expect(ids(mixed)).toEqual(['a', 'b', 'c']);
  });

  it('flattens views of views, so nesting never deepens lookups', () => {
    const buffer = es('a', 'b', 'c', 'd', 'e');
    const inner = new EntrySeqBuilder().array(buffer, 0, 2).entry(reply('x')).array(buffer, 2, 5).build();
    const outer = new EntrySeqBuilder().range(inner, 1, 5).build();
    expect(ids(outer)).toEqual(['b', 'x', 'c', 'd']);
    expect(outer.runCount).toBe(3);
    const again = new EntrySeqBuilder().all(outer).all(outer).build();
    expect(ids(again)).toEqual(['b', 'x', 'c', 'd', 'b', 'x', 'c', 'd']);
  });

  it('reads foreign sequences through at() when iterating', () => {
    const entries = es('a', 'b', 'c');
    const view = new EntrySeqBuilder().range(foreign(entries), 1, 3).build();
    expect([...view]).toEqual([entries[1], entries[2]]);
    expect(view.at(0)).toBe(entries[1]);
  });

  it('can keep building after build()', () => {
    const builder = new EntrySeqBuilder().entry(open('a'));
    const first = builder.build();
    const second = builder.entry(open('b')).build();
    expect(ids(first)).toEqual(['a']);
    expect(ids(second)).toEqual(['a', 'b']);
  });
});

describe('flattening clips runs of every kind', () => {
  it('slices across array, single-entry and foreign runs', () => {
    const entries = es('a', 'b', 'c', 'd');
    const x = reply('x');
    const view = new EntrySeqBuilder().range(foreign(entries), 0, 2).entry(x).array(entries, 2, 4).range(foreign(entries), 0, 2).build();
    expect(ids(view)).toEqual(['a', 'b', 'x', 'c', 'd', 'a', 'b']);
    expect(view.runCount).toBe(4);
    const middle = view.slice(1, 4);
    expect(ids(middle)).toEqual(['b', 'x', 'c']);
    expect(middle.at(0)).toBe(entries[1]);
    expect(middle.runCount).toBe(3);
    const tail = view.slice(5);
    expect(ids(tail)).toEqual(['a', 'b']);
    expect(tail.runCount).toBe(1);
  });
});
