import { describe, expect, it } from 'vitest';
import { Dialogue } from '../../src/dialogue/dialogue.js';
import { compact, inject, open, reply, result } from './helpers.js';

describe('turns', () => {
  it('a turn spans from its opener to the next one', () => {
    const d = Dialogue.of([open('u1'), reply('a1', ['c1']), result('c1'), reply('a2'), open('u2'), inject('m1'), reply('a3')]);
    expect(d.turns()).toEqual([
      { index: 0, start: 0, end: 4, finished: true },
      { index: 1, start: 4, end: 7, finished: true },
    ]);
    expect(Object.isFrozen(d.turns())).toBe(true);
    expect(Object.isFrozen(d.turns()[0])).toBe(true);
    expect(d.activeTurn()).toBeUndefined();
  });

  it('a turn is active until a reply without calls ends it', () => {
    let d = Dialogue.of([open('u1')]);
    expect(d.activeTurn()).toEqual({ index: 0, start: 0, end: 1, finished: false });
    d = d.append(reply('a1', ['c1']));
    expect(d.activeTurn()?.end).toBe(2);
    d = d.append(result('c1'));
    expect(d.activeTurn()?.end).toBe(3);
    d = d.append(reply('a2'));
    expect(d.activeTurn()).toBeUndefined();
    expect(d.turns().at(-1)?.finished).toBe(true);
  });

  it('a later opener finishes the previous turn even without a final reply', () => {
    const d = Dialogue.of([open('u1'), open('u2')]);
    expect(d.turns().map((t) => t.finished)).toEqual([true, false]);
    expect(d.activeTurn()?.index).toBe(1);
  });

  it('an injected user entry after the final reply makes the turn active again', () => {
    const d = Dialogue.of([open('u1'), reply('a1'), inject('m1')]);
    expect(d.activeTurn()?.index).toBe(0);
  });

  it('compacting an idle dialogue does not reopen its last turn', () => {
    const d = Dialogue.of([open('u1'), reply('a1'), compact('s1', 'u1')]);
    expect(d.activeTurn()).toBeUndefined();
    expect(d.turns()).toEqual([{ index: 0, start: 0, end: 3, finished: true }]);
  });

  it('entries before the first opener belong to no turn', () => {
    const d = Dialogue.of([inject('m1'), reply('a1'), open('u1')]);
    expect(d.turns().map((t) => t.start)).toEqual([2]);
    expect(Dialogue.of([inject('m1')]).activeTurn()).toBeUndefined();
  });

  it('turn(i) and turnCount read the index in O(1)', () => {
    const d = Dialogue.of([open('u1'), reply('a1'), open('u2'), reply('a2', ['c1'])]);
    expect(d.turnCount).toBe(2);
    expect(d.turn(0)).toEqual({ index: 0, start: 0, end: 2, finished: true });
    expect(d.turn(-1)).toEqual({ index: 1, start: 2, end: 4, finished: false });
    expect(d.turn(2)).toBeUndefined();
    expect(d.turn(-3)).toBeUndefined();
    expect(d.turn(0.5)).toBeUndefined();
  });
});

describe('effective turns', () => {
  const log = [open('u1'), reply('a1'), open('u2'), inject('m1'), reply('a2'), open('u3'), reply('a3')];

  it('without compaction, every turn counts', () => {
    const d = Dialogue.of(log);
    expect(d.effectiveTurnCount()).toBe(3);
    expect(d.recentTurnsStart(1)).toBe(5);
    expect(d.recentTurnsStart(2)).toBe(2);
    expect(d.recentTurnsStart(3)).toBe(0);
    expect(d.recentTurnsStart(99)).toBe(0);
    expect(d.recentTurnsStart(Infinity)).toBe(0);
  });

  it('non-positive or NaN counts select nothing; fractions round down', () => {
    const d = Dialogue.of(log);
    expect(d.recentTurnsStart(0)).toBe(d.length);
    expect(d.recentTurnsStart(-2)).toBe(d.length);
    expect(d.recentTurnsStart(Number.NaN)).toBe(d.length);
    expect(d.recentTurnsStart(1.9)).toBe(5);
  });

  it('turns compacted away do not count', () => {
    const d = Dialogue.of([...log, compact('s1', 'u2')]);
    expect(d.effectiveTurnCount()).toBe(2);
    expect(d.recentTurnsStart(5)).toBe(2);
  });

  it('a leading partial turn whose opener was compacted away counts as one', () => {
    const d = Dialogue.of([...log, compact('s1', 'm1')]);
    expect(d.effectiveStart()).toBe(3);
    expect(d.effectiveTurnCount()).toBe(2);
    expect(d.recentTurnsStart(1)).toBe(5);
    expect(d.recentTurnsStart(2)).toBe(3);
  });

  it('compaction entries alone do not make a partial turn', () => {
    const d = Dialogue.of([open('u1'), reply('a1'), compact('s1', null), compact('s2', null), open('u2')]);
    expect(d.effectiveStart()).toBe(3);
    expect(d.effectiveTurnCount()).toBe(1);
  });

  it('entries before the first opener form a partial turn without compaction too', () => {
    const d = Dialogue.of([inject('m1'), reply('a1'), open('u1'), reply('a2')]);
    expect(d.effectiveTurnCount()).toBe(2);
    expect(d.recentTurnsStart(1)).toBe(2);
    expect(d.recentTurnsStart(2)).toBe(0);
  });
});
