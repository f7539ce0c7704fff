// @ts-check
/**
 * A scoped mutation run (`npm run mutate:lifecycle`): the runtime's lifecycle and directory
 * against the runtime's tests (vitest.mutate.lifecycle.config.ts). One runner, so it fits on
 * two cores shared with other work. The score is recorded in docs/path-tests.md.
 */
import base from './stryker.config.mjs';

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  ...base,
  vitest: { configFile: 'vitest.mutate.lifecycle.config.ts', related: false },
  mutate: ['src/runtime/lifecycle.ts', 'src/runtime/directory.ts'],
  concurrency: 1,
  timeoutMS: 10_000,
  jsonReporter: { fileName: 'reports/mutation/lifecycle.json' },
  incrementalFile: 'reports/stryker-incremental-lifecycle.json',
};
