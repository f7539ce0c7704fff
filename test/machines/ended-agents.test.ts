/** How a delegatingAgent tree remembers its ended subagents: the latest ending, the most recent ones. */
import { describe, expect, it } from 'vitest';
import { EndedAgents } from '../../machines/ended-agents.js';

describe('EndedAgents', () => {
  it('keeps the latest ending of each path, and forgets the oldest beyond its limit', () => {
    const ended = new EndedAgents(2);
    ended.record('/root/a', { status: 'completed', stopReason: 'completed' });
    ended.record('/root/b', { status: 'cancelled', stopReason: 'cancelled' });
    // Recording /root/a again makes it the most recent: /root/b is the oldest now.
    ended.record('/root/a', { status: 'completed', stopReason: 'closed' });
    ended.record('/root/c', { status: 'failed', stopReason: 'model_error' });
    expect(ended.of('/root/a')).toEqual({ status: 'completed', stopReason: 'closed' });
    expect(ended.of('/root/b')).toBeUndefined();
    expect(ended.of('/root/c')).toEqual({ status: 'failed', stopReason: 'model_error' });
  });

  it('keeps a copy of the two fields, not the result it was given', () => {
    const ended = new EndedAgents();
    const result = { status: 'completed' as const, stopReason: 'completed' as const, text: 'a long answer' };
    ended.record('/root/a', result);
    expect(ended.of('/root/a')).toEqual({ status: 'completed', stopReason: 'completed' });
  });
});
