/**
 * Fails when any transition of any machine in `machines/` is never exercised by its
 * generated paths. A new machine file fails here until it has a path provider below.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { InspectionEvent } from 'xstate';
import { loadMachines } from '../../src/inspect/machine-modules.js';
import { agentPaths } from '../../src/testing/agent-paths.js';
import { TransitionCoverage } from '../../src/testing/coverage.js';
import { runAgentPath } from '../../src/testing/run-agent-path.js';

/** Runs every generated path of one machine, feeding `inspect`. */
type PathProvider = (inspect: (event: InspectionEvent) => void) => Promise<number>;

const providers: Record<string, PathProvider> = {
  'agent.machine': async (inspect) => {
    const paths = agentPaths();
    for (const path of paths) await runAgentPath(path, { inspect });
    return paths.length;
  },
};

const machines = await loadMachines(fileURLToPath(new URL('../../machines/', import.meta.url)));

describe('transition coverage', () => {
  it('finds the machines', () => {
    expect(machines.map((m) => m.name)).toContain('agent.machine');
  });

  it('exercises every transition of every machine', async () => {
    const coverage = new TransitionCoverage(machines);
    const unprovided = machines.filter((m) => !providers[m.name]).map((m) => m.name);
    for (const m of machines) await providers[m.name]?.(coverage.inspect);
    console.log(coverage.summary());
    expect(unprovided, 'machines without generated paths (add a provider in test/machines/coverage.test.ts)').toEqual([]);
    expect(() => coverage.assertComplete()).not.toThrow();
    for (const r of coverage.report()) expect(r.covered).toBe(r.total);
  });
});
