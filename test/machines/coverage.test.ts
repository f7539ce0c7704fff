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

/** Runs a slice of the generated paths of one machine, feeding `inspect`. */
type PathProvider = (inspect: (event: InspectionEvent) => void, slice: number, slices: number) => Promise<number>;

// The replay is split so that no single test needs more than a fraction of the time budget
// on a loaded machine; coverage is asserted once every slice has run.
const SLICES = 8;
const agentMachinePaths = agentPaths();

const providers: Record<string, PathProvider> = {
  'agent.machine': async (inspect, slice, slices) => {
    const size = Math.ceil(agentMachinePaths.length / slices);
    const paths = agentMachinePaths.slice(slice * size, (slice + 1) * size);
    for (const path of paths) await runAgentPath(path, { inspect });
    return paths.length;
  },
};

const machines = await loadMachines(fileURLToPath(new URL('../../machines/', import.meta.url)));

describe('transition coverage', () => {
  const coverage = new TransitionCoverage(machines);

  it('finds the machines', () => {
    expect(machines.map((m) => m.name)).toContain('agent.machine');
  });

  for (let slice = 0; slice < SLICES; slice++) {
    it(`replays slice ${slice + 1}/${SLICES} of every machine's paths`, async () => {
      for (const m of machines) await providers[m.name]?.(coverage.inspect, slice, SLICES);
    });
  }

  it('exercises every transition of every machine', () => {
    const unprovided = machines.filter((m) => !providers[m.name]).map((m) => m.name);
    console.log(coverage.summary());
    expect(unprovided, 'machines without generated paths (add a provider in test/machines/coverage.test.ts)').toEqual([]);
    expect(() => coverage.assertComplete()).not.toThrow();
    for (const r of coverage.report()) expect(r.covered).toBe(r.total);
  });
});
