import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { defineConfig } from 'vitest/config';

/** The slow files last: a run stops at its first failure (bail), so a mutant the quick tests kill never waits for them. */
const SLOW = ['test/machines/agent.paths.test.ts', 'test/machines/planted-defects.test.ts', 'test/testing/run-agent-path.test.ts', 'test/runtime/registry.property.test.ts'];

class QuickFirst extends BaseSequencer {
  override sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification): number => SLOW.findIndex((slow) => file.moduleId.endsWith(slow));
    return Promise.resolve([...files].sort((a, b) => rank(a) - rank(b)));
  }
}

/**
 * The tests each configuration mutant runs (`npm run mutate:config`, scripts/config-mutants/run.ts):
 * the machine's, the path tests, the protocol table, the embedding and the runtime's. The
 * setup file swaps in the mutated machine named by CONFIG_MUTANT.
 */
export default defineConfig({
  test: {
    include: ['test/machines/**/*.test.ts', 'test/testing/run-agent-path.test.ts', 'test/embedding.test.ts', 'test/protocol/**/*.test.ts', 'test/runtime/**/*.test.ts'],
    setupFiles: ['scripts/config-mutants/setup.ts'],
    environment: 'node',
    testTimeout: 20_000,
    sequence: { sequencer: QuickFirst },
  },
});
