// @ts-check
/**
 * Mutation testing (`npm run mutate`, not part of `npm test`): the agent machine and the
 * runtime's registry, reports and delivery, against the tests that exercise them
 * (vitest.mutate.config.ts). The score is recorded in docs/path-tests.md.
 */
import { readFileSync } from 'node:fs';

/**
 * `file:from-to` covering the methods of `file` from `first` up to (not including) `next`:
 * the delivery part of the runtime core, found by name so edits elsewhere do not shift it.
 */
function methods(file, first, next) {
  const lines = readFileSync(new URL(file, import.meta.url), 'utf8').split('\n');
  const at = (name) => lines.findIndex((line) => new RegExp(`^  (async )?${name}[<(]`).test(line));
  const from = at(first);
  const to = at(next);
  if (from < 0 || to <= from) throw new Error(`stryker.config.mjs: cannot find ${first}..${next} in ${file}`);
  // Include the doc comment above `first`; end before the one above `next`.
  return `${file}:${from + 1}-${to}`;
}

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  plugins: ['@stryker-mutator/vitest-runner'],
  vitest: { configFile: 'vitest.mutate.config.ts', related: false },
  mutate: [
    'machines/**/*.ts',
    '!machines/index.ts',
    'src/runtime/registry.ts',
    // (machines/subagent-reports.ts is covered by machines/**)
    // The directory; the lifecycle (publishing, exactly-once delivery, turn reports,
    // cancellation, halting) and quiet tracking; routing (messages, notices, hand-over).
    'src/runtime/directory.ts',
    'src/runtime/lifecycle.ts',
    'src/runtime/quiet.ts',
    methods('src/runtime/router.ts', 'handOverToHost', 'hostRuns'),
  ],
  // Module-level code (the machine's config object) runs once per process: mutants there
  // would need a fresh process per mutant. The planted-defect tests cover wrong transitions.
  ignoreStatic: true,
  coverageAnalysis: 'perTest',
  concurrency: 2,
  // The mutate suite's slowest test takes about 2 s: a mutant that silences a report (a test
  // waiting forever) is caught in seconds instead of a minute.
  timeoutMS: 15_000,
  reporters: ['clear-text', 'progress', 'json'],
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
  // Reruns test only the mutants whose code or tests changed (reports/stryker-incremental.json).
  incremental: true,
  thresholds: { high: 90, low: 85, break: null },
};
