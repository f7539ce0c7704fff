/**
 * Runtime benchmarks: spawn-to-settled cost, fan-out flatness and message routing, each as a
 * ratio against a bare XState baseline or a smaller size measured in the same run.
 */
import { performance } from 'node:perf_hooks';
import { assign, createActor, createMachine, fromPromise, sendTo, setup, type AnyActorRef } from 'xstate';
import { scriptedModel } from '../src/model/scripted.js';
import { createRuntime } from '../src/runtime/runtime.js';
import { median, medianMs } from './measure.js';
import type { BenchFigures } from './run.js';

const quietModel = () => scriptedModel({ '**': { 0: [{ text: 'ok' }] } });

/** Median µs from spawn to result for one-shot isolated children, one at a time. */
async function spawnToSettledUs(count: number): Promise<number> {
  const rt = createRuntime({ model: quietModel(), limits: { maxChildren: 8, maxTotal: 64 } });
  const times: number[] = [];
  for (let i = 0; i < count + 100; i++) {
    const t0 = performance.now();
    const handle = await rt.spawn('/root', { task_name: `c${i % 4}`, message: 'work' });
    await handle.result;
    if (i >= 100) times.push((performance.now() - t0) * 1000);
  }
  rt.stop();
  return median(times);
}

/**
 * µs from start to done for the smallest machine with the same lifecycle shape: one eventless
 * step, one invoked promise (the model call), a final state. No XState design that invokes
 * its model request can be cheaper, so this bounds `spawn.vs_raw_xstate.ratio` from below.
 */
async function xstateFloorUs(count: number): Promise<number> {
  const machine = setup({ actors: { sample: fromPromise(async () => 'ok') } }).createMachine({
    context: { text: '' },
    initial: 'reserved',
    states: {
      reserved: { always: 'running' },
      running: { invoke: { src: 'sample', onDone: { target: 'done', actions: assign({ text: ({ event }) => event.output }) } } },
      done: { type: 'final' },
    },
  });
  const times: number[] = [];
  for (let i = 0; i < count + 100; i++) {
    const t0 = performance.now();
    const actor = createActor(machine).start();
    await new Promise<void>((resolve) => actor.subscribe({ complete: () => resolve() }));
    if (i >= 100) times.push((performance.now() - t0) * 1000);
  }
  return median(times);
}

/** µs to create, start and stop a bare one-state actor. */
function rawActorUs(): number {
  const machine = createMachine({ id: 'bare', initial: 'on', states: { on: {} } });
  return medianMs(() => createActor(machine).start().stop(), 31, 200, 5) * 1000;
}

/** Per-child ms when one parent holds `n` live children at once, all settling. */
async function fanoutPerChildMs(n: number): Promise<number> {
  const rt = createRuntime({ model: quietModel(), limits: { maxChildren: n, maxTotal: n, maxDepth: 3 } });
  const t0 = performance.now();
  const handles = await Promise.all(Array.from({ length: n }, (_, i) => rt.spawn('/root', { task_name: `w${i}`, message: 'work' }, { delivery: 'parent' })));
  await Promise.all(handles.map((h) => h.result));
  const per = (performance.now() - t0) / n;
  rt.stop();
  return per;
}

/** send_message routed per second to a working agent (its model never answers). */
async function routePerSec(messages: number): Promise<number> {
  const rt = createRuntime({ model: scriptedModel({ '/root/sink': { 0: [{ text: 'late', latencyMs: 1e9 }] }, '**': { 0: [{ text: 'ok' }] } }) });
  await rt.spawn('/root', { task_name: 'sink', message: 'wait' });
  if (rt.stateOf('/root/sink') !== 'running.working.sampling') throw new Error('the sink agent is not waiting on its model');
  const t0 = performance.now();
  for (let i = 0; i < messages; i++) rt.send('/root', '/root/sink', 'ping');
  const perSec = messages / ((performance.now() - t0) / 1000);
  // Every message must have been queued by a still-working agent, or the figure is void.
  const stillWorking = rt.stateOf('/root/sink') === 'running.working.sampling';
  rt.stop();
  return stillWorking ? perSec : Number.NaN;
}

/** Events per second forwarded with `sendTo` between two bare actors. */
function rawSendToPerSec(messages: number): number {
  const sink = createActor(setup({}).createMachine({ context: { n: 0 }, on: { ping: { actions: assign({ n: ({ context }) => context.n + 1 }) } } })).start();
  const relay = createActor(
    setup({ types: { context: {} as { sink: AnyActorRef } } }).createMachine({
      context: { sink },
      on: { forward: { actions: sendTo(({ context }) => context.sink, { type: 'ping' }) } },
    }),
  ).start();
  const t0 = performance.now();
  for (let i = 0; i < messages; i++) relay.send({ type: 'forward' });
  return messages / ((performance.now() - t0) / 1000);
}

export default async function (): Promise<BenchFigures> {
  const ours = await spawnToSettledUs(1000);
  const raw = rawActorUs();
  const floor = await xstateFloorUs(1000);
  await fanoutPerChildMs(200); // warm-up
  const small = await fanoutPerChildMs(200);
  const large = await fanoutPerChildMs(2000);
  const msgs = 20_000;
  await routePerSec(2000);
  const route = await routePerSec(msgs);
  rawSendToPerSec(2000);
  const rawRoute = rawSendToPerSec(msgs);
  return [
    ['spawn.isolated.us_per_child', ours],
    ['spawn.raw_xstate.us_per_actor', raw],
    ['spawn.vs_raw_xstate.ratio', ours / raw],
    ['spawn.xstate_floor.ratio', floor / raw],
    ['spawn.fanout.ratio_2000_vs_200', large / small],
    ['route.send_message.per_sec', Math.round(route)],
    ['route.vs_raw_xstate.ratio', route / rawRoute],
  ];
}
