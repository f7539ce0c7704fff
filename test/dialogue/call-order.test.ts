/**
 * Tool results in call order: `appendInCallOrder` holds a result that finished before an
 * earlier call's and writes it as soon as every earlier call has its result.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Dialogue } from '../../src/dialogue/dialogue.js';
import { DialogueError } from '../../src/dialogue/errors.js';
import { thrown } from '../thrown.js';
import { ids, open, reply, result } from './helpers.js';

const step = (calls: readonly string[]): Dialogue => Dialogue.of([open('u1'), reply('a1', calls)]);

describe('Dialogue.appendInCallOrder', () => {
  it('holds a result until every earlier call has its own, then writes them in call order', () => {
    const d0 = step(['c1', 'c2', 'c3']);
    const d1 = d0.appendInCallOrder(result('c3'));
    expect(d1.length).toBe(d0.length);
    expect(d1.isPendingCall('c3')).toBe(false);
    expect(d1.isPendingCall('c1')).toBe(true);
    expect(d1.resultOf('c3')).toMatchObject({ callId: 'c3' });
    expect(d1.pendingCalls().map((c) => c.id)).toEqual(['c1', 'c2', 'c3']);
    expect(d1.hasPendingCalls()).toBe(true);
    const d2 = d1.appendInCallOrder(result('c2'));
    expect(d2.length).toBe(d0.length);
    const d3 = d2.appendInCallOrder(result('c1'));
    expect(ids(d3.log)).toEqual(['u1', 'a1', 'r_c1', 'r_c2', 'r_c3']);
    expect(d3.hasPendingCalls()).toBe(false);
    expect(d3.resultOf('c2')).toMatchObject({ id: 'r_c2' });
    // Older versions are unchanged.
    expect(d1.isPendingCall('c2')).toBe(true);
    expect(d0.resultOf('c3')).toBeUndefined();
  });

  it('writes at once a result whose earlier calls all have theirs', () => {
    const d = step(['c1', 'c2']).appendInCallOrder(result('c1'));
    expect(ids(d.log)).toEqual(['u1', 'a1', 'r_c1']);
  });

  it('refuses a second result for a held call, and a result for no call of the step', () => {
    const d = step(['c1', 'c2']).appendInCallOrder(result('c2'));
    expect(thrown(() => d.appendInCallOrder(result('c2', 'again')), DialogueError).code).toBe('duplicate_tool_result');
    expect(thrown(() => d.appendInCallOrder(result('zz')), DialogueError).code).toBe('unknown_tool_call');
    const written = d.appendInCallOrder(result('c1'));
    expect(thrown(() => written.appendInCallOrder(result('c1', 'again')), DialogueError).code).toBe('duplicate_tool_result');
  });

  it('skips calls answered by plain appends (a journal written in another order)', () => {
    const d = step(['c1', 'c2', 'c3']).append(result('c2')).appendInCallOrder(result('c3'));
    expect(ids(d.log)).toEqual(['u1', 'a1', 'r_c2']);
    expect(ids(d.appendInCallOrder(result('c1')).log)).toEqual(['u1', 'a1', 'r_c2', 'r_c1', 'r_c3']);
  });

  it('keeps two branches of one version apart', () => {
    const base = step(['c1', 'c2', 'c3']);
    const left = base.appendInCallOrder(result('c3', 'left3'));
    const right = base.appendInCallOrder(result('c2', 'right2'));
    expect(left.resultOf('c2')).toBeUndefined();
    expect(right.resultOf('c3')).toBeUndefined();
    expect(ids(right.appendInCallOrder(result('c1')).log)).toEqual(['u1', 'a1', 'r_c1', 'right2']);
    expect(ids(left.appendInCallOrder(result('c1')).appendInCallOrder(result('c2')).log)).toEqual(['u1', 'a1', 'r_c1', 'r_c2', 'left3']);
  });

  it("finds a branch's held result after another branch of the same version held more", () => {
    const base = step(['c1', 'c2', 'c3']);
    const left = base.appendInCallOrder(result('c3', 'left3'));
    // The right branch holds c2, then its own c3 at another place among the held results.
    const right = base.appendInCallOrder(result('c2', 'right2')).appendInCallOrder(result('c3', 'right3'));
    expect(left.resultOf('c3')).toMatchObject({ id: 'left3' });
    expect(right.resultOf('c3')).toMatchObject({ id: 'right3' });
    expect(left.resultOf('c2')).toBeUndefined();
  });

  it('answers no result for a call of the step that has none while another has one', () => {
    const d = step(['c1', 'c2']).appendInCallOrder(result('c1'));
    expect(d.resultOf('c1')).toMatchObject({ id: 'r_c1' });
    expect(d.resultOf('c2')).toBeUndefined();
    expect(d.resultOf('not-a-call')).toBeUndefined();
  });

  it('writes the same log whatever order the results arrive in', () => {
    const calls = Array.from({ length: 8 }, (_, i) => `c${i}`);
    fc.assert(
      fc.property(fc.shuffledSubarray(calls, { minLength: calls.length }), (arrival) => {
        let d = step(calls);
        for (const id of arrival) d = d.appendInCallOrder(result(id));
        expect(ids(d.log)).toEqual(['u1', 'a1', ...calls.map((c) => `r_${c}`)]);
        expect(d.hasPendingCalls()).toBe(false);
      }),
    );
  });

  it('costs linear time for a wide step answered last call first', () => {
    const calls = Array.from({ length: 20_000 }, (_, i) => `c${i}`);
    let d = step(calls);
    for (let i = calls.length - 1; i >= 0; i--) d = d.appendInCallOrder(result(calls[i]!));
    expect(d.length).toBe(2 + calls.length);
    expect(d.at(2)).toMatchObject({ callId: 'c0' });
  });
});
