/**
 * How one reply's tool calls are held, measured on bare XState machines with the agent's
 * shape (enter a step with N calls, each resolves on a microtask and sends a result event,
 * leave the step when all are in):
 * - `children`: one spawned child per call, each stopped (reaped) when its result arrives;
 * - `one_actor`: one invoked callback actor runs the whole step and is stopped with it;
 * - `outside`: no actor; each call is a promise with its own AbortController, kept in a map
 *   beside the machine and aborted when the step is left.
 * The agent machine uses the cheapest shape that keeps the guarantees; figures are µs per call.
 */
import { performance } from 'node:perf_hooks';
import { assign, createActor, fromCallback, setup, stopChild, type AnyActorRef } from 'xstate';
import { median } from './measure.js';
import type { BenchFigures } from './run.js';

type Ev = { type: 'go'; n: number } | { type: 'result'; id: number };
type Ctx = { n: number; pending: number };

const oneCall = fromCallback<Ev, { id: number }>(({ input, sendBack }) => {
  void Promise.resolve().then(() => sendBack({ type: 'result', id: input.id }));
});

const wholeStep = fromCallback<Ev, { n: number }>(({ input, sendBack }) => {
  for (let id = 0; id < input.n; id++) void Promise.resolve().then(() => sendBack({ type: 'result', id }));
});

const base = {
  types: { context: {} as Ctx, events: {} as Ev },
  guards: { allIn: ({ context }: { context: Ctx }) => context.pending === 0 },
};

const childrenMachine = setup({ ...base, actors: { oneCall } }).createMachine({
  context: { n: 0, pending: 0 },
  initial: 'idle',
  states: {
    idle: { on: { go: { target: 'acting', actions: assign(({ event }) => ({ n: event.n, pending: event.n })) } } },
    acting: {
      entry: assign(({ context, spawn }) => {
        for (let id = 0; id < context.n; id++) spawn('oneCall', { id: `t${id}`, input: { id } });
        return {};
      }),
      on: {
        result: {
          actions: [assign(({ context }) => ({ pending: context.pending - 1 })), stopChild(({ event }) => `t${(event as { id: number }).id}`)],
        },
      },
      always: { guard: 'allIn', target: 'done' },
    },
    done: { type: 'final' },
  },
});

const oneActorMachine = setup({ ...base, actors: { wholeStep } }).createMachine({
  context: { n: 0, pending: 0 },
  initial: 'idle',
  states: {
    idle: { on: { go: { target: 'acting', actions: assign(({ event }) => ({ n: event.n, pending: event.n })) } } },
    acting: {
      invoke: { src: 'wholeStep', input: ({ context }) => ({ n: context.n }) },
      on: { result: { actions: assign(({ context }) => ({ pending: context.pending - 1 })) } },
      always: { guard: 'allIn', target: 'done' },
    },
    done: { type: 'final' },
  },
});

const held = new WeakMap<AnyActorRef, Map<number, AbortController>>();
const outsideMachine = setup({ ...base }).createMachine({
  context: { n: 0, pending: 0 },
  initial: 'idle',
  states: {
    idle: { on: { go: { target: 'acting', actions: assign(({ event }) => ({ n: event.n, pending: event.n })) } } },
    acting: {
      entry: ({ context, self }) => {
        const map = new Map<number, AbortController>();
        held.set(self, map);
        for (let id = 0; id < context.n; id++) {
          const controller = new AbortController();
          map.set(id, controller);
          void Promise.resolve().then(() => controller.signal.aborted || self.send({ type: 'result', id }));
        }
      },
      exit: ({ self }) => {
        for (const controller of held.get(self)?.values() ?? []) controller.abort();
        held.delete(self);
      },
      on: {
        result: {
          actions: [assign(({ context }) => ({ pending: context.pending - 1 })), ({ event, self }) => held.get(self)?.delete((event as { id: number }).id)],
        },
      },
      always: { guard: 'allIn', target: 'done' },
    },
    done: { type: 'final' },
  },
});

type Shape = typeof childrenMachine | typeof oneActorMachine | typeof outsideMachine;

async function stepMs(machine: Shape, n: number): Promise<number> {
  const actor = createActor(machine as typeof oneActorMachine).start();
  const done = new Promise<void>((resolve) => actor.subscribe({ complete: () => resolve() }));
  const t0 = performance.now();
  actor.send({ type: 'go', n });
  await done;
  return performance.now() - t0;
}

async function perCallUs(machine: Shape, n: number, reps: number): Promise<number> {
  const times: number[] = [];
  for (let r = 0; r < reps; r++) times.push(await stepMs(machine, n));
  return (median(times) / n) * 1000;
}

export default async function (): Promise<BenchFigures> {
  const shapes = [
    ['children', childrenMachine],
    ['one_actor', oneActorMachine],
    ['outside', outsideMachine],
  ] as const;
  for (const [, m] of shapes) await perCallUs(m, 1000, 2); // warm-up
  const figures: Array<[string, number]> = [];
  for (const [name, m] of shapes) figures.push([`step.hold.${name}.us_per_call_1000`, await perCallUs(m, 1000, 5)]);
  return figures;
}
