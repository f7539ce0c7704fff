import { describe, expect, it } from 'vitest';
import { ContextSpecError, SnapshotError } from '../../src/context/errors.js';
import { selectSnapshot } from '../../src/context/select.js';
import type { ContextSpec } from '../../src/context/types.js';
import { Dialogue } from '../../src/dialogue/dialogue.js';
import { assistantEntry, type AssistantEntry } from '../../src/dialogue/entry.js';
import type { EntryView } from '../../src/dialogue/entry-seq.js';
import { call, compact, ids, inject, isDeepFrozen, open, reply, result } from '../dialogue/helpers.js';

/** A parent: two finished turns, a compaction anchored at the second, and an active turn spawning. */
function spawning(extra: { triggerAnswered?: boolean; text?: string } = {}): Dialogue {
  const step = assistantEntry({ id: 'a3', text: extra.text ?? 'delegating', toolCalls: [call('c1'), call('agent', 'Agent'), call('c2')] });
  const d = Dialogue.of([
    open('u1'),
    reply('a1'),
    open('u2'),
    reply('a2', ['c0']),
    result('c0'),
    reply('a2b'),
    compact('s1', 'u2'),
    open('u3'),
    inject('m1'),
    step,
    result('c2'),
  ]);
  return extra.triggerAnswered === true ? d.append(result('agent')) : d;
}

describe('selectSnapshot: none', () => {
  it('selects nothing and records the source', () => {
    const d = spawning();
    const s = selectSnapshot(d, 'none', { triggeringCallId: 'agent' });
    expect(s.mode).toBe('none');
    expect(s.spec).toBe('none');
    expect(s.entries.length).toBe(0);
    expect(s.summarizerInput.length).toBe(0);
    expect(s.summary).toBeUndefined();
    expect(s.trimmed).toBeUndefined();
    expect(s.source).toEqual({ length: d.length, activeTurn: 2, triggeringCallId: 'agent' });
    expect(isDeepFrozen(s)).toBe(true);
  });
});

describe('selectSnapshot: all', () => {
  it('is the effective dialogue with the realized part of the active turn, minus the triggering and pending calls', () => {
    const d = spawning();
    const s = selectSnapshot(d, 'all', { triggeringCallId: 'agent' });
    expect(ids(s.entries)).toEqual(['s1', 'u2', 'a2', 'r_c0', 'a2b', 'u3', 'm1', 'a3', 'r_c2']);
    expect(s.summary).toBe(d.latestCompaction());
    expect(s.entries.at(0)).toBe(d.latestCompaction());
    const copy = s.entries.at(7) as AssistantEntry;
    expect(copy).not.toBe(d.at(9));
    expect(copy.toolCalls.map((c) => c.id)).toEqual(['c2']);
    expect(copy.toolCalls[0]).toBe((d.at(9) as AssistantEntry).toolCalls[2]);
    expect(copy.text).toBe('delegating');
    expect(s.trimmed).toEqual({ original: d.at(9), entry: copy, droppedCallIds: ['c1', 'agent'] });
    expect(s.source).toEqual({ length: 11, activeTurn: 2, triggeringCallId: 'agent' });
    expect(isDeepFrozen(s)).toBe(true);
  });

  it('holds the parent entry objects, not copies', () => {
    const d = spawning();
    const s = selectSnapshot(d, 'all', { triggeringCallId: 'agent' });
    const parentEntries = new Set(d.log);
    for (const e of s.entries) if (e !== s.trimmed?.entry) expect(parentEntries.has(e)).toBe(true);
  });

  it('drops the triggering call even when it already has a result, and that result with it', () => {
    const d = spawning({ triggerAnswered: true });
    const s = selectSnapshot(d, 'all', { triggeringCallId: 'agent' });
    expect(ids(s.entries)).toEqual(['s1', 'u2', 'a2', 'r_c0', 'a2b', 'u3', 'm1', 'a3', 'r_c2']);
    expect(s.trimmed?.droppedCallIds).toEqual(['c1', 'agent']);
  });

  it('drops a realized triggering call even after the step moved on', () => {
    const d = Dialogue.of([open('u1'), reply('a1', ['agent', 'c1']), result('c1'), result('agent'), inject('m1')]);
    const s = selectSnapshot(d, 'all', { triggeringCallId: 'agent' });
    expect(ids(s.entries)).toEqual(['u1', 'a1', 'r_c1', 'm1']);
    expect((s.entries.at(1) as AssistantEntry).toolCalls.map((c) => c.id)).toEqual(['c1']);
  });

  it('omits the trimmed entry when nothing of it remains', () => {
    const d = spawning({ text: '' }).append(result('c1'));
    const bare = Dialogue.of([open('u1'), assistantEntry({ id: 'a1', text: '', toolCalls: [call('agent', 'Agent')] })]);
    const s = selectSnapshot(bare, 'all', { triggeringCallId: 'agent' });
    expect(ids(s.entries)).toEqual(['u1']);
    expect(s.trimmed).toEqual({ original: bare.at(1), entry: null, droppedCallIds: ['agent'] });
    // With realized siblings, the copy stays even without text.
    const kept = selectSnapshot(d, 'all', { triggeringCallId: 'agent' });
    expect((kept.trimmed?.entry as AssistantEntry).toolCalls.map((c) => c.id)).toEqual(['c1', 'c2']);
  });

  it('drops pending calls without a triggering call', () => {
    const d = Dialogue.of([open('u1'), reply('a1', ['c1', 'c2']), result('c2')]);
    const s = selectSnapshot(d, 'all');
    expect(ids(s.entries)).toEqual(['u1', 'a1', 'r_c2']);
    expect(s.trimmed?.droppedCallIds).toEqual(['c1']);
    expect(s.source.triggeringCallId).toBeNull();
  });

  it('copies nothing when no call needs dropping', () => {
    const d = Dialogue.of([open('u1'), reply('a1', ['c1']), result('c1'), reply('a2')]);
    const s = selectSnapshot(d, 'all');
    expect(s.trimmed).toBeUndefined();
    expect([...s.entries]).toEqual([...d.log]);
    expect(s.source.activeTurn).toBeNull();
  });

  it('without compaction there is no summary', () => {
    const s = selectSnapshot(Dialogue.of([open('u1')]), 'all');
    expect(s.summary).toBeUndefined();
    expect(ids(s.entries)).toEqual(['u1']);
  });

  it('costs runs, not entries, however long the dialogue is', () => {
    let d = Dialogue.of([open('u0')]);
    for (let i = 1; i < 2000; i++) d = d.append(reply(`a${i}`)).append(open(`u${i}`));
    d = d.append(reply('step', ['c1', 'agent'])).append(result('c1'));
    const s = selectSnapshot(d, 'all', { triggeringCallId: 'agent' });
    expect(s.entries.length).toBe(d.length);
    expect((s.entries as EntryView).runCount).toBe(3);
  });
});

describe('selectSnapshot: N turns', () => {
  it('takes the last N turns, the active turn counting as one, after the summary', () => {
    const d = spawning();
    const one = selectSnapshot(d, { turns: 1 }, { triggeringCallId: 'agent' });
    expect(ids(one.entries)).toEqual(['s1', 'u3', 'm1', 'a3', 'r_c2']);
    expect(one.mode).toBe('turns');
    expect(one.summary?.id).toBe('s1');
    expect(one.trimmed?.droppedCallIds).toEqual(['c1', 'agent']);
    const two = selectSnapshot(d, { turns: 2 }, { triggeringCallId: 'agent' });
    expect(ids(two.entries)).toEqual(['s1', 'u2', 'a2', 'r_c0', 'a2b', 'u3', 'm1', 'a3', 'r_c2']);
  });

  it('N beyond the history means all; compacted turns never come back', () => {
    const d = spawning();
    const all = selectSnapshot(d, 'all', { triggeringCallId: 'agent' });
    const many = selectSnapshot(d, { turns: 50 }, { triggeringCallId: 'agent' });
    expect([...many.entries].map((e) => e.id)).toEqual([...all.entries].map((e) => e.id));
    expect(ids(many.entries)).not.toContain('u1');
  });

  it('a leading partial turn counts as one turn', () => {
    const d = Dialogue.of([open('u1'), reply('a1', ['c1']), result('c1'), inject('m1'), reply('a2'), compact('s1', 'm1'), open('u2'), reply('a3')]);
    expect(ids(selectSnapshot(d, { turns: 1 }).entries)).toEqual(['s1', 'u2', 'a3']);
    expect(ids(selectSnapshot(d, { turns: 2 }).entries)).toEqual(['s1', 'm1', 'a2', 'u2', 'a3']);
  });

  it('the trimmed step is outside older turns', () => {
    const d = Dialogue.of([open('u1'), reply('a1', ['agent']), result('agent'), open('u2')]);
    const s = selectSnapshot(d, { turns: 1 }, { triggeringCallId: 'agent' });
    expect(ids(s.entries)).toEqual(['u2']);
    expect(s.trimmed).toBeUndefined();
  });

  it('stores a frozen copy of the spec', () => {
    const spec = { turns: 2 };
    const s = selectSnapshot(Dialogue.of([open('u1')]), spec);
    expect(s.spec).toEqual({ turns: 2 });
    expect(s.spec).not.toBe(spec);
    expect(Object.isFrozen(s.spec)).toBe(true);
  });
});

describe('selectSnapshot: summary', () => {
  it('copies no entries and hands the all selection to the summarizer', () => {
    const d = spawning();
    const s = selectSnapshot(d, 'summary', { triggeringCallId: 'agent' });
    const all = selectSnapshot(d, 'all', { triggeringCallId: 'agent' });
    expect(s.mode).toBe('summary');
    expect(s.entries.length).toBe(0);
    expect(ids(s.summarizerInput)).toEqual(ids(all.entries));
    expect(s.summary?.id).toBe('s1');
    expect(s.trimmed?.droppedCallIds).toEqual(['c1', 'agent']);
    expect(isDeepFrozen(s)).toBe(true);
  });
});

describe('selectSnapshot errors', () => {
  it('refuses a triggering call that is not a call of the last assistant entry', () => {
    const d = spawning();
    expect(() => selectSnapshot(d, 'all', { triggeringCallId: 'c0' })).toThrow(
      new SnapshotError('c0', 'Triggering call "c0" is not a call of the last assistant entry: the last assistant entry (a3) has calls [c1, agent, c2].'),
    );
    try {
      selectSnapshot(Dialogue.of([open('u1')]), { turns: 1 }, { triggeringCallId: 'x' });
    } catch (error) {
      expect(error).toBeInstanceOf(SnapshotError);
      expect((error as SnapshotError).code).toBe('unknown_triggering_call');
      expect((error as SnapshotError).triggeringCallId).toBe('x');
      expect((error as SnapshotError).message).toBe('Triggering call "x" is not a call of the last assistant entry: the dialogue has no assistant entry.');
    }
    expect.assertions(5);
  });

  it('refuses a malformed spec', () => {
    for (const spec of [{ turns: 0 }, { turns: 1.5 }, 'fork'] as unknown as ContextSpec[]) {
      expect(() => selectSnapshot(Dialogue.empty(), spec)).toThrow(ContextSpecError);
    }
    expect(() => selectSnapshot(Dialogue.empty(), { turns: -1 })).toThrow('Invalid context spec {"turns":-1}: not a canonical spec (parse model input with parseContextSpec).');
  });
});

describe('snapshots and seeded subagents', () => {
  it('a subagent seeded with a snapshot sees exactly the snapshot, then its own entries', () => {
    const d = spawning();
    const s = selectSnapshot(d, 'all', { triggeringCallId: 'agent' });
    const child = Dialogue.seeded(s.entries).append(open('task'));
    expect(ids(child.effective())).toEqual([...ids(s.entries), 'task']);
    expect(child.pendingCalls()).toEqual([]);
    const again = selectSnapshot(child, { turns: 1 });
    expect(ids(again.entries)).toEqual(['s1', 'task']);
  });

  it('the parent is unchanged by selection', () => {
    const d = spawning();
    const before = d.log.toArray();
    selectSnapshot(d, 'all', { triggeringCallId: 'agent' });
    selectSnapshot(d, { turns: 1 }, { triggeringCallId: 'agent' });
    expect(d.log.toArray()).toEqual(before);
    expect((d.at(9) as AssistantEntry).toolCalls).toHaveLength(3);
  });
});
