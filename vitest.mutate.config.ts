import { defineConfig } from 'vitest/config';

/** The tests `npm run mutate` runs against each mutant (stryker.config.mjs): machines, path tests, delivery. */
export default defineConfig({
  test: {
    include: [
      'test/machines/**/*.test.ts',
      // test/testing's harness example runs every path a second time: left out to keep runs tractable.
      'test/testing/run-agent-path.test.ts',
      'test/embedding.test.ts',
      'test/runtime/delivery.test.ts',
      'test/runtime/registry.property.test.ts',
      'test/runtime/cancel.test.ts',
      'test/runtime/messaging.test.ts',
    ],
    environment: 'node',
    // One generated path per state key instead of one per transition (test/machines/agent.paths.test.ts).
    env: { AGENT_PATHS_STRATEGY: 'states' },
    testTimeout: 60_000,
  },
});
