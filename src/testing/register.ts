/**
 * Registers generated paths with any test framework whose `it`/`test` takes a name and an
 * async function (vitest, jest, node:test), without importing one.
 */
import { agentMachine } from '../../machines/agent.machine.js';
import type { AgentPath } from './agent-paths.js';
import { TransitionCoverage } from './coverage.js';
import { runAgentPath, type RunAgentPathOptions } from './run-agent-path.js';

/** A test registration function: vitest's or jest's `it`, or `node:test`'s `test`. */
export type RegisterTest = (name: string, fn: () => Promise<void>) => unknown;

/** Registers one test per path; each runs its path and throws on any mismatch. */
export function testAgentPaths(register: RegisterTest, paths: readonly AgentPath[], options: RunAgentPathOptions = {}): void {
  for (const path of paths) {
    register(path.name, async () => {
      await runAgentPath(path, options);
    });
  }
}

/** A {@link TransitionCoverage} of the agent machine, named `agent.machine`. */
export function agentTransitionCoverage(): TransitionCoverage {
  return new TransitionCoverage([{ name: 'agent.machine', machine: agentMachine }]);
}
