/**
 * Three wrong machines that the generated path tests alone cannot catch: their paths are
 * generated from the wrong machine, so every expected state is wrong in the same way and
 * every run matches it. The oracle (state meta checked against a real runtime) must fail
 * each of them, on the generated paths, with no hand-written scenario.
 */
import { createMachine } from 'xstate';
import { describe, expect, it } from 'vitest';
import { agentMachine } from '../../machines/agent.machine.js';
import type { AgentContext, SampleOutput } from '../../machines/agent.types.js';
import { AgentOracleError } from '../../src/testing/agent-oracle.js';
import { agentPaths, type AgentPath } from '../../src/testing/agent-paths.js';
import { agentScenarios } from '../../src/testing/agent-scenarios.js';
import { runAgentPath } from '../../src/testing/run-agent-path.js';
import { runtimeHost } from './runtime-host.js';

type Config = Record<string, unknown> & { states?: Record<string, Config>; on?: Record<string, unknown> };

/** A copy of the machine's config with the node at `path` (state names) replaced by `patch(node)`. */
function patchState(config: Config, path: readonly string[], patch: (node: Config) => Config): Config {
  if (path.length === 0) return patch(config);
  const [name, ...rest] = path;
  const states = config.states ?? {};
  return { ...config, states: { ...states, [name!]: patchState(states[name!]!, rest, patch) } };
}

/** The agent machine with the same implementations and a changed state chart. */
function plantedMachine(patch: (config: Config) => Config): typeof agentMachine {
  const config = patch(agentMachine.config as unknown as Config);
  return createMachine(config as never, agentMachine.implementations as never) as unknown as typeof agentMachine;
}

const defects: ReadonlyArray<{ name: string; machine: typeof agentMachine; caughtAt: RegExp; scenarios?: readonly string[] }> = [
  {
    name: '`close` while idle goes to `cancelled`',
    machine: plantedMachine((c) => patchState(c, ['running', 'idle'], (idle) => ({ ...idle, on: { ...idle.on, close: { target: '#agent.cancelled' } } }))),
    caughtAt: /close: close/,
  },
  {
    name: '`staysOpen` ignores a pending close',
    machine: agentMachine.provide({ guards: { staysOpen: ({ context }: { context: AgentContext }) => context.input.lifetime === 'continuable' } }),
    caughtAt: /a pending close/,
  },
  {
    name: 'the inbox is not answered before going idle',
    machine: agentMachine.provide({
      guards: {
        // The repair request still continues the turn; queued inbox items no longer do.
        turnContinues: ({ context }: { context: AgentContext }, params: { output: SampleOutput }) => params.output.output?.valid === false && !context.repairAsked,
      },
    }),
    caughtAt: /inbox answered/,
  },
  // The oracle's liveness promises (#30.10): each of these survived every path until they were made.
  {
    name: 'a settled subagent stays in its parent',
    machine: plantedMachine((c) => patchState(c, ['settled'], (settled) => ({ ...settled, entry: (settled['entry'] as unknown[]).filter((a) => a !== 'leaveParent') }))),
    caughtAt: /settled subagent leaves its parent/,
    scenarios: ['subagent, no hooks, none, one-shot'],
  },
  {
    name: 'the last allowed request counts as under the cap',
    machine: agentMachine.provide({
      guards: { replyUsesLastStep: ({ context }: { context: AgentContext }) => context.input.maxSteps !== undefined && context.step >= context.input.maxSteps },
    }),
    caughtAt: /step cap/,
    scenarios: ['root, maxSteps 2'],
  },
  {
    name: 'a late inbox item is left queued when the turn ends',
    machine: plantedMachine((c) =>
      patchState(c, ['running', 'working', 'sampling'], (sampling) => {
        const invoke = sampling['invoke'] as { onDone: { guard?: unknown }[] };
        return { ...sampling, invoke: { ...invoke, onDone: invoke.onDone.filter((t) => t.guard !== 'turnContinues' && (t.guard as { type?: string } | undefined)?.type !== 'turnContinues') } };
      }),
    ),
    caughtAt: /queued inbox item/,
    scenarios: ['root'],
  },
];

// The root and a continuable and a one-shot subagent: where closes and inbox items are taken.
const scenarios = agentScenarios().filter((s) => ['root', 'subagent, no hooks, none, continuable', 'subagent, no hooks, none, one-shot'].includes(s.name));

/** Runs paths until the oracle fails one the way `caught` names; the failure, or undefined. */
async function firstCaught(paths: readonly AgentPath[], machine: typeof agentMachine, caught: RegExp): Promise<AgentOracleError | undefined> {
  for (const path of paths) {
    try {
      await runAgentPath(path, { machine, lateResults: false, ...runtimeHost(path.input) });
    } catch (error) {
      if (!(error instanceof AgentOracleError)) throw error;
      if (caught.test(error.mismatch.label)) return error;
    }
  }
  return undefined;
}

describe('planted defects', () => {
  for (const defect of defects) {
    describe(defect.name, () => {
      const chosen = defect.scenarios ? agentScenarios().filter((s) => defect.scenarios!.includes(s.name)) : scenarios;
      const paths = agentPaths({ scenarios: chosen, machine: defect.machine });

      // One test per scenario keeps each test short on a loaded machine.
      it.each(chosen.map((s) => s.name))('passes the self-checking path runs of %s (their expectations come from the same machine)', async (scenario) => {
        for (const path of paths.filter((p) => p.scenario === scenario)) await runAgentPath(path, { machine: defect.machine, lateResults: false });
      });

      it('fails a generated path checked by the oracle', async () => {
        const caught = await firstCaught(paths, defect.machine, defect.caughtAt);
        expect(caught?.message).toMatch(defect.caughtAt);
      });
    });
  }
});
