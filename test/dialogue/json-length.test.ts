/**
 * jsonLength and Dialogue.effectiveJsonLength: the budget estimate's measure of a request's
 * messages. The length is JSON.stringify's (for text without escapes), and a dialogue's sum is
 * kept with its log, so each request walks only the entries appended since the last one.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Dialogue } from '../../src/dialogue/dialogue.js';
import { compactionEntry, userEntry, type Entry, type UserEntry } from '../../src/dialogue/entry.js';
import { EntryView } from '../../src/dialogue/entry-seq.js';
import { jsonLength } from '../../src/dialogue/json-length.js';
import { dialogueArb } from './arbitrary.js';

/** The sum the estimate reads: each effective entry's JSON length. */
const naive = (d: Dialogue): number => [...d.effective()].reduce((n, e) => n + JSON.stringify(e).length, 0);

/** JSON values without characters JSON.stringify escapes (the measure counts strings unescaped). */
const plainJson = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.string({ unit: fc.constantFrom('a', 'b', ' ', 'é', '1') }),
    fc.double(),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.constant(undefined),
    fc.array(tie('value')),
    fc.dictionary(fc.string({ unit: fc.constantFrom('k', 'e', 'y') }), tie('value')),
  ),
})).value;

describe('jsonLength', () => {
  it("is JSON.stringify's length for values without escapes, undefined keys and items as JSON.stringify writes them", () => {
    for (const value of [0, -0, 7, -12, 1e21, 0.5, -3.25, Number.NaN, Infinity, true, false, null, '', 'abc', [], [1], [undefined, 2], {}, { a: undefined }, { a: 1, b: undefined, c: [{}] }]) {
      expect(jsonLength(value)).toBe(JSON.stringify(value).length);
    }
    fc.assert(fc.property(plainJson, (value) => value === undefined || jsonLength(value) === JSON.stringify(value).length), { numRuns: 300 });
  });
});

describe('Dialogue.effectiveJsonLength', () => {
  it('is the summed JSON length of the effective entries, after every append, on every version, compacted or not', () => {
    fc.assert(
      fc.property(dialogueArb(), ({ entries }) => {
        const versions: Dialogue[] = [];
        let d = Dialogue.empty();
        for (const entry of entries) {
          d = d.append(entry);
          versions.push(d);
          expect(d.effectiveJsonLength()).toBe(naive(d));
        }
        // Older versions, measured after newer ones: their own entries only.
        for (const v of versions) expect(v.effectiveJsonLength()).toBe(naive(v));
      }),
      { numRuns: 200 },
    );
  });

  it('counts a seeded dialogue from its seed on, and a branch appended to an older version on its own', () => {
    const seed = EntryView.of([userEntry({ id: 'u1', text: 'seed task' }), compactionEntry({ summary: 'earlier', anchorId: 'u1' })]);
    const d = Dialogue.seeded(seed).append(userEntry({ id: 'u2', text: 'more' }));
    expect(d.effectiveJsonLength()).toBe(naive(d));
    const a = d.append(userEntry({ id: 'a', text: 'branch a' }));
    expect(a.effectiveJsonLength()).toBe(naive(a));
    // Appending to `d` again copies its buffer: the branch must not see `a`'s entry.
    const b = d.append(userEntry({ id: 'b', text: 'the other branch, longer' }));
    expect(b.effectiveJsonLength()).toBe(naive(b));
    expect(a.effectiveJsonLength()).toBe(naive(a));
  });

  it('walks each entry once: a later measure reads only what was appended since', () => {
    // An entry whose text counts its reads (the append's freeze reads it once).
    let reads = 0;
    const counted = (id: string): UserEntry => {
      const entry = { kind: 'user', id, origin: { kind: 'person' }, opensTurn: true, attachments: [] } as unknown as Record<string, unknown>;
      Object.defineProperty(entry, 'text', { enumerable: true, get: () => (reads++, 'hello') });
      return entry as unknown as UserEntry;
    };
    let d: Dialogue = Dialogue.empty();
    for (let i = 0; i < 5; i++) d = d.append(counted(`u${i}`));
    reads = 0;
    const first = d.effectiveJsonLength();
    expect(reads).toBe(5);
    const next: Entry = userEntry({ id: 'plain', text: 'not counted' });
    const longer = d.append(next);
    reads = 0;
    expect(longer.effectiveJsonLength()).toBe(first + JSON.stringify(next).length);
    expect(reads).toBe(0);
  });
});
