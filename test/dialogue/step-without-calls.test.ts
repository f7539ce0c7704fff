/**
 * A final reply (no tool calls) keeps no step or maps of its own: every such step is one
 * shared step with sealed, empty maps (#31 item 5, the memory an idle agent holds). Sharing is safe only while
 * nothing writes them; these tests hold both halves.
 */
import { describe, expect, it } from 'vitest';
import { Dialogue } from '../../src/dialogue/dialogue.js';
import { NO_STEP, stepWithoutCalls } from '../../src/dialogue/dialogue-index.js';
import { DialogueError } from '../../src/dialogue/errors.js';
import { thrown } from '../thrown.js';
import { ids, open, reply, result } from './helpers.js';

describe('a step without tool calls', () => {
  it('is one shared step, whose maps refuse writes', () => {
    const a = stepWithoutCalls();
    const b = stepWithoutCalls();
    expect(a).toBe(NO_STEP);
    expect(b).toBe(a);
    expect(a.order).toEqual([]);
    expect(a.calls).toBe(b.calls);
    expect(a.answeredAt).toBe(NO_STEP.answeredAt);
    expect(a.heldAt).toBe(b.heldAt);
    expect(() => a.answeredAt.set('c1', 0)).toThrow(/internal error/);
    expect(() => b.heldAt.set('c1', 0)).toThrow(/internal error/);
    expect(a.answeredAt.size + a.heldAt.size + a.calls.size).toBe(0);
  });

  it('refuses results, in both append paths, and later steps with calls still work', () => {
    const done = Dialogue.empty().append(open('u1')).append(reply('a1'));
    expect(thrown(() => done.append(result('c1')), DialogueError).code).toBe('unknown_tool_call');
    expect(thrown(() => done.appendInCallOrder(result('c1')), DialogueError).code).toBe('unknown_tool_call');
    const next = done.append(open('u2')).append(reply('a2', ['c1', 'c2']));
    const both = next.appendInCallOrder(result('c2')).appendInCallOrder(result('c1'));
    expect(ids(both.log)).toEqual(['u1', 'a1', 'u2', 'a2', 'r_c1', 'r_c2']);
    // A second dialogue's call-less reply shares the maps; the first's results left them empty.
    const other = Dialogue.empty().append(open('v1')).append(reply('b1'));
    expect(thrown(() => other.appendInCallOrder(result('c2')), DialogueError).code).toBe('unknown_tool_call');
    expect(stepWithoutCalls().answeredAt.size).toBe(0);
  });
});
