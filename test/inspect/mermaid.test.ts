/**
 * Mermaid generation from machine definitions: nesting, initial and final states, parallel
 * regions, invoked actors, guards, eventless and targetless transitions; deterministic.
 */
import { describe, expect, it } from 'vitest';
import { and, assign, createMachine, fromPromise, not, setup } from 'xstate';
import { agentMachine } from '../../machines/agent.machine.js';
import { machineMarkdown, machineToMermaid, transitionLabel } from '../../src/inspect/mermaid.js';

const sample = setup({
  actors: { load: fromPromise(async () => 1) },
  guards: { ready: () => true, big: () => false },
}).createMachine({
  id: 'sample',
  description: 'A sample machine.',
  initial: 'idle',
  on: { reset: '.idle' },
  states: {
    idle: { on: { go: { target: 'busy', guard: and(['ready', not('big')]) }, ping: { actions: assign({}) } } },
    busy: {
      initial: 'loading',
      states: {
        loading: { invoke: { id: 'fetch', src: 'load', onDone: 'shown', onError: '#sample.failed' } },
        shown: { always: { target: '#sample.both', guard: 'ready' } },
      },
    },
    both: {
      type: 'parallel',
      states: {
        left: { initial: 'a', states: { a: { on: { flip: 'b' } }, b: {} } },
        right: { initial: 'c', states: { c: {} } },
      },
      on: { finish: 'done' },
    },
    failed: { type: 'final' },
    done: { type: 'final' },
  },
});

describe('machineToMermaid', () => {
  const text = machineToMermaid(sample);

  it('draws nested, parallel, initial and final states', () => {
    expect(text.startsWith('stateDiagram-v2\n')).toBe(true);
    expect(text).toContain('  [*] --> idle');
    expect(text).toContain('  state "busy" as busy {\n    state "loading" as busy_loading');
    expect(text).toContain('    [*] --> busy_loading');
    expect(text).toMatch(/state "left" as both_left \{[\s\S]*\n {4}--\n {4}state "right" as both_right \{/);
    expect(text).not.toMatch(/\[\*\] --> both_left\n/);
    expect(text).toContain('  failed --> [*]');
    expect(text).toContain('  done --> [*]');
  });

  it('labels transitions with events, guards, invoked actors and eventless steps', () => {
    expect(text).toContain('  idle --> busy : go [and(ready, not(big))]');
    expect(text).toContain('    busy_loading --> busy_shown : onDone(fetch)');
    expect(text).toContain('  busy_loading --> failed : onError(fetch)');
    expect(text).toContain('  busy_shown --> both : always [ready]');
    expect(text).toContain('      both_left_a --> both_left_b : flip');
    expect(text).toContain('  busy_loading : invokes load as fetch');
  });

  it('draws targetless transitions as self-loops and root handlers from every live top-level state', () => {
    expect(text).toContain('  idle --> idle : reset, ping (no target)');
    for (const from of ['busy', 'both']) expect(text).toContain(`  ${from} --> idle : reset\n`);
    expect(text).not.toContain('failed --> idle');
  });

  it('is deterministic and escapes what Mermaid cannot show', () => {
    expect(machineToMermaid(sample)).toBe(text);
    expect(transitionLabel({ event: 'a;b:c#d', guard: undefined })).toBe('a b c d');
    const odd = createMachine({ id: 'odd', initial: 'a-b', states: { 'a-b': { on: { x: 'c d' } }, 'c d': {} } });
    expect(machineToMermaid(odd)).toContain('a_b --> c_d : x');
  });
});

describe('machineMarkdown', () => {
  it('pages the agent machine with its diagram, states and every transition', () => {
    const page = machineMarkdown('agent.machine', agentMachine, 'machines/agent.machine.ts');
    expect(page).toContain('```mermaid\nstateDiagram-v2\n');
    expect(page).toContain('| `running.working.sampling` | atomic | sampleModel as `model` |');
    expect(page).toMatch(/## Transitions \(\d+\)/);
    expect(page).toContain('| `running.idle` | `close` |  | `settled` |');
  });
});
