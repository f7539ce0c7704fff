/**
 * Model-based tests of the agent machine: every generated path, run against the real machine
 * with controllable actors; the state after every step must be the path's. The runs feed one
 * transition coverage, checked by the last test of the file (vitest runs a file's tests in
 * order), so coverage costs no second replay.
 */
import { describe, expect, it } from 'vitest';
import { agentPaths, type AgentPath } from '../../src/testing/agent-paths.js';
import { agentTransitionCoverage } from '../../src/testing/register.js';
import { runAgentPath } from '../../src/testing/run-agent-path.js';
import { runtimeHost } from './runtime-host.js';

// `npm run mutate` sets AGENT_PATHS_STRATEGY=states (one path per state key) so that each
// mutant runs a few hundred paths rather than every transition's.
const strategy = process.env.AGENT_PATHS_STRATEGY === 'states' ? 'states' : undefined;
const paths = agentPaths(strategy ? { strategy } : {});
const byScenario = new Map<string, AgentPath[]>();
for (const path of paths) byScenario.set(path.scenario, [...(byScenario.get(path.scenario) ?? []), path]);
const coverage = agentTransitionCoverage();
let ran = 0;

describe('agent.machine paths', () => {
  it('generates paths for every scenario', () => {
    expect(byScenario.size).toBe(18);
    for (const list of byScenario.values()) expect(list.length).toBeGreaterThan(0);
  });

  for (const [scenario, list] of byScenario) {
    describe(scenario, () => {
      for (const path of list) {
        it(path.name.slice(scenario.length + 2), async () => {
          // The oracle checks every step against a real runtime, by the states' meta.
          const run = await runAgentPath(path, { inspect: coverage.inspect, ...runtimeHost(path.input) });
          ran++;
          expect(run.states).toEqual(path.steps.map((s) => s.expected));
          const final = path.steps.at(-1)!.expected;
          const ended = final.startsWith('settled') || final.startsWith('cancelled');
          expect(run.reports).toBe(ended ? 1 : 0);
          if (ended) expect(`${run.output?.status}: ${run.output?.stopReason}`).toBe(/\((.*)\)$/.exec(final)?.[1]);
        });
      }
    });
  }

  it('exercised every transition of the agent machine', (ctx) => {
    // The states strategy (`npm run mutate` only) does not aim at every transition.
    if (strategy) ctx.skip();
    // Never skipped otherwise: when a name filter (or a failing path) left paths out, this
    // fails, and says so, unless the paths that did run fired every transition anyway.
    try {
      coverage.assertComplete();
    } catch (error) {
      if (ran === paths.length) throw error;
      throw new Error(`only ${ran} of ${paths.length} generated paths ran (a name filter, or a failing path), so the transition coverage cannot be complete: ${(error as Error).message}`, { cause: error });
    }
    for (const r of coverage.report()) expect(r.covered).toBe(r.total);
  });
});
