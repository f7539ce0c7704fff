/**
 * Generated paths through the agent machine: for every scenario (input), paths that take
 * every enabled event in every state, each step labelled and paired with the state key the
 * machine must reach.
 */
import type { AnyMachineSnapshot, AnyStateMachine } from 'xstate';
import { agentMachine } from '../../machines/agent.machine.js';
import type { AgentContext, AgentInput } from '../../machines/agent.types.js';
import { candidateEvents, resolvePayloads, type AgentPathEvent, type AgentPayloads } from './agent-events.js';
import { agentScenarios, type AgentScenario } from './agent-scenarios.js';
import { agentStateKey, type AgentSnapshotLike } from './agent-state.js';
import { machinePaths, type PathStrategy } from './machine-paths.js';

/** One step of an agent path. */
export interface AgentPathStep {
  /** The event delivered: `xstate.init` first, then agent events and actor completions. */
  readonly event: AgentPathEvent | { readonly type: 'xstate.init' };
  /** The payload's name (`final reply`, `hooks deny`, `cancel`, ...). */
  readonly label: string;
  /** The {@link agentStateKey} the agent must be in after the step. */
  readonly expected: string;
}

/** A named path: an input and the steps to take from the initial state. */
export interface AgentPath {
  /** `scenario: label → label → ...`, unique among the generated paths. */
  readonly name: string;
  /** The scenario's name. */
  readonly scenario: string;
  readonly input: AgentInput;
  readonly steps: readonly AgentPathStep[];
}

/** Options of {@link agentPaths}. */
export interface AgentPathsOptions {
  /** Inputs to start from (default {@link agentScenarios}()). */
  readonly scenarios?: readonly AgentScenario[];
  /** Event payloads (default {@link DEFAULT_PAYLOADS}; each given record replaces its default). */
  readonly payloads?: AgentPayloads;
  /** How paths are chosen (default `transitions`: every enabled event in every state). */
  readonly strategy?: PathStrategy;
  /**
   * The machine to traverse (default the agent machine). Pass your `agentMachine.provide(...)`
   * composition when it overrides guards; actors and actions do not change the paths.
   */
  readonly machine?: AnyStateMachine;
}

const asAgent = (snapshot: AnyMachineSnapshot): AgentSnapshotLike & { context: AgentContext } =>
  snapshot as unknown as AgentSnapshotLike & { context: AgentContext };

/**
 * Generates agent paths with `@xstate/graph`. Pure and deterministic for given options: the
 * same paths (names, steps, payloads) every time.
 */
export function agentPaths(options: AgentPathsOptions = {}): AgentPath[] {
  const machine = options.machine ?? agentMachine;
  const payloads = resolvePayloads(options.payloads);
  const scenarios = options.scenarios ?? agentScenarios();
  const out: AgentPath[] = [];
  for (const scenario of scenarios) {
    const labels = new WeakMap<object, string>();
    const paths = machinePaths<AgentPathEvent>(machine, {
      input: scenario.input,
      strategy: options.strategy ?? 'transitions',
      stateKey: (snapshot) => agentStateKey(asAgent(snapshot)),
      eventLabel: (event) => labels.get(event) ?? event.type,
      events: (snapshot) =>
        candidateEvents(asAgent(snapshot).context, payloads).map(({ label, event }) => {
          labels.set(event, label);
          return event;
        }),
    });
    for (const path of paths) {
      const route = path.steps.slice(1).map((s) => s.label);
      out.push({
        name: `${scenario.name}: ${route.length === 0 ? '(initial state)' : route.join(' → ')}`,
        scenario: scenario.name,
        input: scenario.input,
        steps: path.steps,
      });
    }
  }
  return out;
}
