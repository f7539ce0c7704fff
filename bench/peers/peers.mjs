/**
 * Fan-out in one reply, side by side: a parent's model answers with N subagent calls at once,
 * the parent waits for all N results (caller delivery), then answers once more. Every model is
 * a zero-latency fake from the system's own testing facilities, so only the runtimes are timed.
 *
 * Systems (one module each in ./systems), at the releases a user installs today: this library
 * (compiled by `npm run bench:peers` into .bench-build), LangGraph.js (functional API `task`,
 * and a StateGraph with `Send`), the OpenAI Agents SDK (`agent.asTool()`) and Mastra's
 * supervisor (`agents` on the parent). One process run: each system in its own worker thread
 * (see worker.mjs for why), driven from here one sample at a time, so no two run at once.
 *
 * N = 1, 10, 100, 1000. Each sample is one fan-out. The systems are interleaved within each
 * repetition (their order rotating), with many more repetitions where a fan-out is short:
 * most real replies start 1 to 10 subagents, and there the tail matters as much as the middle,
 * so the 50th and the 90th percentile are both printed. One unmeasured round at every size and
 * five more at 1,000 warm every system up. The heap is not collected between samples: a forced
 * collection shrinks V8's young generation and slows the next sample far more than steady
 * state does.
 *
 * `peers.best_ratio_<N>` is this library's median total time over the best peer's at that N;
 * `peers.best_ratio_p90_10` the same for the 90th percentile at N = 10. Below 1 is ahead.
 * Printed as `<name> <number>` lines, then as a markdown table.
 */
import { loadavg } from 'node:os';
import { Worker } from 'node:worker_threads';

const SIZES = [1, 10, 100, 1000];
/**
 * Repetitions per size: many where a sample takes a few ms, few where it takes a second.
 * `--reduced` (what `npm run perf:doc -- --reduced` passes on a loaded machine) takes about half
 * as long, most of it saved at N = 1,000; the table's heading says which was run.
 */
const reduced = process.argv.includes('--reduced');
const REPS = reduced ? new Map([[1, 31], [10, 21], [100, 5], [1000, 3]]) : new Map([[1, 61], [10, 41], [100, 11], [1000, 5]]);
const WARM_LARGE = reduced ? 2 : 5;

const system = (key, label, file, exported, ours = false) => ({ key, label, module: new URL(`./systems/${file}`, import.meta.url).href, exported, ours });
const SYSTEMS = [
  system('subagent_actors', 'subagent-actors', 'subagent-actors.mjs', 'fanout', true),
  system('langgraph_task', 'LangGraph.js functional `task` (1.7)', 'langgraph.mjs', 'functionalTask'),
  system('langgraph_send', 'LangGraph.js StateGraph `Send` (1.7)', 'langgraph.mjs', 'stateGraphSend'),
  system('openai_agents', 'OpenAI Agents SDK `asTool` (0.20)', 'openai-agents.mjs', 'asTool'),
  system('mastra_supervisor', 'Mastra supervisor `agents` (1.71)', 'mastra.mjs', 'supervisor'),
];

/** Starts a system's worker; `run(n)` resolves with the ms of one fan-out of size n. */
function startWorker({ key, module, exported }) {
  const worker = new Worker(new URL('./worker.mjs', import.meta.url), { workerData: { module, exported } });
  let pending;
  worker.on('message', (reply) => {
    const settle = pending;
    pending = undefined;
    if (reply.error) settle?.reject(new Error(`${key}: ${reply.error}`));
    else settle?.resolve(reply.ms);
  });
  worker.on('error', (error) => pending?.reject(error));
  return {
    run: (n) =>
      new Promise((resolve, reject) => {
        pending = { resolve, reject };
        worker.postMessage({ n, runs: 1 });
      }),
    stop: () => worker.terminate(),
  };
}

/** The p-th percentile (0-100) of `values`, by linear interpolation between closest ranks. */
const percentile = (values, p) => {
  const s = [...values].sort((a, b) => a - b);
  const at = (p / 100) * (s.length - 1);
  const lo = Math.floor(at);
  return s[lo] + (s[Math.min(lo + 1, s.length - 1)] - s[lo]) * (at - lo);
};

const workers = new Map(SYSTEMS.map((s) => [s.key, startWorker(s)]));
const sample = (system, n) => workers.get(system.key).run(n);

const loadBefore = loadavg()[0];
// Warm-up: every system once at every size, then WARM_LARGE more times at the largest. A fresh
// thread needs several large runs before V8 has grown its heap and optimized the hot code, and
// no system should be sampled before it is steady.
for (const n of SIZES) for (const system of SYSTEMS) await sample(system, n);
for (let i = 0; i < WARM_LARGE; i++) for (const system of SYSTEMS) await sample(system, SIZES.at(-1));

const samples = new Map(SYSTEMS.map((s) => [s.key, new Map(SIZES.map((n) => [n, []]))]));
for (const n of SIZES) {
  for (let rep = 0; rep < REPS.get(n); rep++) {
    const order = SYSTEMS.map((_, i) => SYSTEMS[(i + rep) % SYSTEMS.length]);
    for (const system of order) samples.get(system.key).get(n).push(await sample(system, n));
  }
}

for (const worker of workers.values()) await worker.stop();

const p50 = (key, n) => percentile(samples.get(key).get(n), 50);
const p90 = (key, n) => percentile(samples.get(key).get(n), 90);
const slopeUs = (key, n) => ((p50(key, n) - p50(key, 1)) / (n - 1)) * 1000;
const peers = SYSTEMS.filter((s) => !s.ours);
const bestAt = (n, measure) => peers.reduce((a, b) => (measure(a.key, n) <= measure(b.key, n) ? a : b));

const lines = [];
for (const system of SYSTEMS) {
  for (const n of SIZES) lines.push([`peers.${system.key}.total_ms_${n}`, p50(system.key, n)]);
  for (const n of SIZES) lines.push([`peers.${system.key}.p90_ms_${n}`, p90(system.key, n)]);
  for (const n of SIZES.slice(1)) lines.push([`peers.${system.key}.us_per_subagent_${n}`, slopeUs(system.key, n)]);
}
for (const n of SIZES) lines.push([`peers.best_ratio_${n}`, p50('subagent_actors', n) / p50(bestAt(n, p50).key, n)]);
lines.push(['peers.best_ratio_p90_1', p90('subagent_actors', 1) / p90(bestAt(1, p90).key, 1)]);
lines.push(['peers.best_ratio_p90_10', p90('subagent_actors', 10) / p90(bestAt(10, p90).key, 10)]);
// The machine's load while measuring: absolute figures move with it, the ratios much less.
lines.push(['peers.loadavg_1m_before', loadBefore]);
lines.push(['peers.loadavg_1m_after', loadavg()[0]]);
for (const [name, value] of lines) console.log(`${name} ${Number.isInteger(value) ? value : value.toPrecision(4)}`);

const fmt = (v) => (v >= 100 ? Math.round(v).toLocaleString('en-US') : v.toPrecision(3));
console.log('');
console.log(`Total ms per fan-out, 50th / 90th percentile of ${reduced ? '(reduced repetitions) ' : ''}${SIZES.map((n) => `${REPS.get(n)} at N = ${n.toLocaleString('en-US')}`).join(', ')}; systems interleaved, each in its own worker thread.`);
console.log('');
console.log(`| system | ${SIZES.map((n) => `N = ${n.toLocaleString('en-US')}`).join(' | ')} |`);
console.log(`| --- | ${SIZES.map(() => '---').join(' | ')} |`);
for (const system of SYSTEMS) console.log(`| ${system.label} | ${SIZES.map((n) => `${fmt(p50(system.key, n))} / ${fmt(p90(system.key, n))}`).join(' | ')} |`);
console.log(`| **ours / best peer (median)** | ${SIZES.map((n) => `${(p50('subagent_actors', n) / p50(bestAt(n, p50).key, n)).toPrecision(3)} (${bestAt(n, p50).key})`).join(' | ')} |`);
