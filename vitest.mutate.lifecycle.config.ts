import { defineConfig } from 'vitest/config';

/**
 * The tests a scoped mutation run of the runtime's lifecycle and directory runs against each
 * mutant (`npm run mutate:lifecycle`): the runtime's tests, embedding, and the halt tests of a
 * file store. A longer test timeout than vitest.mutate.config.ts: the run shares two cores.
 */
export default defineConfig({
  test: {
    include: ['test/runtime/**/*.test.ts', 'test/embedding.test.ts', 'test/store/halt-settles.test.ts', 'test/store/journal-limits.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
  },
});
