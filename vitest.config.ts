import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'node',
    testTimeout: 20_000,
    coverage: {
      provider: 'v8',
      include: ['src/**/*.ts', 'machines/**/*.ts'],
      exclude: ['src/cli/**'],
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
