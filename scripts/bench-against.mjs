#!/usr/bin/env node
/**
 * Benchmarks this checkout side by side with another commit, in one run: both are built, and
 * their bench modules run alternately (one process each, A B A B ...), so a load that drifts
 * during the run falls on both sides alike. Prints each figure's median per side and the
 * ratio of this checkout's to the other's, as `<name> <number>` lines.
 *
 *   node scripts/bench-against.mjs <commit> [--rounds=5] [--modules=runtime,fanout]
 *
 * The other commit's tree is exported into a cache folder beside the Node releases,
 * with its own `npm ci`, once per commit. Run it under Node 24 (`npm run bench:against`).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const ref = args.find((a) => !a.startsWith('--'));
const option = (name, fallback) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
if (!ref) {
  console.error('usage: node scripts/bench-against.mjs <commit> [--rounds=5] [--modules=runtime,fanout]');
  process.exit(2);
}
const rounds = Number(option('rounds', '5'));
const modules = option('modules', 'runtime,fanout').split(',');
if (!Number.isInteger(rounds) || rounds < 1) {
  console.error(`--rounds must be a positive integer, not ${option('rounds', '')}`);
  process.exit(2);
}

const git = (...a) => execFileSync('git', ['-C', here, ...a], { encoding: 'utf8' }).trim();
const commit = git('rev-parse', '--verify', `${ref}^{commit}`);
const cache = join(process.env.SUBAGENT_ACTORS_NODE_CACHE ?? join(homedir(), '.cache/subagent-actors'), 'bench-against', commit.slice(0, 12));

/** Runs `cmd` in `cwd`, echoing nothing unless it fails. */
function run(cmd, argv, cwd) {
  const r = spawnSync(cmd, argv, { cwd, encoding: 'utf8' });
  if (r.status !== 0) {
    process.stderr.write(r.stdout + r.stderr);
    throw new Error(`${cmd} ${argv.join(' ')} failed in ${cwd}`);
  }
  return r.stdout;
}

if (!existsSync(join(cache, 'package.json'))) {
  // An export of the commit's tree, not a worktree: nothing is registered in this repository.
  mkdirSync(cache, { recursive: true });
  execFileSync('sh', ['-c', `git -C "$0" archive "$1" | tar -x -C "$2"`, here, commit, cache]);
}
if (!existsSync(join(cache, 'node_modules'))) run('npm', ['ci', '--no-audit', '--no-fund'], cache);

/** Builds a checkout's benches the way its own `npm run bench` does. */
function build(dir) {
  const tsc = ['typescript-7/bin/tsc', 'typescript/bin/tsc'].map((p) => join(dir, 'node_modules', p)).find(existsSync);
  run(process.execPath, [tsc, '-p', 'tsconfig.bench.json'], dir);
}
build(here);
build(cache);

const sides = [
  { name: 'other', dir: cache },
  { name: 'this', dir: here },
];
/** figure -> side -> values */
const figures = new Map();
for (let round = 0; round < rounds; round++) {
  for (const mod of modules) {
    for (const side of round % 2 === 0 ? sides : [...sides].reverse()) {
      const out = run(process.execPath, [join(side.dir, '.bench-build/bench/run.js'), `${mod}.bench`], side.dir);
      for (const line of out.split('\n')) {
        const [name, value] = line.trim().split(/\s+/);
        if (!name || value === undefined || Number.isNaN(Number(value))) continue;
        if (!figures.has(name)) figures.set(name, { other: [], this: [] });
        figures.get(name)[side.name].push(Number(value));
      }
    }
  }
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const shown = (x) => (Number.isInteger(x) ? String(x) : x.toPrecision(4));
console.log(`# this checkout (${git('rev-parse', '--short', 'HEAD')}) against ${commit.slice(0, 7)}, ${rounds} alternating rounds, Node ${process.version}`);
for (const [name, by] of figures) {
  if (by.other.length === 0 || by.this.length === 0) continue;
  const a = median(by.other);
  const b = median(by.this);
  console.log(`against.${name}.other ${shown(a)}`);
  console.log(`against.${name}.this ${shown(b)}`);
  if (a !== 0) console.log(`against.${name}.this_over_other ${shown(b / a)}`);
}
