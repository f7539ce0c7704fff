/**
 * Many sessions fanning out at once: `SESSIONS` runtimes, each one parent reply with
 * `SUBAGENTS` `Agent` calls and a zero-latency model, all prompted in one turn (the runtimes
 * are created beforehand). The figure is the
 * longest the event loop was held in one turn meanwhile (a timer-lag probe, in ms): what a
 * timer (a Postgres lease renewal, a heartbeat, an HTTP server's socket) waits at worst while
 * the fan-out runs (the median over three runs of each run's longest). The runtime yields
 * between slices of its work (src/runtime/slices.ts), so it stays within a few slices,
 * whatever the size of the fan-out; `load.idle_event_loop_stall_ms` is the same probe on an
 * idle loop in the same run, what the machine's load alone adds.
 */
import { performance } from 'node:perf_hooks';
import { scriptedModel } from '../src/model/scripted.js';
import { createRuntime } from '../src/runtime/runtime.js';
import { median } from './measure.js';
import type { BenchFigures } from './run.js';

const SESSIONS = 200;
const SUBAGENTS = 50;

/** A session ready to fan out: `start` prompts it and resolves when its root's turn has ended with every result in. */
function session(): () => Promise<void> {
  const calls = Array.from({ length: SUBAGENTS }, (_, i) => ({ name: 'Agent', arguments: { task_name: `w${i}`, message: 'work' } }));
  const model = scriptedModel({ '/root': { 0: [{ toolCalls: calls }, { text: 'done' }] }, '**': { 0: [{ text: 'ok' }] } });
  const rt = createRuntime({ model, limits: { maxChildren: SUBAGENTS, maxTotal: SUBAGENTS, maxDepth: 2 } });
  return () =>
    new Promise<void>((resolve, reject) => {
      rt.on('turn', (report) => {
        if (report.path !== '/root') return;
        if (rt.results.length !== SUBAGENTS) reject(new Error(`expected ${SUBAGENTS} results, got ${rt.results.length}`));
        rt.stop();
        resolve();
      });
      rt.prompt('go');
    });
}

/**
 * The longest gap between two turns of a 1 ms timer while `run` runs, less the 1 ms it asked
 * for: how long one event-loop turn held the loop at most.
 */
async function maxStallMs(run: () => Promise<void>): Promise<number> {
  let last = performance.now();
  let max = 0;
  const probe = setInterval(() => {
    const now = performance.now();
    max = Math.max(max, now - last - 1);
    last = now;
  }, 1);
  try {
    await run();
  } finally {
    clearInterval(probe);
  }
  return Math.max(0, max);
}

/** Every session prompted in one turn (the runtimes were created before), then run to the end together. */
async function fanOut(): Promise<number> {
  const starts = Array.from({ length: SESSIONS }, session);
  // Let the creations' own work settle before the probe starts.
  await new Promise<void>((resolve) => setImmediate(resolve));
  return maxStallMs(() => Promise.all(starts.map((start) => start())).then(() => undefined));
}

export default async function (): Promise<BenchFigures> {
  await fanOut(); // warm-up: the first run also compiles the hot code
  const stalls: number[] = [];
  const idle: number[] = [];
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    stalls.push(await fanOut());
    // The same probe on an idle loop for as long: what the machine's own load and the
    // collector add (on a loaded machine the process itself is descheduled for tens of ms).
    const ms = performance.now() - t0;
    idle.push(await maxStallMs(() => new Promise<void>((resolve) => setTimeout(resolve, ms))));
  }
  return [
    ['load.max_event_loop_stall_ms', median(stalls)],
    ['load.idle_event_loop_stall_ms', median(idle)],
  ];
}
