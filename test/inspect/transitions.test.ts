/**
 * Reading every transition from a machine definition, and measuring which ones fired.
 */
import { describe, expect, it } from 'vitest';
import { and, createActor, fromPromise, not, or, setup, waitFor } from 'xstate';
import { TransitionCoverage, TransitionCoverageError } from '../../src/testing/coverage.js';
import { describeGuard, machineTransitions, transitionKey } from '../../src/inspect/transitions.js';

const toggle = setup({
  actors: { load: fromPromise(async () => 'x') },
  guards: { ok: () => true, never: () => false },
}).createMachine({
  id: 'toggle',
  initial: 'off',
  on: { reset: '.off' },
  states: {
    off: { on: { flip: [{ target: 'on', guard: 'never' }, { target: 'loading' }], poke: { actions: [] } } },
    loading: { invoke: { id: 'fetch', src: 'load', onDone: 'on', onError: 'off' } },
    on: { always: [{ target: 'done', guard: and(['ok', not('never')]) }] },
    done: { type: 'final' },
  },
});

describe('machineTransitions', () => {
  it('lists every branch of every handler, eventless and invoke ones included', () => {
    expect(machineTransitions(toggle).map((t) => t.description)).toEqual([
      'toggle --reset--> off',
      'off --flip [never]--> on',
      'off --flip--> loading',
      'off --poke--> (no target: actions only)',
      'loading --xstate.done.actor.fetch--> on',
      'loading --xstate.error.actor.fetch--> off',
      'on --always [and(ok, not(never))]--> done',
    ]);
  });

  it('keys transitions the same in a provided copy of the machine', () => {
    const copy = toggle.provide({ guards: { never: () => true } });
    expect(machineTransitions(copy).map((t) => t.key)).toEqual(machineTransitions(toggle).map((t) => t.key));
    const flip = copy.root.states.off!.transitions.get('flip')![1]!;
    expect(transitionKey(flip)).toBe(machineTransitions(toggle)[2]!.key);
  });

  it('names guards of every shape', () => {
    expect(describeGuard(undefined)).toBeUndefined();
    expect(describeGuard('ok')).toBe('ok');
    expect(describeGuard({ type: 'withParams', params: {} })).toBe('withParams');
    expect(describeGuard(or(['a', and(['b', 'c'])]))).toBe('or(a, and(b, c))');
    expect(describeGuard(function custom() {})).toBe('custom');
    expect(describeGuard(() => true)).toBe('inline');
  });
});

describe('TransitionCoverage', () => {
  it('reports fired and missing transitions and fails listing the missing ones', () => {
    const coverage = new TransitionCoverage([{ name: 'toggle.machine', machine: toggle }]);
    const actor = createActor(toggle, { inspect: coverage.inspect });
    actor.start();
    actor.send({ type: 'poke' });
    actor.send({ type: 'reset' });
    actor.stop();
    expect(coverage.summary()).toBe('toggle.machine: 2/7 transitions');
    expect(coverage.report()[0]!.missing.map((t) => t.event)).toEqual(['flip', 'flip', 'xstate.done.actor.fetch', 'xstate.error.actor.fetch', 'always']);
    expect(() => coverage.assertComplete()).toThrow(TransitionCoverageError);
    expect(() => coverage.assertComplete()).toThrow(/toggle\.machine: 2\/7 transitions; never exercised:\n {2}off --flip \[never\]--> on\n/);
  });

  it('passes once every transition fired, whichever copy of the machine ran', async () => {
    const coverage = new TransitionCoverage([{ name: 'toggle.machine', machine: toggle }]);
    const inspect = coverage.inspect;

    const plain = createActor(toggle, { inspect }).start();
    plain.send({ type: 'poke' });
    plain.send({ type: 'reset' });
    plain.send({ type: 'flip' });
    await waitFor(plain, (s) => s.status === 'done');

    const failing = createActor(toggle.provide({ actors: { load: fromPromise<string>(() => Promise.reject(new Error('no'))) } }), { inspect }).start();
    failing.send({ type: 'flip' });
    await waitFor(failing, (s) => s.matches('off'));
    failing.stop();

    const guarded = createActor(toggle.provide({ guards: { never: () => true } }), { inspect }).start();
    guarded.send({ type: 'flip' });
    expect(guarded.getSnapshot().value).toBe('on');
    guarded.stop();

    expect(coverage.summary()).toBe('toggle.machine: 7/7 transitions');
    expect(() => coverage.assertComplete()).not.toThrow();
    expect(coverage.has(machineTransitions(toggle)[0]!.key)).toBe(true);
  });
});
