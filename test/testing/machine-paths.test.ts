/**
 * Path generation from any machine: strategies, state keys without volatile context, and
 * only enabled events tried.
 */
import { describe, expect, it } from 'vitest';
import { assign, fromPromise, setup, type AnyMachineSnapshot } from 'xstate';
import { machinePaths, type MachinePath } from '../../src/testing/machine-paths.js';

type Ev = { type: 'add' } | { type: 'submit' } | { type: 'xstate.done.actor.save'; output: string } | { type: 'xstate.error.actor.save'; error: string };

const form = setup({
  types: { context: {} as { items: number; log: string[] }, events: {} as Ev },
  actors: { save: fromPromise(async () => 'ok') },
  guards: { full: ({ context }) => context.items >= 2 },
}).createMachine({
  id: 'form',
  context: { items: 0, log: [] },
  initial: 'editing',
  states: {
    editing: {
      on: {
        add: { actions: assign({ items: ({ context }) => context.items + 1, log: ({ context }) => [...context.log, `add ${Date.now()}`] }) },
        submit: { guard: 'full', target: 'saving' },
      },
    },
    saving: { invoke: { id: 'save', src: 'save', onDone: 'saved', onError: 'editing' } },
    saved: { type: 'final' },
  },
});

const events: readonly Ev[] = [
  { type: 'add' },
  { type: 'submit' },
  { type: 'xstate.done.actor.save', output: 'ok' },
  { type: 'xstate.error.actor.save', error: 'offline' },
];
const options = {
  input: undefined,
  events: () => events,
  // `log` is volatile (timestamps): the key holds only what the guard reads.
  stateKey: (s: AnyMachineSnapshot) => `${String(s.value)} items=${Math.min(s.context.items as number, 2)}`,
  eventLabel: (e: Ev) => e.type.replace('xstate.', ''),
};
const labels = (paths: MachinePath<Ev>[]) => paths.map((p) => p.steps.map((s) => s.label).join(' > ')).sort();

describe('machinePaths', () => {
  it('transitions: takes every enabled event in every state, dropping prefixes', () => {
    const paths = machinePaths(form, options);
    expect(labels(paths)).toEqual([
      'xstate.init > add > add > add',
      'xstate.init > add > add > submit > done.actor.save',
      'xstate.init > add > add > submit > error.actor.save',
    ]);
    const saved = paths.find((p) => p.steps.at(-1)!.label === 'done.actor.save')!;
    expect(saved.steps.map((s) => s.expected)).toEqual(['editing items=0', 'editing items=1', 'editing items=2', 'saving items=2', 'saved items=2']);
  });

  it('states: one shortest path per state key', () => {
    const paths = machinePaths(form, { ...options, strategy: 'states' });
    expect(paths.map((p) => p.steps.at(-1)!.expected).sort()).toEqual(['editing items=0', 'editing items=1', 'editing items=2', 'saved items=2', 'saving items=2']);
  });

  it('simple: every simple path to every state', () => {
    const paths = machinePaths(form, { ...options, strategy: 'simple' });
    expect(paths.length).toBeGreaterThanOrEqual(5);
    for (const p of paths) expect(new Set(p.steps.map((s) => s.expected)).size).toBe(p.steps.length);
  });

  it('never offers an event that enables no transition (submit before two items)', () => {
    const paths = machinePaths(form, options);
    for (const p of paths) {
      p.steps.forEach((s, i) => {
        if (s.label === 'submit') expect(p.steps[i - 1]!.expected).toBe('editing items=2');
      });
    }
  });

  it('is deterministic', () => {
    expect(labels(machinePaths(form, options))).toEqual(labels(machinePaths(form, options)));
  });
});
