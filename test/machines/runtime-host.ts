/**
 * A real runtime around one path's agent, for the oracle: the agent's path is reserved (or,
 * for the root, registered) in the runtime's registry, the actor the path runner creates is
 * that record's actor, and the runtime's own actions (publish, release and deliver, report a
 * turn) are provided to it. The oracle then reads only what the runtime exposes: `list()`,
 * `list_agents`' view, `slotsInUse`, `result`/`turn` events and what reached the parent.
 */
import { createActor, setup, type AnyActorRef } from 'xstate';
import { agentMachine } from '../../machines/agent.machine.js';
import { listFor } from '../../machines/coordination.js';
import { subagentOf } from '../../machines/subagents.js';
import type { AgentEvent, AgentInput, AgentResult, TurnReport } from '../../machines/agent.types.js';
import { RuntimeCore } from '../../src/runtime/core.js';
import { agentCoreBuilders } from '../../src/runtime/agent-logic.js';
import type { AgentRecord } from '../../src/runtime/registry.js';
import { runtimeOf } from '../../src/runtime/runtime.js';
import type { Runtime } from '../../src/runtime/types.js';
import type { AgentOracleHost } from '../../src/testing/agent-oracle.js';
import { agentOracle } from '../../src/testing/agent-oracle.js';
import type { AgentImplementations, AgentPathObserver } from '../../src/testing/run-agent-path.js';

/** A model the runtime never calls here: the path runner answers every request itself. */
const unusedModel = {
  name: 'unused',
  sample: (): never => {
    throw new Error('the path runner answers model requests');
  },
};

/**
 * The runtime's side-effecting actions: the ones it provides in place of the machine's
 * placeholders (so a planted defect in the machine's own actions stays planted).
 */
function runtimeActions(core: RuntimeCore): NonNullable<AgentImplementations>['actions'] {
  const own = agentMachine.implementations.actions as Record<string, unknown>;
  const provided = core.logic.implementations.actions as Record<string, unknown>;
  return Object.fromEntries(Object.entries(provided).filter(([name, action]) => own[name] !== action)) as NonNullable<AgentImplementations>['actions'];
}

/** One runtime per scenario input: building a runtime (its agent logic above all) costs more than a path run. */
interface Session {
  readonly core: RuntimeCore;
  readonly runtime: Runtime;
  readonly actions: NonNullable<AgentImplementations>['actions'];
  /** What the current path's run delivered: results and turns of the agent, notices to its parent. */
  current: { results: AgentResult[]; turns: TurnReport[]; atParent: AgentEvent[] };
}
const sessions = new WeakMap<AgentInput, Session>();

function sessionFor(input: AgentInput): Session {
  const known = sessions.get(input);
  if (known) return known;
  const core = new RuntimeCore({ model: unusedModel, now: () => 0 }, agentCoreBuilders);
  const session: Session = { core, runtime: runtimeOf(core), actions: runtimeActions(core), current: { results: [], turns: [], atParent: [] } };
  session.runtime.on('result', (r) => void (r.path === input.path && session.current.results.push(r)));
  session.runtime.on('turn', (t) => void (t.path === input.path && session.current.turns.push(t)));
  if (input.parentPath !== null) {
    const parent = core.registry.addRoot(input.parentPath, 0);
    // What the agent sends its parent: runAgentPath holds the agent under a parent of its own,
    // as a spawning agent would, and passes each event on to this one.
    parent.actor = createActor(
      setup({ actions: { keep: ({ event }) => void session.current.atParent.push(event as AgentEvent) } }).createMachine({ on: { '*': { actions: 'keep' } } }),
    ).start();
  }
  sessions.set(input, session);
  return session;
}

/**
 * The oracle's view of a runtime holding `input`'s agent, and what to run the path with. The
 * agent's path is held afresh for each run (whatever an earlier run left is undone first).
 */
export function runtimeHost(input: AgentInput): { provide: AgentImplementations; observer: AgentPathObserver; parent?: AnyActorRef } {
  const session = sessionFor(input);
  const { core, runtime, actions } = session;
  const current: Session['current'] = { results: [], turns: [], atParent: [] };
  session.current = current;
  core.lifecycle.abandon(input.path);
  let record: AgentRecord;
  if (input.parentPath === null) record = core.registry.addRoot(input.path, 0);
  else {
    record = core.registry.reserve({
      parentPath: input.parentPath,
      name: input.path.slice(input.parentPath.length + 1),
      role: input.role,
      contextLabel: input.contextLabel,
      delivery: input.delivery,
      lifetime: input.lifetime,
      task: input.task ?? '',
      now: 0,
    });
  }
  core.openAccount(input.path, null, input.model);
  // A peer allowed to message the agent under the default scope: its parent, or the root's child.
  const viewer = input.parentPath ?? `${input.path}/peer`;

  const host: AgentOracleHost = {
    listedState: () => runtime.list().find((a) => a.path === input.path)?.state,
    addressable: () => listFor(core.coordination, viewer).some((a) => a.path === input.path),
    slotsInUse: () => runtime.slotsInUse,
    results: () => current.results,
    turns: () => current.turns,
    ...(input.parentPath === null
      ? {}
      : {
          resultsAtParent: () =>
            current.atParent.filter((e) => e.type === 'subagent.report' && e.report.kind === 'result' && e.report.result.path === input.path).length,
          heldByParent: () => {
            const parent = record.actor?._parent;
            return parent !== undefined && subagentOf(parent, input.path) !== undefined;
          },
        }),
  };
  const oracle = agentOracle(input, host);
  return {
    provide: { actions },
    ...(input.parentPath === null ? {} : { parent: core.registry.get(input.parentPath)?.actor }),
    observer: {
      created: (actor) => {
        record.actor = actor;
      },
      ...(oracle.step ? { step: oracle.step } : {}),
    },
  };
}
