/**
 * Every machine in `machines/` must have a path suite, `test/machines/<name>.paths.test.ts`,
 * that runs its generated paths and fails when any of its transitions never fired. The
 * coverage is collected inside those suites, path by path, so no single test replays every
 * path under one time limit.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadMachines } from '../../src/inspect/machine-modules.js';

const machines = await loadMachines(fileURLToPath(new URL('../../machines/', import.meta.url)));
// `agent.machine` → `agent.paths.test.ts`.
const suiteOf = (name: string): URL => new URL(`./${name.replace(/\.machine(:.*)?$/, '')}.paths.test.ts`, import.meta.url);

describe('transition coverage', () => {
  it('finds the machines', () => {
    expect(machines.map((m) => m.name)).toContain('agent.machine');
  });

  it('gives every machine a path suite that asserts complete transition coverage', () => {
    const missing = machines.filter((m) => !existsSync(suiteOf(m.name))).map((m) => m.name);
    expect(missing, 'machines without test/machines/<name>.paths.test.ts').toEqual([]);
    for (const m of machines) {
      const text = readFileSync(suiteOf(m.name), 'utf8');
      expect(text, `${m.name}.paths.test.ts must assert its TransitionCoverage`).toMatch(/\.assertComplete\(\)/);
    }
  });
});
