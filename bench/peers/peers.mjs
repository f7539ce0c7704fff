/**
 * Fan-out in one reply, side by side: a parent's model answers with N subagent calls at once,
 * the parent waits for all N results (caller delivery), then answers once more. Every model is
 * a zero-latency fake from the system's own testing facilities, so only the runtimes are timed.
 *
 * Systems (one module each in ./systems): this library (compiled by `npm run bench:peers` into
 * .bench-build), LangGraph.js (functional API `task`, and a StateGraph with `Send`), and the
 * OpenAI Agents SDK (`agent.asTool()`). One process run: each system in its own worker thread
 * (see worker.mjs for why), driven from here one sample at a time, so no two run at once.
 * N = 1, 10, 100, 1000; the systems are interleaved within each repetition (their order
 * rotating between repetitions); one unmeasured round at every size and five more at 1,000
 * warm every system up;
 * 3 repetitions; the median is taken. Below N = 100 a sample is the mean of 100 / N runs, so a
 * run of a few ms is not lost in scheduler noise. The heap is not collected between samples: a
 * forced collection shrinks V8's young generation and slows the next sample far more than
 * steady state does. Figures are µs per subagent as the slope of total time from N = 1,
 * printed as `<name> <number>` lines, then as a markdown table.
 */
import { loadavg } from 'node:os';
import { Worker } from 'node:worker_threads';

const SIZES = [1, 10, 100, 1000];
const REPS = 3;
const WARM_LARGE = 5;

const system = (key, label, file, exported, ours = false) => ({ key, label, module: new URL(`./systems/${file}`, import.meta.url).href, exported, ours });
const SYSTEMS = [
  system('subagent_actors', 'subagent-actors', 'subagent-actors.mjs', 'fanout', true),
  system('langgraph_task', 'LangGraph.js functional `task`', 'langgraph.mjs', 'functionalTask'),
  system('langgraph_send', 'LangGraph.js StateGraph `Send`', 'langgraph.mjs', 'stateGraphSend'),
  system('openai_agents', 'OpenAI Agents SDK `asTool`', 'openai-agents.mjs', 'asTool'),
];

/** Starts a system's worker; `run(n, runs)` resolves with the mean ms of `runs` fan-outs of size n. */
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
    run: (n, runs) =>
      new Promise((resolve, reject) => {
        pending = { resolve, reject };
        worker.postMessage({ n, runs });
      }),
    stop: () => worker.terminate(),
  };
}

const median = (values) => {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};

const workers = new Map(SYSTEMS.map((s) => [s.key, startWorker(s)]));
/** One sample in ms: below 100 subagents the mean of 100 / n runs. */
const sample = (system, n) => workers.get(system.key).run(n, Math.max(1, Math.floor(100 / n)));

const loadBefore = loadavg()[0];
// Warm-up: every system once at every size, then WARM_LARGE more times at the largest. A fresh
// thread needs several large runs before V8 has grown its heap and optimized the hot code
// (this library's first 1,000-call replies took 1.1-1.4 s, then 0.55-0.9 s, and from about
// the fifth 0.25-0.45 s), and no system should be sampled before it is steady.
for (const n of SIZES) for (const system of SYSTEMS) await sample(system, n);
for (let i = 0; i < WARM_LARGE; i++) for (const system of SYSTEMS) await workers.get(system.key).run(SIZES.at(-1), 1);

const samples = new Map(SYSTEMS.map((s) => [s.key, new Map(SIZES.map((n) => [n, []]))]));
for (let rep = 0; rep < REPS; rep++) {
  const order = SYSTEMS.map((_, i) => SYSTEMS[(i + rep) % SYSTEMS.length]);
  for (const n of SIZES) for (const system of order) samples.get(system.key).get(n).push(await sample(system, n));
}

for (const worker of workers.values()) await worker.stop();

const totals = new Map(SYSTEMS.map((s) => [s.key, new Map(SIZES.map((n) => [n, median(samples.get(s.key).get(n))]))]));
const slopeUs = (key, n) => ((totals.get(key).get(n) - totals.get(key).get(1)) / (n - 1)) * 1000;

const lines = [];
for (const system of SYSTEMS) {
  for (const n of SIZES) lines.push([`peers.${system.key}.total_ms_${n}`, totals.get(system.key).get(n)]);
  for (const n of SIZES.slice(1)) lines.push([`peers.${system.key}.us_per_subagent_${n}`, slopeUs(system.key, n)]);
}
const peers = SYSTEMS.filter((s) => !s.ours);
const best = peers.reduce((a, b) => (slopeUs(a.key, 1000) <= slopeUs(b.key, 1000) ? a : b));
lines.push([`peers.best_peer_us_per_subagent_1000`, slopeUs(best.key, 1000)]);
lines.push([`peers.best_ratio_1000`, slopeUs('subagent_actors', 1000) / slopeUs(best.key, 1000)]);
// The machine's load while measuring: absolute figures move with it, the ratio much less.
lines.push([`peers.loadavg_1m_before`, loadBefore]);
lines.push([`peers.loadavg_1m_after`, loadavg()[0]]);
for (const [name, value] of lines) console.log(`${name} ${Number.isInteger(value) ? value : value.toPrecision(4)}`);

const fmt = (v) => (v >= 100 ? Math.round(v).toLocaleString('en-US') : v.toPrecision(3));
console.log('');
console.log(`Median of ${REPS} interleaved runs, each system in its own worker thread; µs per subagent as the slope of total time from N = 1; best peer at N = 1,000: ${best.label}.`);
console.log('');
console.log('| system | 1→10 | 1→100 | 1→1000 | total ms at 1000 |');
console.log('| --- | --- | --- | --- | --- |');
for (const system of SYSTEMS) {
  const cells = SIZES.slice(1).map((n) => fmt(slopeUs(system.key, n)));
  console.log(`| ${system.label} | ${cells.join(' | ')} | ${fmt(totals.get(system.key).get(1000))} |`);
}
console.log(`| **peers.best_ratio_1000** | | | ${(slopeUs('subagent_actors', 1000) / slopeUs(best.key, 1000)).toPrecision(3)} | |`);
