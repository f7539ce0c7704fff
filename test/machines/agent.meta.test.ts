/**
 * The state meta the path oracle reads: every state an agent can wait in promises what a host
 * sees there, and inner states override their ancestors.
 */
import { createMachine } from 'xstate';
import { describe, expect, it } from 'vitest';
import { agentMachine } from '../../machines/agent.machine.js';
import { mergeStateMeta } from '../../machines/agent.meta.js';
import { undescribedStates } from '../../src/testing/agent-oracle.js';

describe('agent state meta', () => {
  it('describes every stable state of the agent machine', () => {
    expect(undescribedStates(agentMachine)).toEqual([]);
  });

  it('names the states that miss a field, with the fields', () => {
    const machine = createMachine({
      id: 'm',
      initial: 'a',
      meta: { listed: true },
      states: {
        a: { always: 'b' },
        b: { meta: { phase: 'idle', addressable: true, holdsSlot: false, settles: false, works: null, waitsForInput: true } },
        c: { meta: { addressable: false } },
      },
    });
    expect(undescribedStates(machine)).toEqual(['c: phase, holdsSlot, settles, works, waitsForInput']);
  });

  it('lets inner states override their ancestors', () => {
    const merged = mergeStateMeta({
      'agent.running.working.sampling': { works: 'model' },
      agent: { cancel: 'cancels' },
      'agent.running': { listed: true, works: null },
    });
    expect(merged).toEqual({ cancel: 'cancels', listed: true, works: 'model' });
  });

  it('ranks states by depth, not by the length of their ids', () => {
    const merged = mergeStateMeta({ 'a.b.c': { works: 'model' }, 'a.b': { works: 'tools' }, 'a.averylongname': { works: null } });
    expect(merged.works).toBe('model');
  });
});
