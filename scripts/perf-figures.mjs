#!/usr/bin/env node
/**
 * Writes docs/performance.md's "Latest measured figures" section from one bench run, so the
 * figures there are what a script printed, with the commit, the Node release and the
 * machine's load they came from, never typed by hand.
 *
 *   npm run perf:doc                   the fan-out, spawn, routing, memory and peer benches
 *   npm run perf:doc -- --no-peers     without the peer bench (it takes minutes)
 *   npm run perf:doc -- --reduced      the peer bench with fewer repetitions (about half the time)
 *   npm run perf:doc -- --timeout=12   minutes each bench may take (default 10)
 *
 * Each bench runs in a process of its own with a timeout, so one that cannot finish on a
 * loaded machine is killed and named in the section ("timed out"), and the others' figures
 * still land. The section records the repetition setting and each bench's wall time.
 *
 * It runs the compiled benches (`npm run bench` builds them) under the Node on PATH; the npm
 * script puts Node 24 first.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { loadavg, cpus } from 'node:os';
import { performance } from 'node:perf_hooks';

const DOC = new URL('../docs/performance.md', import.meta.url);
const BEGIN = '<!-- figures:begin (written by scripts/perf-figures.mjs; do not edit by hand) -->';
const END = '<!-- figures:end -->';
const peers = !process.argv.includes('--no-peers');
const reduced = process.argv.includes('--reduced');
const timeoutArg = process.argv.find((arg) => arg.startsWith('--timeout='));
const timeoutMin = timeoutArg === undefined ? 10 : Number(timeoutArg.slice('--timeout='.length));
if (!(timeoutMin > 0)) throw new TypeError(`perf-figures: --timeout must be a positive number of minutes (got ${timeoutArg})`);

/** Each figure the issue tracks, with its target (as text) when it has one. */
const TRACKED = [
  ['fanout.reply.vs_xstate_floor.ratio', '≤ 2.5'],
  ['fanout.machine_only.vs_xstate_floor.ratio', '≤ 1.8'],
  ['fanout.reply.linearity', '≤ 1.3'],
  ['fanout.reply.us_per_subagent_1000', 'reference'],
  ['spawn.vs_raw_xstate.ratio', 'reference'],
  ['spawn.xstate_floor.ratio', 'reference'],
  ['spawn.isolated.us_per_child', 'reference'],
  ['route.vs_raw_xstate.ratio', '≥ 0.5'],
  ['memory.idle_subagent_bytes', '≤ 4,096'],
  ['memory.settled_subagent_bytes', '≤ 512'],
  ['memory.retained_settled_subagent_bytes', 'reference'],
  ['peers.best_ratio_1', '≤ 0.8'],
  ['peers.best_ratio_10', '≤ 0.8'],
  ['peers.best_ratio_100', '≤ 0.8'],
  ['peers.best_ratio_1000', '≤ 0.8'],
  ['peers.best_ratio_p90_10', '≤ 0.8'],
];

const run = (command, args) => execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 64 << 20 });
const figures = new Map();
const collect = (text) => {
  for (const line of text.split('\n')) {
    const match = /^([a-z][\w.]*) (-?[\d.e+]+)$/.exec(line.trim());
    if (match) figures.set(match[1], Number(match[2]));
  }
};

const commit = run('git', ['rev-parse', '--short', 'HEAD']).trim();
const dirty = run('git', ['status', '--porcelain', '--untracked-files=no']).trim() !== '';
const loadBefore = loadavg()[0];
run('node', ['node_modules/typescript-7/bin/tsc', '-p', 'tsconfig.bench.json']);
/** Each bench's wall time in seconds, or that it timed out. */
const timings = [];
/** Runs one bench with the timeout; its figures are collected, and its output returned. */
const bench = (label, command, args) => {
  const start = performance.now();
  try {
    const out = execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 64 << 20, timeout: timeoutMin * 60_000, killSignal: 'SIGKILL' });
    collect(out);
    timings.push(`${label} ${Math.round((performance.now() - start) / 1000)} s`);
    return out;
  } catch (error) {
    // Figures printed before the kill are whole lines of a finished measurement: keep them.
    if (typeof error.stdout === 'string') collect(error.stdout);
    const why = error.signal === 'SIGKILL' ? `timed out after ${timeoutMin} min` : `failed (${error.status ?? error.signal})`;
    timings.push(`${label} ${why}`);
    process.stderr.write(`perf-figures: ${label} ${why}\n`);
    return '';
  }
};
for (const name of ['fanout', 'runtime', 'memory']) bench(name, 'node', ['--expose-gc', '.bench-build/bench/run.js', name]);
let peerTable = '';
if (peers) {
  run('npm', ['--prefix', 'bench/peers', 'ci', '--no-audit', '--no-fund', '--loglevel=error']);
  const out = bench('peers', 'node', ['bench/peers/peers.mjs', ...(reduced ? ['--reduced'] : [])]);
  if (out.includes('\nTotal ms')) peerTable = out.slice(out.indexOf('\nTotal ms') + 1).trim();
}
const loadAfter = loadavg()[0];

/** The bench that prints a figure, by its name's first part. */
const benchOf = (name) => ({ fanout: 'fanout', spawn: 'runtime', route: 'runtime', memory: 'memory', peers: 'peers' })[name.split('.')[0]];
const timedOut = new Set(timings.filter((t) => t.includes('timed out')).map((t) => t.split(' ')[0]));
const shown = (value, name) => (value === undefined ? (timedOut.has(benchOf(name)) ? 'timed out' : 'not measured') : Number.isInteger(value) ? value.toLocaleString('en-US') : value.toPrecision(3));
const section = [
  BEGIN,
  '## Latest measured figures',
  '',
  `One run of \`npm run perf:doc${reduced ? ' -- --reduced' : ''}\` at commit \`${commit}\`${dirty ? ' (with uncommitted changes)' : ''}, Node ${process.version}, ${cpus().length} cores, load average ${loadBefore.toFixed(1)} before and ${loadAfter.toFixed(1)} after, on ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC.`,
  `Repetitions: ${reduced ? 'reduced (the peer bench with about half its samples; see its table heading)' : 'full'}. Wall time per bench (timeout ${timeoutMin} min): ${timings.join(', ')}.`,
  '',
  '| figure | measured | target |',
  '| --- | --- | --- |',
  ...TRACKED.filter(([name]) => peers || !name.startsWith('peers.')).map(([name, target]) => `| \`${name}\` | ${shown(figures.get(name), name)} | ${target} |`),
  ...(peerTable ? ['', peerTable] : []),
  END,
].join('\n');

const doc = readFileSync(DOC, 'utf8');
const start = doc.indexOf(BEGIN);
const end = doc.indexOf(END);
const next = start >= 0 && end > start ? `${doc.slice(0, start)}${section}${doc.slice(end + END.length)}` : `${doc.trimEnd()}\n\n${section}\n`;
writeFileSync(DOC, next);
console.log(section);
