import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'node',
    testTimeout: 20_000,
    // The JSON report lets .ci/run print a plain "N passed, N failed" closing line.
    reporters: ['default', 'json'],
    outputFile: { json: 'coverage/test-results.json' },
    coverage: {
      provider: 'v8',
      include: ['src/**/*.ts', 'machines/**/*.ts'],
      // The viewer's page runs in the browser (its end-to-end tests drive it there); bin.ts is an entry point.
      exclude: ['src/cli/**', 'src/viewer/page/**', 'src/viewer/bin.ts'],
      reporter: ['text-summary', 'json-summary'],
      reportsDirectory: 'coverage',
      thresholds: {
        lines: 95,
        branches: 88,
        'src/dialogue/**': { lines: 95, branches: 95 },
        'src/context/**': { lines: 95, branches: 95 },
      },
    },
  },
});
