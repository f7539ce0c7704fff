/**
 * Runs every bench module and prints each figure as one `<figure-name> <number>` line.
 * `npm run bench` compiles first and runs the JavaScript, as users run the package (a
 * TypeScript loader's transform would add its own cost to our side of every ratio).
 * A bench module default-exports an async function returning its figures in order; each
 * module runs in a process of its own when more than one is selected.
 * Figures are ratios measured in one run (ours vs a baseline, or large vs small), so they
 * mean the same on any machine; nothing here asserts a time.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export type BenchFigures = ReadonlyArray<readonly [name: string, value: number]>;
export type BenchModule = { default: () => Promise<BenchFigures> };

const here = dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);
const files = readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts') || f.endsWith('.bench.js'))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();

if (files.length > 1) {
  // One process per bench module: what one leaves in the heap (a large old generation, warm
  // caches) would otherwise slow the next one's large samples more than its small ones.
  for (const file of files) {
    const child = spawnSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), file], { stdio: 'inherit' });
    if (child.status !== 0) process.exit(child.status ?? 1);
  }
} else {
  for (const file of files) {
    const mod = (await import(pathToFileURL(join(here, file)).href)) as BenchModule;
    for (const [name, value] of await mod.default()) {
      const shown = Number.isInteger(value) ? String(value) : value.toPrecision(4);
      console.log(`${name} ${shown}`);
    }
  }
}
