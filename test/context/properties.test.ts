/**
 * Property tests of snapshot selection over generated dialogues (test/dialogue/arbitrary.ts):
 * valid transcripts, parent objects only, no replaced entries, no triggering call, turn
 * bounds, deep freezing, an untouched parent, and agreement with the naive reference.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { selectSnapshot } from '../../src/context/select.js';
import type { ContextSnapshot, ContextSpec } from '../../src/context/types.js';
import { Dialogue } from '../../src/dialogue/dialogue.js';
import type { Entry } from '../../src/dialogue/entry.js';
import { dialogueArb } from '../dialogue/arbitrary.js';
import { isDeepFrozen } from '../dialogue/helpers.js';
import { refCountTurns, refEffective, refSelect } from '../dialogue/reference.js';

const specArb: fc.Arbitrary<ContextSpec> = fc.oneof(
  fc.constantFrom<ContextSpec>('none', 'all', 'summary'),
  fc.integer({ min: 1, max: 8 }).map((turns) => ({ turns })),
);

/** Every generated dialogue with a spec and whether to pass its triggering call. */
const caseArb = fc.tuple(dialogueArb(), specArb, fc.boolean());

/** The sequence a snapshot selected: its entries, or the summarizer input for `summary`. */
const selected = (s: ContextSnapshot): Entry[] => [...(s.mode === 'summary' ? s.summarizerInput : s.entries)];

function take(entries: readonly Entry[], spec: ContextSpec, trigger: string | null, useTrigger: boolean): { d: Dialogue; s: ContextSnapshot; triggeringCallId: string | null } {
  const d = Dialogue.of(entries);
  const triggeringCallId = useTrigger ? trigger : null;
  const s = selectSnapshot(d, spec, triggeringCallId === null ? {} : { triggeringCallId });
  return { d, s, triggeringCallId };
}

const RUNS = { numRuns: 400 };

describe('snapshot properties', () => {
  it('every tool call in a snapshot has its result, and every result its call', () => {
    fc.assert(
      fc.property(caseArb, ([g, spec, useTrigger]) => {
        const { s } = take(g.entries, spec, g.trigger, useTrigger);
        const entries = selected(s);
        const calls = entries.flatMap((e) => (e.kind === 'assistant' ? e.toolCalls.map((c) => c.id) : []));
        const results = entries.flatMap((e) => (e.kind === 'tool_result' ? [e.callId] : []));
        expect(new Set(results)).toEqual(new Set(calls));
        expect(results).toHaveLength(calls.length);
      }),
      RUNS,
    );
  });

  it("entries are the parent's own objects, except the recorded trimmed copy", () => {
    fc.assert(
      fc.property(caseArb, ([g, spec, useTrigger]) => {
        const { d, s } = take(g.entries, spec, g.trigger, useTrigger);
        const parent = new Set<Entry>(d.log);
        for (const e of selected(s)) {
          if (!parent.has(e)) expect(e).toBe(s.trimmed?.entry);
        }
        if (s.trimmed !== undefined) expect(parent.has(s.trimmed.original)).toBe(true);
      }),
      RUNS,
    );
  });

  it('no replaced entry appears: only the latest summary, then effective entries', () => {
    fc.assert(
      fc.property(caseArb, ([g, spec, useTrigger]) => {
        const { d, s } = take(g.entries, spec, g.trigger, useTrigger);
        const effective = new Set<Entry>(refEffective(g.entries));
        const entries = selected(s);
        entries.forEach((e, i) => {
          if (e.kind === 'compaction') {
            expect(i).toBe(0);
            expect(e).toBe(d.latestCompaction());
          }
          if (e !== s.trimmed?.entry) expect(effective.has(e)).toBe(true);
        });
        if (s.trimmed !== undefined) expect(entries).not.toContain(s.trimmed.original);
      }),
      RUNS,
    );
  });

  it('the triggering call never appears, nor its result', () => {
    fc.assert(
      fc.property(dialogueArb(), specArb, (g, spec) => {
        fc.pre(g.trigger !== null);
        const { s } = take(g.entries, spec, g.trigger, true);
        for (const e of selected(s)) {
          if (e.kind === 'assistant') expect(e.toolCalls.map((c) => c.id)).not.toContain(g.trigger);
          if (e.kind === 'tool_result') expect(e.callId).not.toBe(g.trigger);
        }
      }),
      RUNS,
    );
  });

  it('N never yields more than N turns plus one summary', () => {
    fc.assert(
      fc.property(dialogueArb(), fc.integer({ min: 1, max: 8 }), fc.boolean(), (g, turns, useTrigger) => {
        const { s } = take(g.entries, { turns }, g.trigger, useTrigger);
        const entries = [...s.entries];
        expect(refCountTurns(entries)).toBeLessThanOrEqual(turns);
        expect(entries.filter((e) => e.kind === 'compaction').length).toBeLessThanOrEqual(1);
      }),
      RUNS,
    );
  });

  it('snapshots are deeply frozen', () => {
    fc.assert(
      fc.property(caseArb, ([g, spec, useTrigger]) => {
        const { s } = take(g.entries, spec, g.trigger, useTrigger);
        expect(isDeepFrozen(s)).toBe(true);
      }),
      RUNS,
    );
  });

  it("the parent's dialogue is unchanged by selection", () => {
    fc.assert(
      fc.property(caseArb, ([g, spec, useTrigger]) => {
        const { d } = take(g.entries, spec, g.trigger, useTrigger);
        expect(d.log.toArray()).toEqual(g.entries);
        d.log.toArray().forEach((e, i) => expect(e).toBe(g.entries[i]));
        expect(JSON.stringify(d.log.toArray())).toBe(JSON.stringify(g.entries));
      }),
      RUNS,
    );
  });

  it('agrees with the naive reference selection', () => {
    fc.assert(
      fc.property(caseArb, ([g, spec, useTrigger]) => {
        const { s, triggeringCallId } = take(g.entries, spec, g.trigger, useTrigger);
        if (spec === 'none') {
          expect(s.entries.length + s.summarizerInput.length).toBe(0);
          return;
        }
        const expected = refSelect(g.entries, typeof spec === 'object' ? spec.turns : Infinity, triggeringCallId);
        expect(selected(s)).toEqual(expected.entries);
        expect(s.trimmed?.entry).toEqual(expected.copy);
        expect(s.trimmed?.droppedCallIds ?? []).toEqual(expected.dropped);
        expect(spec === 'summary' ? s.entries.length : s.summarizerInput.length).toBe(0);
      }),
      RUNS,
    );
  });

  it('a subagent seeded with a snapshot sees exactly it as its effective dialogue', () => {
    fc.assert(
      fc.property(caseArb, ([g, spec, useTrigger]) => {
        const { s } = take(g.entries, spec, g.trigger, useTrigger);
        const child = Dialogue.seeded(s.entries);
        expect([...child.effective()]).toEqual([...s.entries]);
        expect(child.pendingCalls()).toEqual([]);
      }),
      RUNS,
    );
  });
});
