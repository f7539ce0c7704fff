/**
 * How a parent holds its subagents, on bare XState machines with the agent's shape: n
 * children started at once under one parent (each settles after its own promise), then
 * reaped when its done event arrives.
 *
 * - `children`: spawned with `spawnChild` into the parent's snapshot `children` and stopped
 *   from there when done (what XState does for spawned actors; it copies `children` on every
 *   spawn and stop);
 * - `outside`: created with `createActor(logic, { parent })` and kept in a Map beside the
 *   parent, with one invoked supervisor in `children` whose stop cancels them (what the agent
 *   machine does, see machines/subagents.ts).
 */
import { performance } from 'node:perf_hooks';
import { assign, createActor, fromCallback, fromPromise, setup, spawnChild, stopChild, type AnyActorRef } from 'xstate';
import type { BenchFigures } from './run.js';

const childLogic = setup({ actors: { work: fromPromise(async () => 'ok') } }).createMachine({
  initial: 'working',
  states: { working: { invoke: { src: 'work', onDone: 'done' } }, done: { type: 'final' } },
});

/** Parent holding its children in `children`. */
const inChildren = setup({
  types: { events: {} as { type: 'spawn'; id: string } | { type: `xstate.done.actor.${string}` } },
  actors: { child: childLogic },
}).createMachine({
  context: { done: 0 },
  on: {
    spawn: { actions: spawnChild('child', { id: ({ event }) => (event as { id: string }).id }) },
    'xstate.done.actor.*': {
      actions: [stopChild(({ event }) => event.type.slice('xstate.done.actor.'.length)), assign({ done: ({ context }) => context.done + 1 })],
    },
  },
});

const held = new WeakMap<AnyActorRef, Map<string, AnyActorRef>>();
const supervise = fromCallback(({ self }) => () => {
  for (const child of held.get(self._parent!)?.values() ?? []) child.send({ type: 'cancel' });
});

/** Parent holding its children beside it, with one supervisor for the stop cascade. */
const outside = setup({
  types: { events: {} as { type: 'spawn'; id: string } | { type: `xstate.done.actor.${string}` } },
  actors: { supervise },
}).createMachine({
  context: { done: 0 },
  invoke: { id: 'supervisor', src: 'supervise' },
  on: {
    spawn: {
      actions: ({ self, event }) => {
        const id = (event as { id: string }).id;
        const child = createActor(childLogic, { parent: self, id });
        let map = held.get(self);
        if (!map) held.set(self, (map = new Map()));
        map.set(id, child);
        child.start();
      },
    },
    'xstate.done.actor.*': {
      actions: [({ self, event }) => held.get(self)?.delete(event.type.slice('xstate.done.actor.'.length)), assign({ done: ({ context }) => context.done + 1 })],
    },
  },
});

/** µs per child for `n` children started at once and all reaped. */
async function perChildUs(parentLogic: typeof inChildren | typeof outside, n: number): Promise<number> {
  const parent = createActor(parentLogic as typeof inChildren).start();
  const t0 = performance.now();
  for (let i = 0; i < n; i++) parent.send({ type: 'spawn', id: `c${i}` });
  await new Promise<void>((resolve) => {
    const check = (): void => void (parent.getSnapshot().context.done === n && resolve());
    parent.subscribe(check);
    check();
  });
  const us = ((performance.now() - t0) * 1000) / n;
  parent.stop();
  return us;
}

export default async function (): Promise<BenchFigures> {
  await perChildUs(inChildren, 200);
  await perChildUs(outside, 200);
  const children = await perChildUs(inChildren, 1000);
  const beside = await perChildUs(outside, 1000);
  return [
    ['spawn.hold.children.us_per_child_1000', children],
    ['spawn.hold.outside.us_per_child_1000', beside],
    ['spawn.hold.children_vs_outside.ratio', children / beside],
  ];
}
