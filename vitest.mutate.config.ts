import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { defineConfig } from 'vitest/config';

/**
 * The slow files, run last: Stryker stops a mutant's run at its first failing test (bail), so
 * a mutant the quick behaviour tests kill never waits for the path runs or the property test.
 * A surviving mutant still runs every test that covers it.
 */
const SLOW = ['test/machines/agent.paths.test.ts', 'test/machines/planted-defects.test.ts', 'test/testing/run-agent-path.test.ts', 'test/runtime/registry.property.test.ts'];

class QuickFirst extends BaseSequencer {
  override sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification): number => SLOW.findIndex((slow) => file.moduleId.endsWith(slow));
    return Promise.resolve([...files].sort((a, b) => rank(a) - rank(b)));
  }
}

/** The tests `npm run mutate` runs against each mutant (stryker.config.mjs): machines, path tests, embedding, the runtime, the store's halt and journal tests, traced runtimes. */
export default defineConfig({
  test: {
    include: [
      'test/machines/**/*.test.ts',
      // test/testing's harness example runs one scenario's paths with its own payloads: left out, as before.
      'test/testing/run-agent-path.test.ts',
      'test/embedding.test.ts',
      // The coordination scenarios run against both hosts (about 0.3 s): every answer of the
      // coordination tools and the actor tree's port, byte for byte.
      'test/protocol/scenario-table.test.ts',
      // All of the runtime's tests: the registry and the core's delivery methods are mutated too,
      // and a mutant there runs only the tests that cover it.
      'test/runtime/**/*.test.ts',
      // The lifecycle's halting and journaling run only with a store: the quick store and resume
      // tests that reach them (about 0.7 s together; the crash and Postgres ones are left out).
      'test/store/halt-settles.test.ts',
      'test/store/journal-limits.test.ts',
      'test/store/journal-facts.test.ts',
      'test/durable/guarantees.test.ts',
      // The lifecycle's spans (start, end, halt, cancellation) are reached only by a traced
      // runtime: the quick otel tests that run one (about 0.8 s together).
      'test/otel/runtime-events.test.ts',
      'test/otel/delegating-trace.test.ts',
      'test/otel/delegating-trace-content.test.ts',
      'test/otel/provider-spans.test.ts',
      'test/otel/sdk-trace-base.test.ts',
      // The leak checks (about 0.6 s): what a finished or abandoned agent must let go of
      // (accounts, result waiters, busy entries) is seen only in the runtime's footprint.
      'test/adversarial/memory.test.ts',
    ],
    environment: 'node',
    // One generated path per state key instead of one per transition (test/machines/agent.paths.test.ts).
    env: { AGENT_PATHS_STRATEGY: 'states' },
    // Its slowest test takes about 2 s; a mutant that leaves a test waiting fails it quickly.
    testTimeout: 15_000,
    sequence: { sequencer: QuickFirst },
  },
});
