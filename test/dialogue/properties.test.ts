/**
 * Property tests: the indexed dialogue agrees with the naive reference model on every
 * generated log, and no append ever changes an earlier version.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Dialogue } from '../../src/dialogue/dialogue.js';
import { toolResultEntry, userEntry, type Entry } from '../../src/dialogue/entry.js';
import { dialogueArb, Interpreter, opsArb } from './arbitrary.js';
import { refEffective, refGroups, refLastAssistant, refPending, refStart, refTurns } from './reference.js';

const RUNS = { numRuns: 300 };

/** The O(1) pending-call queries agree with the reference for every call of the last reply. */
function expectPendingQueries(d: Dialogue, log: readonly Entry[]): void {
  const pending = new Set(refPending(log).map((c) => c.id));
  expect(d.hasPendingCalls()).toBe(pending.size > 0);
  const last = log[refLastAssistant(log)];
  for (const call of last?.kind === 'assistant' ? last.toolCalls : []) expect(d.isPendingCall(call.id)).toBe(pending.has(call.id));
  expect(d.isPendingCall('no-such-call')).toBe(false);
}

/** A valid entry to append after `log` (a result while calls are pending, else a new turn). */
function nextEntry(log: readonly Entry[], tag: string): Entry {
  const pending = refPending(log)[0];
  return pending === undefined
    ? userEntry({ id: `next-${tag}`, text: tag, opensTurn: true })
    : toolResultEntry({ id: `next-${tag}`, callId: pending.id, toolName: pending.name, content: tag });
}

describe('Dialogue matches the reference model', () => {
  it('effective dialogue, turns, pending calls and indexes', () => {
    fc.assert(
      fc.property(dialogueArb(), ({ entries }) => {
        const d = Dialogue.of(entries);
        expect(d.log.toArray()).toEqual(entries);
        expect([...d.effective()]).toEqual(refEffective(entries));
        const turns = refTurns(entries);
        expect(d.turns().map(({ start, end, finished }) => ({ start, end, finished }))).toEqual(turns);
        const active = turns.at(-1);
        expect(d.activeTurn()?.start).toBe(active !== undefined && !active.finished ? active.start : undefined);
        expect(d.pendingCalls()).toEqual(refPending(entries));
        expectPendingQueries(d, entries);
        expect(d.lastAssistantPosition()).toBe(refLastAssistant(entries));
        expect(d.effectiveStart()).toBe(refStart(entries));
        const content = refEffective(entries).filter((e) => e.kind !== 'compaction');
        expect(d.effectiveTurnCount()).toBe(refGroups(content).length);
      }),
      RUNS,
    );
  });

  it('a dialogue seeded with its own effective view reproduces it', () => {
    fc.assert(
      fc.property(dialogueArb(), ({ entries }) => {
        const parent = Dialogue.of(entries);
        const child = Dialogue.seeded(parent.effective());
        expect([...child.effective()]).toEqual([...parent.effective()]);
        expect(child.pendingCalls()).toEqual(parent.pendingCalls());
        expect(child.effectiveTurnCount()).toBe(parent.effectiveTurnCount());
      }),
      RUNS,
    );
  });
});

describe('append never mutates an earlier version', () => {
  it('appending to an old version after newer ones exist keeps every version intact', () => {
    fc.assert(
      fc.property(opsArb(40), fc.nat(), fc.nat(), (ops, pickA, pickB) => {
        const it = new Interpreter();
        const versions: Dialogue[] = [Dialogue.empty()];
        const contents: Entry[][] = [[]];
        for (const op of ops) {
          it.apply(op);
          const entry = it.entries[it.entries.length - 1] as Entry;
          versions.push((versions[versions.length - 1] as Dialogue).append(entry));
          contents.push([...it.entries]);
        }
        const i = pickA % versions.length;
        const old = versions[i] as Dialogue;
        const branchEntry = nextEntry(contents[i] as Entry[], 'a');
        const branch = old.append(branchEntry);
        const j = pickB % versions.length;
        const branch2 = (versions[j] as Dialogue).append(nextEntry(contents[j] as Entry[], 'b'));
        const latest = (versions[versions.length - 1] as Dialogue).append(nextEntry(it.entries, 'c'));
        versions.forEach((v, k) => expect(v.log.toArray()).toEqual(contents[k]));
        versions.forEach((v, k) => expectPendingQueries(v, contents[k] as Entry[]));
        for (const d of [branch, branch2, latest]) expectPendingQueries(d, d.log.toArray());
        expect(branch.log.toArray()).toEqual([...(contents[i] as Entry[]), branchEntry]);
        expect([...branch.effective()]).toEqual(refEffective(branch.log.toArray()));
        expect(branch2.length).toBe((contents[j] as Entry[]).length + 1);
        expect([...branch2.effective()]).toEqual(refEffective(branch2.log.toArray()));
        expect(latest.log.toArray().slice(0, -1)).toEqual(it.entries);
        expect([...latest.effective()]).toEqual(refEffective(latest.log.toArray()));
      }),
      RUNS,
    );
  });

  it('views taken before later appends keep their contents', () => {
    fc.assert(
      fc.property(dialogueArb(30), fc.nat(6), ({ entries }, extra) => {
        const d = Dialogue.of(entries);
        const effective = d.effective();
        const log = d.log;
        const before = [...effective];
        let parent = d;
        let child = Dialogue.seeded(effective);
        for (let k = 0; k < extra; k++) {
          parent = parent.append(nextEntry(parent.log.toArray(), `p${k}`));
          child = child.append(nextEntry(child.log.toArray(), `c${k}`));
        }
        expect([...effective]).toEqual(before);
        expect(log.toArray()).toEqual(entries);
        expect(child.log.toArray().slice(0, before.length)).toEqual(before);
        expect(parent.log.toArray().slice(0, entries.length)).toEqual(entries);
      }),
      { numRuns: 100 },
    );
  });
});
