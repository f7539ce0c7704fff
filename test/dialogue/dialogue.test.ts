import { describe, expect, it } from 'vitest';
import { Dialogue } from '../../src/dialogue/dialogue.js';
import type { Entry } from '../../src/dialogue/entry.js';
import { DialogueError } from '../../src/dialogue/errors.js';
import { compact, ids, inject, open, reply, result } from './helpers.js';
import { thrown } from '../thrown.js';

/** The DialogueError `fn` throws. */
function caught(fn: () => unknown): DialogueError {
  return thrown(fn, DialogueError);
}

describe('Dialogue basics', () => {
  it('an empty dialogue has nothing', () => {
    const d = Dialogue.empty();
    expect(d.length).toBe(0);
    expect(d.log.length).toBe(0);
    expect(d.effective().length).toBe(0);
    expect(d.pendingCalls()).toEqual([]);
    expect(d.activeTurn()).toBeUndefined();
    expect(d.turns()).toEqual([]);
    expect(d.latestCompaction()).toBeUndefined();
    expect(d.lastAssistantPosition()).toBe(-1);
    expect(d.effectiveStart()).toBe(0);
    expect(d.effectiveTurnCount()).toBe(0);
    expect(d.seedLength).toBe(0);
    expect(d.at(0)).toBeUndefined();
  });

  it('append returns a new frozen dialogue and leaves the old one unchanged', () => {
    const d0 = Dialogue.empty();
    const u = open('u1');
    const d1 = d0.append(u);
    expect(d1).not.toBe(d0);
    expect(Object.isFrozen(d1)).toBe(true);
    expect(d0.length).toBe(0);
    expect(d1.length).toBe(1);
    expect(d1.at(0)).toBe(u);
    expect(d1.log.at(0)).toBe(u);
  });

  it('at() accepts negative positions and rejects fractions', () => {
    const d = Dialogue.of([open('u1'), reply('a1')]);
    expect(d.at(-1)?.id).toBe('a1');
    expect(d.at(-2)?.id).toBe('u1');
    expect(d.at(-3)).toBeUndefined();
    expect(d.at(2)).toBeUndefined();
    expect(d.at(0.5)).toBeUndefined();
  });

  it('deep-freezes an appended entry that was built by hand', () => {
    const entry = { kind: 'user', id: 'u1', text: 'hi', origin: { kind: 'person' }, opensTurn: true, attachments: [{ name: 'f', content: 'x' }] } as Entry;
    Dialogue.empty().append(entry);
    expect(Object.isFrozen(entry)).toBe(true);
    expect(Object.isFrozen((entry as unknown as { attachments: object[] }).attachments[0])).toBe(true);
  });

  it('log is a view that is built once per version', () => {
    const d = Dialogue.of([open('u1'), reply('a1')]);
    expect(d.log).toBe(d.log);
    expect(ids(d.log)).toEqual(['u1', 'a1']);
    expect(Object.isFrozen(d.log)).toBe(true);
  });

  it('appendAll appends in order; an empty batch returns the same dialogue', () => {
    const d = Dialogue.empty().appendAll([open('u1'), reply('a1', ['c1']), result('c1')]);
    expect(ids(d.log)).toEqual(['u1', 'a1', 'r_c1']);
    expect(d.appendAll([])).toBe(d);
  });

  it('appendAll is all or nothing', () => {
    const d = Dialogue.of([open('u1')]);
    expect(() => d.appendAll([reply('a1', ['c1']), open('u2')])).toThrow(DialogueError);
    expect(ids(d.log)).toEqual(['u1']);
    const next = d.append(reply('a2'));
    expect(ids(next.log)).toEqual(['u1', 'a2']);
  });
});

describe('versions share storage without seeing each other', () => {
  it('appending to an older version after a newer one exists keeps both correct', () => {
    const d1 = Dialogue.of([open('u1'), reply('a1')]);
    const d2 = d1.append(open('u2'));
    const d3 = d1.append(inject('m1'));
    const d2b = d2.append(reply('a2'));
    const d3b = d3.append(reply('a3'));
    expect(ids(d1.log)).toEqual(['u1', 'a1']);
    expect(ids(d2.log)).toEqual(['u1', 'a1', 'u2']);
    expect(ids(d2b.log)).toEqual(['u1', 'a1', 'u2', 'a2']);
    expect(ids(d3.log)).toEqual(['u1', 'a1', 'm1']);
    expect(ids(d3b.log)).toEqual(['u1', 'a1', 'm1', 'a3']);
    expect(d2b.turns().map((t) => t.start)).toEqual([0, 2]);
    expect(d3b.turns().map((t) => t.start)).toEqual([0]);
  });

  it('a branch resolves anchors only against its own history', () => {
    const base = Dialogue.of([open('u1'), reply('a1')]);
    const left = base.append(open('u2')).append(reply('a2'));
    const right = base.append(open('u3')).append(reply('a3'));
    expect(caught(() => right.append(compact('s1', 'u2'))).code).toBe('unknown_anchor');
    expect(ids(right.append(compact('s1', 'u3')).effective())).toEqual(['s1', 'u3', 'a3']);
    expect(ids(left.append(compact('s2', 'u2')).effective())).toEqual(['s2', 'u2', 'a2']);
    // An id used only by a newer version is free in an older one.
    expect(base.append(open('u2')).length).toBe(3);
  });

  it('index buffers branch too: compactions and openers of one branch stay out of the other', () => {
    const base = Dialogue.of([open('u1'), reply('a1'), open('u2'), reply('a2')]);
    const compacted = base.append(compact('s1', 'u2'));
    const plain = base.append(open('u3'));
    expect(plain.latestCompaction()).toBeUndefined();
    expect(ids(plain.effective())).toEqual(['u1', 'a1', 'u2', 'a2', 'u3']);
    expect(compacted.turnCount).toBe(2);
    expect(plain.turnCount).toBe(3);
  });
});

describe('append invariants', () => {
  it('a result must answer a call of the last assistant entry', () => {
    const none = caught(() => Dialogue.empty().append(result('c1')));
    expect(none.code).toBe('unknown_tool_call');
    expect(none.position).toBe(0);
    expect(none.message).toBe('Tool result r_c1 answers call "c1", which is not a call of the last assistant entry: there is no assistant entry.');

    const d = Dialogue.of([open('u1'), reply('a1', ['c1', 'c2'])]);
    const unknown = caught(() => d.append(result('c9')));
    expect(unknown.code).toBe('unknown_tool_call');
    expect(unknown.position).toBe(2);
    expect(unknown.message).toBe('Tool result r_c9 answers call "c9", which is not a call of the last assistant entry: the last assistant entry (a1) has calls [c1, c2].');
  });

  it('a call of an older assistant entry cannot be answered later', () => {
    const d = Dialogue.of([open('u1'), reply('a1', ['c1']), result('c1'), reply('a2', ['c2'])]);
    expect(caught(() => d.append(result('c1', 'late'))).code).toBe('unknown_tool_call');
  });

  it('a call gets one result', () => {
    const d = Dialogue.of([open('u1'), reply('a1', ['c1', 'c2']), result('c1')]);
    const twice = caught(() => d.append(result('c1', 'again')));
    expect(twice.code).toBe('duplicate_tool_result');
    expect(twice.message).toBe('Tool result again answers call "c1" of a1, which already has its result.');
    const done = d.append(result('c2'));
    expect(caught(() => done.append(result('c2', 'again'))).code).toBe('duplicate_tool_result');
    expect(caught(() => done.append(open('u2')).append(result('c1', 'later'))).code).toBe('duplicate_tool_result');
  });

  it('results may arrive in any order', () => {
    const d = Dialogue.of([open('u1'), reply('a1', ['c1', 'c2', 'c3']), result('c3'), result('c1')]);
    expect(d.pendingCalls().map((c) => c.id)).toEqual(['c2']);
    expect(d.append(result('c2')).pendingCalls()).toEqual([]);
  });

  it('two versions answering the same reply in different orders each know their own answers', () => {
    const asked = Dialogue.of([open('u1'), reply('a1', ['c1', 'c2', 'c3'])]);
    const first = asked.append(result('c1')).append(result('c2'));
    const other = asked.append(result('c2'));
    expect(other.isPendingCall('c1')).toBe(true);
    expect(other.isPendingCall('c2')).toBe(false);
    const otherDone = other.append(result('c1'));
    expect(first.isPendingCall('c1')).toBe(false);
    expect(first.isPendingCall('c2')).toBe(false);
    expect(first.isPendingCall('c3')).toBe(true);
    expect(asked.isPendingCall('c1')).toBe(true);
    expect(asked.isPendingCall('c2')).toBe(true);
    expect(() => otherDone.append(result('c2'))).toThrow(/already has its result/);
    expect(otherDone.append(result('c3')).hasPendingCalls()).toBe(false);
    expect(first.hasPendingCalls()).toBe(true);
  });

  it('nothing but results may follow a reply with pending calls', () => {
    const d = Dialogue.of([open('u1'), reply('a1', ['c1', 'c2']), result('c2')]);
    for (const entry of [open('u2'), inject('m1'), reply('a2'), compact('s1', 'u1')]) {
      const error = caught(() => d.append(entry));
      expect(error.code).toBe('pending_tool_calls');
      expect(error.position).toBe(3);
      expect(error.message).toBe(
        `Cannot append ${entry.kind} entry ${entry.id}: the last assistant entry (a1) has calls without results [c1]. Write their results first (error results for interrupted calls).`,
      );
    }
  });

  it('an assistant entry may not repeat a call id', () => {
    const error = caught(() => Dialogue.of([open('u1')]).append(reply('a1', ['c1', 'c1'])));
    expect(error.code).toBe('duplicate_call_id');
    expect(error.message).toBe('Assistant entry a1 lists tool call id "c1" more than once.');
  });

  it('an anchor id names the latest user entry with that id', () => {
    const d = Dialogue.of([open('u1'), reply('a1'), inject('u1'), reply('a2')]);
    expect(ids(d.append(compact('s1', 'u1')).effective())).toEqual(['s1', 'u1', 'a2']);
    expect(d.append(compact('s1', 'u1')).effectiveStart()).toBe(2);
  });

  it('an older version resolves anchors past ids a newer version reused', () => {
    const old = Dialogue.of([open('u1'), reply('a1'), open('u2'), reply('a2')]);
    const newer = old.append(inject('u1')).append(reply('a3'));
    // The newer version indexes its ids first; the shared index then points past the old version's end.
    expect(newer.append(compact('s0', 'u1')).effectiveStart()).toBe(4);
    expect(old.append(compact('s1', 'u1')).effectiveStart()).toBe(0);
    expect(caught(() => old.append(compact('s1', 'zz'))).code).toBe('unknown_anchor');
    const base = Dialogue.of([open('v1'), reply('b1')]);
    const ahead = base.append(open('v2'));
    expect(ahead.append(compact('s2', 'v2')).effectiveStart()).toBe(2);
    expect(caught(() => base.append(compact('s3', 'v2'))).code).toBe('unknown_anchor');
  });

  it('a compaction anchor must name a user entry of the log', () => {
    const d = Dialogue.of([open('u1'), reply('a1')]);
    const missing = caught(() => d.append(compact('s1', 'nope')));
    expect(missing.code).toBe('unknown_anchor');
    expect(missing.message).toBe('Compaction s1 is anchored at "nope", which names no user entry of the log.');
    expect(caught(() => d.append(compact('s1', 'a1'))).code).toBe('unknown_anchor');
  });

  it('a compaction anchor may not move backwards', () => {
    const d = Dialogue.of([open('u1'), reply('a1'), open('u2'), reply('a2'), compact('s1', 'u2')]);
    const error = caught(() => d.append(compact('s2', 'u1')));
    expect(error.code).toBe('anchor_before_previous');
    expect(error.message).toBe(
      `Compaction s2 is anchored at "u1" (position 0), before the previous compaction's anchor (position 2); compactions may only move the anchor forward.`,
    );
    expect(d.append(compact('s2', 'u2')).latestCompaction()?.id).toBe('s2');
  });

  it('a null anchor is always allowed and moves the anchor to the compaction itself', () => {
    const d = Dialogue.of([open('u1'), reply('a1'), compact('s1', null), open('u2')]);
    expect(d.effectiveStart()).toBe(2);
    expect(caught(() => d.append(compact('s2', 'u1'))).code).toBe('anchor_before_previous');
    expect(ids(d.append(compact('s2', 'u2')).effective())).toEqual(['s2', 'u2']);
  });

  it('rejects values that are not entries', () => {
    const error = caught(() => Dialogue.empty().append({ kind: 'system', id: 'x' } as unknown as Entry));
    expect(error.code).toBe('invalid_entry');
    expect(error.message).toBe('Not a dialogue entry (expected kind user, assistant, tool_result or compaction): {"kind":"system","id":"x"}.');
    const cyclic: Record<string, unknown> = { kind: 'odd' };
    cyclic.self = cyclic;
    expect(caught(() => Dialogue.empty().append(cyclic as unknown as Entry)).message).toContain('[object Object]');
    expect(caught(() => Dialogue.empty().append(undefined as unknown as Entry)).message).toContain('undefined');
  });

  it('DialogueError is a typed Error', () => {
    const error = caught(() => Dialogue.empty().append(result('c1')));
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('DialogueError');
  });
});
