/**
 * What an agent costs in memory, after garbage collection, per subagent:
 *
 * - `memory.idle_subagent_bytes`: a continuable subagent that answered its task and waits,
 *   idle, for a follow-up (its actor, context, dialogue, registry entry and slot);
 * - `memory.settled_subagent_bytes`: what a one-shot subagent leaves behind once settled,
 *   with retention off (`retention: { maxSettled: 0 }`): ideally nothing;
 * - `memory.retained_settled_subagent_bytes`: what a settled one-shot subagent costs under the
 *   default retention (its result and final dialogue, kept for the latest DEFAULT_MAX_SETTLED
 *   settled agents), so the default bound costs about this figure × 1,000.
 *
 * Each is the heap after N subagents minus the heap before them, over N, the median of a few
 * rounds (a fresh runtime each). Targets: at most 4,096 and 512 bytes.
 *
 * The model is a bare adapter that answers every request at once and keeps nothing:
 * `scriptedModel` records every request it receives (its `calls`, for tests to read), which
 * would count the test double's log, about 2 KB a subagent, as the runtime's memory.
 */
import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import { createRuntime, ZERO_USAGE, type ModelAdapter, type Runtime } from '../src/index.js';
import { median } from './measure.js';
import type { BenchFigures } from './run.js';

const N = 500;
const ROUNDS = 5;

setFlagsFromString('--expose-gc');
/** A full collection (exposed at run time, so `npm run bench` needs no flag). */
const gc = runInNewContext('gc') as () => void;

/** Answers every request with a final text, at once, remembering nothing of it. */
const model: ModelAdapter = {
  name: 'memory-bench',
  sample: () => Promise.resolve({ text: 'ok', toolCalls: [], usage: ZERO_USAGE, stopReason: 'stop' }),
};

/** The heap in use after collecting, twice (weak references and finalizers settle in the second). */
function heap(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

/** Resolves once the runtime has nothing in flight. */
const quiet = (runtime: Runtime): Promise<void> => runtime.whenQuiet();

/** Bytes per subagent of `n` subagents spawned with `lifetime`, measured once things are quiet. */
async function perSubagent(lifetime: 'continuable' | 'one-shot', retained = false): Promise<number> {
  const runtime = createRuntime({ model, limits: { maxChildren: N, maxTotal: N, maxDepth: 2 }, ...(retained ? {} : { retention: { maxSettled: 0 } }) });
  runtime.prompt('start');
  await quiet(runtime);
  // One spawn first, so code paths and caches a first spawn warms are not counted.
  await runtime.spawn('/root', { task_name: 'warm', message: 'work', context: 'none' }, { lifetime: 'one-shot' });
  await quiet(runtime);
  const before = heap();
  const spawns: Promise<unknown>[] = [];
  for (let i = 0; i < N; i++) spawns.push(runtime.spawn('/root', { task_name: `w${i}`, message: 'work', context: 'none' }, { lifetime }));
  await Promise.all(spawns);
  // The handles are the host's, not the runtime's: let them go before measuring.
  spawns.length = 0;
  await quiet(runtime);
  const after = heap();
  // The figure means what it says only if the subagents are where it says they are.
  const waiting = runtime.list().filter((agent) => agent.path !== '/root' && agent.state === 'running.idle').length;
  if (waiting !== (lifetime === 'continuable' ? N : 0)) throw new Error(`memory bench: ${waiting} idle subagents, expected ${lifetime === 'continuable' ? N : 0}`);
  const kept = retained ? N + 1 : 0;
  if (lifetime === 'one-shot' && runtime.results.length !== kept) throw new Error(`memory bench: ${runtime.results.length} results kept, expected ${kept}`);
  runtime.stop();
  return (after - before) / N;
}

export default async function memoryBench(): Promise<BenchFigures> {
  const idle: number[] = [];
  const settled: number[] = [];
  const retained: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    idle.push(await perSubagent('continuable'));
    settled.push(await perSubagent('one-shot'));
    retained.push(await perSubagent('one-shot', true));
  }
  return [
    ['memory.idle_subagent_bytes', Math.round(median(idle))],
    ['memory.settled_subagent_bytes', Math.round(Math.max(0, median(settled)))],
    ['memory.retained_settled_subagent_bytes', Math.round(median(retained))],
  ];
}
