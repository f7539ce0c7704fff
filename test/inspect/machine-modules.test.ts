/**
 * Finding machines and naming state values.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createMachine } from 'xstate';
import { agentMachine } from '../../machines/agent.machine.js';
import { isStateMachine, loadMachines } from '../../src/inspect/machine-modules.js';
import { stateValueString } from '../../src/text/state-value.js';

describe('loadMachines', () => {
  it('finds every machine exported by machines/*.machine.ts', async () => {
    const found = await loadMachines(fileURLToPath(new URL('../../machines/', import.meta.url)));
    const agent = found.find((m) => m.name === 'agent.machine');
    expect(agent).toMatchObject({ file: 'agent.machine.ts', exportName: 'agentMachine' });
    expect(agent?.machine).toBe(agentMachine);
    expect(found.every((m) => isStateMachine(m.machine))).toBe(true);
  });

  it('tells machines from other values', () => {
    expect(isStateMachine(createMachine({}))).toBe(true);
    expect(isStateMachine({ root: {}, config: {} })).toBe(false);
  });
});

describe('stateValueString', () => {
  it('joins nested values with dots and lists parallel regions', () => {
    expect(stateValueString('idle')).toBe('idle');
    expect(stateValueString({ running: { working: 'sampling' } })).toBe('running.working.sampling');
    expect(stateValueString({ both: { left: 'a', right: { c: 'd' } } })).toBe('both.{left.a, right.c.d}');
    expect(stateValueString({ a: {} })).toBe('a');
    expect(stateValueString(undefined)).toBe('undefined');
  });
});
