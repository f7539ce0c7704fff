import { describe, expect, it } from 'vitest';
import { Dialogue } from '../../src/dialogue/dialogue.js';
import type { EntryView } from '../../src/dialogue/entry-seq.js';
import { compact, ids, inject, open, reply, result } from './helpers.js';

describe('effective dialogue', () => {
  it('is the whole log without compactions, built once per version', () => {
    const d = Dialogue.of([open('u1'), reply('a1')]);
    expect(ids(d.effective())).toEqual(['u1', 'a1']);
    expect(d.effective()).toBe(d.effective());
    expect(d.effective()).toBe(d.log);
  });

  it('starts with the latest compaction (the same object), then the entries from its anchor on', () => {
    const s1 = compact('s1', 'u2');
    const d = Dialogue.of([open('u1'), reply('a1'), open('u2'), reply('a2'), s1, open('u3'), reply('a3')]);
    const eff = d.effective();
    expect(ids(eff)).toEqual(['s1', 'u2', 'a2', 'u3', 'a3']);
    expect(eff.at(0)).toBe(s1);
    expect(eff.at(1)).toBe(d.at(2));
    expect(d.latestCompaction()).toBe(s1);
    expect(d.effective()).toBe(eff);
  });

  it('a null anchor replaces everything written before the compaction', () => {
    const d = Dialogue.of([open('u1'), reply('a1'), compact('s1', null), open('u2')]);
    expect(ids(d.effective())).toEqual(['s1', 'u2']);
  });

  it('an anchor may be an injected user entry', () => {
    const d = Dialogue.of([open('u1'), reply('a1', ['c1']), result('c1'), inject('m1'), reply('a2'), compact('s1', 'm1')]);
    expect(ids(d.effective())).toEqual(['s1', 'm1', 'a2']);
  });

  it('older compaction entries never appear, even inside the visible range', () => {
    const d = Dialogue.of([open('u1'), reply('a1'), open('u2'), reply('a2'), compact('s1', 'u1'), open('u3'), reply('a3'), compact('s2', 'u2'), open('u4')]);
    expect(ids(d.effective())).toEqual(['s2', 'u2', 'a2', 'u3', 'a3', 'u4']);
  });

  it('compactions can follow compactions with the same anchor', () => {
    const d = Dialogue.of([open('u1'), reply('a1'), compact('s1', 'u1'), compact('s2', 'u1'), compact('s3', 'u1')]);
    expect(ids(d.effective())).toEqual(['s3', 'u1', 'a1']);
  });

  it('a compaction in the middle of an active turn keeps the turn going', () => {
    const d = Dialogue.of([open('u1'), reply('a1', ['c1']), result('c1'), compact('s1', 'u1'), reply('a2', ['c2'])]);
    expect(ids(d.effective())).toEqual(['s1', 'u1', 'a1', 'r_c1', 'a2']);
    expect(d.activeTurn()?.index).toBe(0);
  });

  it('is a view whose size in runs grows with compactions, not entries', () => {
    let d = Dialogue.of([open('u0')]);
    for (let i = 1; i < 500; i++) d = d.append(reply(`a${i}`)).append(open(`u${i}`));
    d = d.append(compact('s1', 'u10'));
    for (let i = 500; i < 1000; i++) d = d.append(reply(`a${i}`)).append(open(`u${i}`));
    const eff = d.effective() as EntryView;
    expect(eff.length).toBe(1 + (d.length - 1 - 20));
    expect(eff.runCount).toBe(3);
    expect(Object.isFrozen(eff)).toBe(true);
  });
});

describe('contentRange', () => {
  const d = Dialogue.of([open('u1'), reply('a1'), compact('s1', 'u1'), open('u2'), compact('s2', 'u2'), reply('a2')]);

  it('skips compaction entries', () => {
    expect(ids(d.contentRange(0))).toEqual(['u1', 'a1', 'u2', 'a2']);
    expect(ids(d.contentRange(1, 4))).toEqual(['a1', 'u2']);
    expect(ids(d.contentRange(3, 5))).toEqual(['u2']);
  });

  it('clamps its bounds', () => {
    expect(ids(d.contentRange(-4, 99))).toEqual(['u1', 'a1', 'u2', 'a2']);
    expect(d.contentRange(5, 2).length).toBe(0);
  });

  it('lastAssistantPosition and effectiveStart follow appends', () => {
    expect(d.lastAssistantPosition()).toBe(5);
    expect(d.effectiveStart()).toBe(3);
  });
});
