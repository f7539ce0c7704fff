/**
 * Every machine in `machines/` must have a path suite, `test/machines/<name>.paths.test.ts`,
 * that runs its generated paths and fails when any of its transitions never fired. The
 * coverage is collected inside those suites, path by path, so no single test replays every
 * path under one time limit.
 *
 * That a suite fails is checked by running it: selected by name, its coverage test runs
 * without a single path before it, so no transition fires and the test must fail with the
 * coverage error. Text that merely mentions `.assertComplete()`, a check skipped under a
 * name filter, or a test that asserts something else all pass that run and fail here.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadMachines } from '../../src/inspect/machine-modules.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const machines = await loadMachines(fileURLToPath(new URL('../../machines/', import.meta.url)));
// `agent.machine` → `agent.paths.test.ts`.
const suiteOf = (name: string): URL => new URL(`./${name.replace(/\.machine(:.*)?$/, '')}.paths.test.ts`, import.meta.url);
/** The name every path suite gives its coverage test. */
const COVERAGE_TEST = 'exercised every transition';

interface AssertionResult {
  readonly fullName: string;
  readonly status: string;
  readonly failureMessages: readonly string[];
}

/** Runs one suite's tests whose name contains `pattern`, in a child vitest; their results. */
function runSelected(suite: string, pattern: string): AssertionResult[] {
  const dir = mkdtempSync(join(tmpdir(), 'coverage-suite-'));
  try {
    const out = join(dir, 'results.json');
    // The child must not inherit this run's vitest state nor the mutation runs' strategy.
    const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('VITEST') && key !== 'AGENT_PATHS_STRATEGY'));
    spawnSync(process.execPath, [join(root, 'node_modules/vitest/vitest.mjs'), 'run', suite, '-t', pattern, '--reporter=json', `--outputFile.json=${out}`, '--coverage.enabled=false'], { cwd: root, env, encoding: 'utf8' });
    const results = JSON.parse(readFileSync(out, 'utf8')) as { testResults: { assertionResults: AssertionResult[] }[] };
    return results.testResults.flatMap((file) => file.assertionResults).filter((test) => test.status !== 'pending' && test.status !== 'skipped');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('transition coverage', () => {
  it('finds the machines', () => {
    expect(machines.map((m) => m.name)).toContain('agent.machine');
  });

  it('gives every machine a path suite', () => {
    const missing = machines.filter((m) => !existsSync(suiteOf(m.name))).map((m) => m.name);
    expect(missing, 'machines without test/machines/<name>.paths.test.ts').toEqual([]);
  });

  // `npm run mutate` runs the suites with the states strategy, which aims at no coverage.
  it.skipIf(process.env.AGENT_PATHS_STRATEGY === 'states')(
    `each path suite has a test named "${COVERAGE_TEST} ..." that fails when transitions never fired`,
    () => {
      for (const m of machines) {
        const suite = fileURLToPath(suiteOf(m.name));
        const ran = runSelected(suite, COVERAGE_TEST);
        expect(ran.length, `${m.name}: tests named "${COVERAGE_TEST}" that ran in ${suite}`).toBeGreaterThan(0);
        for (const test of ran) {
          expect(test.status, `${test.fullName} passed with no path run`).toBe('failed');
          expect(test.failureMessages.join('\n'), `${test.fullName} failed for another reason than the coverage`).toMatch(/\d+\/\d+ transitions; never exercised/);
        }
      }
    },
    120_000,
  );
});
