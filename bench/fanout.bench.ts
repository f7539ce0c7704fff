/**
 * Fan-out in one reply: the parent's model answers with N `Agent` calls at once (caller
 * delivery, so every call returns its subagent's result) and then finishes. The model has
 * zero latency, so only the runtime is timed. Figures are µs per subagent as the slope of
 * total time between sizes, against detached bare XState actors that each invoke one promise
 * and finish (the floor), all measured in this run.
 */
import { performance } from 'node:perf_hooks';
import { assign, createActor, fromPromise, setup } from 'xstate';
import { scriptedModel } from '../src/model/scripted.js';
import { createRuntime } from '../src/runtime/runtime.js';
import { median } from './measure.js';
import type { BenchFigures } from './run.js';

/** ms for one parent reply with `n` Agent calls, from prompt to the parent's finished turn. */
export async function replyFanoutMs(n: number): Promise<number> {
  const calls = Array.from({ length: n }, (_, i) => ({ name: 'Agent', arguments: { task_name: `w${i}`, message: 'work' } }));
  const model = scriptedModel({ '/root': { 0: [{ toolCalls: calls }, { text: 'done' }] }, '**': { 0: [{ text: 'ok' }] } });
  const rt = createRuntime({ model, limits: { maxChildren: n, maxTotal: n, maxDepth: 2 } });
  const t0 = performance.now();
  const turn = new Promise<void>((resolve) => rt.on('turn', (report) => report.path === '/root' && resolve()));
  rt.prompt('go');
  await turn;
  const ms = performance.now() - t0;
  if (rt.results.length !== n) throw new Error(`expected ${n} subagent results, got ${rt.results.length}`);
  rt.stop();
  return ms;
}

/** ms for `n` detached bare actors that each invoke one promise and finish, all at once. */
export async function xstateFloorMs(n: number): Promise<number> {
  const machine = setup({ actors: { sample: fromPromise(async () => 'ok') } }).createMachine({
    context: { text: '' },
    initial: 'running',
    states: {
      running: { invoke: { src: 'sample', onDone: { target: 'done', actions: assign({ text: ({ event }) => event.output }) } } },
      done: { type: 'final' },
    },
  });
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: n }, () => {
      const actor = createActor(machine);
      const done = new Promise<void>((resolve) => actor.subscribe({ complete: () => resolve() }));
      actor.start();
      return done;
    }),
  );
  return performance.now() - t0;
}

/** Median of `reps` runs of each size, sizes interleaved so load drifts hit all alike. */
async function medians(fn: (n: number) => Promise<number>, sizes: readonly number[], reps: number): Promise<Map<number, number>> {
  const samples = new Map<number, number[]>(sizes.map((n) => [n, []]));
  for (let r = 0; r < reps; r++) for (const n of sizes) samples.get(n)!.push(await fn(n));
  return new Map(sizes.map((n) => [n, median(samples.get(n)!)]));
}

/** µs per item as the slope of total time from 1 to `n`. */
const slopeUs = (t: Map<number, number>, n: number) => ((t.get(n)! - t.get(1)!) / (n - 1)) * 1000;

export default async function (): Promise<BenchFigures> {
  const sizes = [1, 100, 1000];
  await medians(replyFanoutMs, sizes, 2); // warm-up
  await medians(xstateFloorMs, sizes, 2);
  const ours = await medians(replyFanoutMs, sizes, 5);
  const floor = await medians(xstateFloorMs, sizes, 5);
  const per1000 = slopeUs(ours, 1000);
  return [
    ['fanout.reply.us_per_subagent_100', slopeUs(ours, 100)],
    ['fanout.reply.us_per_subagent_1000', per1000],
    ['fanout.reply.linearity', per1000 / slopeUs(ours, 100)],
    ['fanout.xstate_floor.us_per_actor_1000', slopeUs(floor, 1000)],
    ['fanout.reply.vs_xstate_floor.ratio', per1000 / slopeUs(floor, 1000)],
  ];
}
