import { describe, expect, it } from 'vitest';
import { Dialogue } from '../../src/dialogue/dialogue.js';
import type { Entry } from '../../src/dialogue/entry.js';
import { EntryView } from '../../src/dialogue/entry-seq.js';
import { DialogueError } from '../../src/dialogue/errors.js';
import type { EntrySeq } from '../../src/dialogue/types.js';
import { compact, ids, inject, open, reply, result } from './helpers.js';

const parentLog = (): Dialogue =>
  Dialogue.of([open('u1'), reply('a1', ['c1']), result('c1'), reply('a2'), open('u2'), reply('a2b'), compact('s1', 'u2'), open('u3'), reply('a3')]);

describe('Dialogue.seeded', () => {
  it('reads the seed in place and appends after it', () => {
    const parent = parentLog();
    const seed = parent.effective();
    const child = Dialogue.seeded(seed).append(open('task'));
    expect(child.seedLength).toBe(seed.length);
    expect(ids(child.log)).toEqual(['s1', 'u2', 'a2b', 'u3', 'a3', 'task']);
    for (let i = 0; i < seed.length; i++) expect(child.at(i)).toBe(seed.at(i));
    expect((child.log as EntryView).runCount).toBeLessThanOrEqual(4);
  });

  it('a leading compaction governs the rest of the seed, whatever its anchorId says', () => {
    for (const anchorId of ['u2', 'elsewhere', null]) {
      const seed = EntryView.of([compact('s1', anchorId), open('u3'), reply('a3')]);
      const child = Dialogue.seeded(seed);
      expect(child.effectiveStart()).toBe(1);
      expect(ids(child.effective())).toEqual(['s1', 'u3', 'a3']);
      expect(child.latestCompaction()?.id).toBe('s1');
    }
  });

  it('the child may compact at seed user entries, never before the seed summary', () => {
    const seed = EntryView.of([compact('s1', 'gone'), inject('m1'), reply('a1'), open('u3'), reply('a3')]);
    const child = Dialogue.seeded(seed).append(open('task')).append(reply('done'));
    expect(ids(child.append(compact('s2', 'm1')).effective())).toEqual(['s2', 'm1', 'a1', 'u3', 'a3', 'task', 'done']);
    expect(ids(child.append(compact('s2', 'task')).effective())).toEqual(['s2', 'task', 'done']);
    expect(() => child.append(compact('s2', 'gone'))).toThrow(DialogueError);
  });

  it('counts a leading partial turn of the seed as a turn', () => {
    const seed = EntryView.of([compact('s1', 'x'), inject('m1'), reply('a1'), open('u3'), reply('a3')]);
    const child = Dialogue.seeded(seed);
    expect(child.effectiveTurnCount()).toBe(2);
    expect(child.turns().map((t) => t.start)).toEqual([3]);
  });

  it('rejects an invalid seed with the rule it breaks', () => {
    const orphan = EntryView.of([open('u1'), result('c1')]);
    expect(() => Dialogue.seeded(orphan)).toThrow(expect.objectContaining({ code: 'unknown_tool_call', position: 1 }));
    const early = EntryView.of([open('u1'), reply('a1'), compact('s1', 'u2'), open('u2')]);
    expect(() => Dialogue.seeded(early)).toThrow(expect.objectContaining({ code: 'unknown_anchor', position: 2 }));
    const lateCompaction = EntryView.of([open('u1'), compact('s1', 'u9')]);
    expect(() => Dialogue.seeded(lateCompaction)).toThrow(expect.objectContaining({ code: 'unknown_anchor' }));
  });

  it('a seed ending in pending calls must be answered first', () => {
    const child = Dialogue.seeded(EntryView.of([open('u1'), reply('a1', ['c1'])]));
    expect(child.pendingCalls().map((c) => c.id)).toEqual(['c1']);
    expect(() => child.append(open('task'))).toThrow(expect.objectContaining({ code: 'pending_tool_calls' }));
    expect(child.append(result('c1')).pendingCalls()).toEqual([]);
  });

  it('accepts a foreign EntrySeq as seed', () => {
    const entries: readonly Entry[] = [open('u1'), reply('a1')];
    const seq: EntrySeq = { length: 2, at: (i) => entries[i], toArray: () => entries, [Symbol.iterator]: () => entries[Symbol.iterator]() };
    const child = Dialogue.seeded(seq).append(open('u2'));
    expect(child.at(0)).toBe(entries[0]);
    expect(ids(child.effective())).toEqual(['u1', 'a1', 'u2']);
  });

  it('children seeded from one snapshot and the parent evolve independently', () => {
    const parent = parentLog();
    const seed = parent.effective();
    const one = Dialogue.seeded(seed).append(open('t1'));
    const two = Dialogue.seeded(seed).append(open('t2'));
    const parentLater = parent.append(open('u4'));
    expect(ids(one.log).at(-1)).toBe('t1');
    expect(ids(two.log).at(-1)).toBe('t2');
    expect(ids(seed)).toEqual(['s1', 'u2', 'a2b', 'u3', 'a3']);
    expect(parentLater.length).toBe(parent.length + 1);
  });

  it('a grandchild seeded from a child view stays one level deep', () => {
    const parent = parentLog();
    const child = Dialogue.seeded(parent.effective()).append(open('t1')).append(reply('r1'));
    const grandchild = Dialogue.seeded(child.effective()).append(open('t2'));
    expect(ids(grandchild.log)).toEqual(['s1', 'u2', 'a2b', 'u3', 'a3', 't1', 'r1', 't2']);
    expect((grandchild.log as EntryView).runCount).toBeLessThanOrEqual(5);
    expect(grandchild.at(0)).toBe(parent.latestCompaction());
  });

  it('an empty seed gives an empty dialogue', () => {
    const child = Dialogue.seeded(EntryView.EMPTY);
    expect(child.length).toBe(0);
    expect(child.append(open('u1')).length).toBe(1);
  });
});
