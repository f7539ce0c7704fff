/**
 * Soak: runs 50,000 subagents through one runtime, one after another, each with its own
 * name, and prints the heap growth per agent after garbage collection. Settled agents are
 * trimmed by the host's retention policy (the last 100 kept), as a long-lived host runs.
 * Not part of `npm test`; run with `npm run soak` (it needs `--expose-gc`).
 *
 * Prints `<name> <number>` lines: the heap after a warm-up, after the run, and the growth
 * per agent in bytes (target: at most 64). `npm run soak -- 5000` runs fewer agents.
 */
import type { ModelAdapter } from '../src/model/adapter.js';
import { MAX_TOMBSTONES } from '../src/runtime/registry.js';
import { createRuntime } from '../src/runtime/runtime.js';

const AGENTS = Number(process.argv[2] ?? 50_000);
// The registry keeps the last 10,000 tombstones (a bounded cache for clear "has finished"
// errors); the warm-up fills it, so the run measures what grows without bound.
const WARMUP = MAX_TOMBSTONES + 1_000;

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc (npm run soak does)');

async function settledHeap(): Promise<number> {
  // Let pending callbacks run, then collect twice (weak maps clear in a second pass).
  await new Promise((resolve) => setImmediate(resolve));
  gc!();
  gc!();
  return process.memoryUsage().heapUsed;
}

// A bare model: the scripted test model records every call, which is not the runtime's memory.
const model: ModelAdapter = {
  name: 'soak',
  sample: () => Promise.resolve({ text: 'ok', toolCalls: [], usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 } }),
};
const rt = createRuntime({ model, retention: { maxSettled: 100 } });
let next = 0;
async function runAgents(count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const handle = await rt.spawn('/root', { task_name: `w${next++}`, message: 'work' });
    await handle.result;
  }
}

await runAgents(WARMUP);
const before = await settledHeap();
await runAgents(AGENTS);
const after = await settledHeap();
if (rt.slotsInUse !== 0) throw new Error(`slots still held: ${rt.slotsInUse}`);
rt.stop();
console.log(`soak.agents ${AGENTS}`);
console.log(`soak.heap.before.mb ${(before / 1e6).toFixed(1)}`);
console.log(`soak.heap.after.mb ${(after / 1e6).toFixed(1)}`);
console.log(`soak.heap.growth.per.agent.bytes ${((after - before) / AGENTS).toFixed(1)}`);
