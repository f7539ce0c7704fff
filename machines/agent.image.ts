/**
 * Restoring an agent from its image: what a journal knows about one agent, in words that do not
 * depend on how the machine names its states or its invoked actors.
 *
 * The image says which {@link AgentPhase} the agent was in, its dialogue, its inbox, its
 * counters and the work it had pending. {@link restoreAgent} turns it into an actor of any
 * machine whose states carry `meta.phase` (the agent machine, or a copy of it with other
 * names): the phase is found in the machine's own state meta, and the actors that state
 * invokes are taken from the machine's own invoke definitions, so renaming a state or an
 * invoked actor breaks no image.
 */
import { createActor, type Actor, type ActorOptions, type AnyActorLogic, type AnyStateMachine, type Snapshot, type StateValue } from 'xstate';
import type { Dialogue } from '../src/dialogue/dialogue.js';
import type { ToolCall, UserOrigin } from '../src/dialogue/entry.js';
import type { Usage } from '../src/request/usage.js';
import { initialAgentContext } from './agent.machine.js';
import type { AgentPhase, AgentStateMeta } from './agent.meta.js';
import type { AgentContext, AgentInput, InboxItem, InboxQueue, ToolStepInput } from './agent.types.js';
import { SubagentSet, SUPERVISOR_ID } from './subagents.js';

/** The image format {@link restoreAgent} reads. A newer image is refused, never guessed at. */
export const AGENT_IMAGE_VERSION = 1;

/** What an agent had counted when its image was taken. */
export interface AgentCounters {
  /** Model requests made in the turn in progress. */
  readonly step: number;
  /** What the agent itself has spent. */
  readonly usage: Usage;
  /** Turns finished. */
  readonly turns: number;
  /** A close was requested while a turn ran (the agent settles when it ends). */
  readonly closeRequested: boolean;
  /**
   * The agent has made its first report. A caller-delivered subagent's first report answers
   * the `Agent` call that started it; every later one is a notice.
   */
  readonly firstReportMade: boolean;
}

/**
 * One agent as a journal left it, independent of the machine's state names and actor ids.
 *
 * @example
 * ```ts
 * const image: AgentImage = {
 *   version: AGENT_IMAGE_VERSION,
 *   phase: 'idle',
 *   dialogue,
 *   inbox: [],
 *   counters: { step: 0, usage: ZERO_USAGE, turns: 1, closeRequested: false, firstReportMade: true },
 *   acceptedTask: 'Summarize the notes.',
 *   background: undefined,
 *   turnOpenedBy: { kind: 'task', from: '/root' },
 *   rerun: [],
 * };
 * const actor = restoreAgent(logic, image, { input, systemId: input.path }).start();
 * ```
 */
export interface AgentImage {
  readonly version: typeof AGENT_IMAGE_VERSION;
  readonly phase: AgentPhase;
  /** The whole dialogue: the seed it was spawned with, then its own entries. */
  readonly dialogue: Dialogue;
  /** Inbox items queued while it worked that have not joined its dialogue, oldest first. */
  readonly inbox: readonly InboxItem[];
  readonly counters: AgentCounters;
  /** The task its hooks accepted (or its task, when none ran); null for the root. */
  readonly acceptedTask: string | null;
  /** The background a summary subagent was given, if any. */
  readonly background: string | undefined;
  /** What opened the turn in progress (or the last one). */
  readonly turnOpenedBy: UserOrigin | undefined;
  /**
   * Pending work that runs again: in `running_tools`, the calls of the step that are started
   * again (the host answers the other pending calls itself, after the actor starts). In
   * `waiting_on_model` the model request is always sent again; other phases have none.
   */
  readonly rerun: readonly ToolCall[];
}

/** Why an image cannot be restored. */
export type RestoreErrorCode = 'unknown_image_version' | 'not_restorable' | 'phase_not_in_machine';

/** An image that cannot become an actor of this machine (nothing was created). */
export class RestoreError extends Error {
  override readonly name = 'RestoreError';
  constructor(
    readonly code: RestoreErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** How a phase comes back. */
type Comeback =
  /** Started again from its input (journaled hook outcomes and backgrounds are the host's to replay). */
  | 'from-input'
  /** In the state whose `meta.phase` names it, with the image's context and the state's invoked actors. */
  | 'in-state'
  /** Not an actor: a settled agent is its result. */
  | 'settled';

/** The one table from phases to the machine's states: how each phase comes back. */
export const PHASE_COMEBACK: Readonly<Record<AgentPhase, Comeback>> = Object.freeze({
  reserved: 'from-input',
  preparing_summary: 'from-input',
  waiting_on_model: 'in-state',
  running_tools: 'in-state',
  idle: 'in-state',
  settled: 'settled',
});

/** The state node type as far as a restore reads it (public `StateNode` fields). */
interface StateNodeLike {
  readonly type: string;
  readonly path: readonly string[];
  readonly meta?: unknown;
  readonly states: Readonly<Record<string, StateNodeLike>>;
  readonly invoke: ReadonlyArray<{ readonly id: string; readonly src: AnyActorLogic | string; readonly systemId: string | undefined; readonly input?: unknown }>;
}

/**
 * The atomic state of `machine` that each phase is restored into: the one whose own or inherited
 * `meta.phase` names it. Throws `phase_not_in_machine` when `phase` has no state, or several.
 */
export function statePathOfPhase(machine: AnyStateMachine, phase: AgentPhase): StateNodeLike[] {
  const found: StateNodeLike[][] = [];
  const walk = (node: StateNodeLike, chain: StateNodeLike[], inherited: AgentPhase | undefined): void => {
    const own = (node.meta as AgentStateMeta | undefined)?.phase ?? inherited;
    const here = [...chain, node];
    if (node.type === 'atomic' && own === phase) found.push(here);
    for (const child of Object.values(node.states)) walk(child, here, own);
  };
  walk(machine.root as unknown as StateNodeLike, [], undefined);
  if (found.length !== 1) {
    throw new RestoreError('phase_not_in_machine', `the machine has ${found.length === 0 ? 'no state' : `${found.length} states`} whose meta names the phase "${phase}" (exactly one is restored into)`);
  }
  return found[0]!;
}

/** Options of {@link restoreAgent}: the actor's options, with the input the agent was created with. */
export type RestoreOptions = Omit<ActorOptions<AnyActorLogic>, 'snapshot' | 'input'> & { readonly input: AgentInput };

/**
 * Turns an agent's image into an actor of `logic` (not started): a reserved agent or one
 * preparing its summary starts again from its input; one waiting on the model, running tools
 * or idle comes back in the state whose `meta.phase` names its phase, with its dialogue, inbox
 * and counters, and the actors that state invokes (the model request is sent again, the
 * image's `rerun` calls run again). Refuses a settled image and an unknown version with a
 * {@link RestoreError}.
 *
 * @example
 * ```ts
 * const actor = restoreAgent(agentMachine.provide({ actors }), image, { input, systemId: input.path });
 * actor.start();
 * ```
 */
export function restoreAgent(logic: AnyStateMachine, image: AgentImage, options: RestoreOptions): Actor<AnyStateMachine> {
  if (image.version !== AGENT_IMAGE_VERSION) {
    throw new RestoreError('unknown_image_version', `agent image version ${String(image.version)} is not one this version restores (it restores version ${AGENT_IMAGE_VERSION})`);
  }
  const comeback = PHASE_COMEBACK[image.phase];
  if (comeback === undefined) throw new RestoreError('not_restorable', `agent image phase ${JSON.stringify(image.phase)} is not a phase`);
  if (comeback === 'settled') throw new RestoreError('not_restorable', `${options.input.path} is settled: its result is what remains, not an actor`);
  if (comeback === 'from-input') return createActor(logic, options);
  const chain = statePathOfPhase(logic, image.phase);
  const context = restoredContext(options.input, image);
  const resolved = logic.resolveState({ value: valueOf(chain.at(-1)!.path), context: {} });
  // A persisted snapshot of the state, as XState restores one: the machine's own value for the
  // phase's state, the image's context, and the children that state invokes.
  const snapshot: Snapshot<unknown> = Object.assign({}, logic.getPersistedSnapshot(resolved), { context, children: childrenOf(logic, chain, context, image) });
  return createActor(logic, { ...options, snapshot });
}

/**
 * The context an agent in this image has: its input's initial context with the image's facts
 * (what {@link restoreAgent} restores; a host settling the image instead takes its result from it).
 */
export function restoredContext(input: AgentInput, image: AgentImage): AgentContext {
  let inbox = null as InboxQueue;
  for (const item of image.inbox) inbox = { item, next: inbox, size: (inbox?.size ?? 0) + 1 };
  const { counters } = image;
  return {
    ...initialAgentContext(input),
    acceptedTask: image.acceptedTask,
    background: image.background,
    dialogue: image.dialogue,
    inbox,
    step: counters.step,
    usage: counters.usage,
    lastText: lastTextOf(image.dialogue),
    closeRequested: counters.closeRequested,
    turnsCompleted: counters.turns,
    turnOpenedBy: image.turnOpenedBy,
    firstReportMade: counters.firstReportMade,
  };
}

/** The text of the last reply (what a turn report or a result says). */
function lastTextOf(dialogue: Dialogue): string {
  const last = dialogue.at(dialogue.lastAssistantPosition());
  return last?.kind === 'assistant' ? last.text : '';
}

/** `['running', 'idle']` → `{ running: 'idle' }`. */
function valueOf(path: readonly string[]): StateValue {
  let value: StateValue = path.at(-1)!;
  for (let i = path.length - 2; i >= 0; i--) value = { [path[i]!]: value };
  return value;
}

/** The machine's name for the subagent supervisor's logic. */
const SUPERVISOR_SRC = 'superviseSubagents';

/**
 * The persisted children of the restored state: every actor its chain of states invokes, with
 * the input the machine's own definition gives it (a state whose work is tools gets the
 * image's `rerun` calls instead, and is left out when none run again).
 */
function childrenOf(logic: AnyStateMachine, chain: readonly StateNodeLike[], context: AgentContext, image: AgentImage): Record<string, unknown> {
  const children: Record<string, unknown> = {};
  for (const node of chain) {
    for (const invoke of node.invoke) {
      // The agent machine's input mappers read the context only.
      let input = typeof invoke.input === 'function' ? (invoke.input as (args: { context: AgentContext }) => unknown)({ context }) : invoke.input;
      if ((node.meta as AgentStateMeta | undefined)?.works === 'tools') {
        if (image.rerun.length === 0) continue;
        input = { ...(input as ToolStepInput), calls: image.rerun } satisfies ToolStepInput;
      }
      // XState names inline logic by a generated key that only it resolves: a restored actor's
      // logic is one the machine provides by name (`setup({ actors })`, `provide`).
      const childLogic = logic.implementations.actors[String(invoke.src)];
      if (!childLogic) throw new RestoreError('phase_not_in_machine', `the machine provides no actor "${String(invoke.src)}" for the ${image.phase} state (restored actors are named in setup({ actors }) or provide, never inline)`);
      // The child's own initial snapshot, as its logic builds it, started again by the restore.
      const snapshot = createActor(childLogic as AnyActorLogic, { input }).getPersistedSnapshot();
      children[invoke.id] = { src: invoke.src, snapshot, systemId: invoke.systemId };
    }
  }
  // A restored agent gets its subagent supervisor back (with an empty set): the host holds
  // the agent's restored subagents in it, so stopping the agent cancels them.
  const supervisor = logic.implementations.actors[SUPERVISOR_SRC];
  if (supervisor) children[SUPERVISOR_ID] = { src: SUPERVISOR_SRC, snapshot: createActor(supervisor as AnyActorLogic, { input: new SubagentSet() }).getPersistedSnapshot() };
  return children;
}

/**
 * The phase a snapshot of the agent machine is in, read from its states' `meta` (the innermost
 * state that names one wins): what the journal records instead of a state name.
 *
 * @example
 * ```ts
 * actor.subscribe((snapshot) => journal.observed(path, snapshot.context, agentPhaseOf(snapshot)));
 * ```
 */
export function agentPhaseOf(snapshot: { getMeta(): Record<string, unknown> }): AgentPhase {
  let phase: AgentPhase = 'reserved';
  let depth = -1;
  for (const [id, meta] of Object.entries(snapshot.getMeta())) {
    const named = (meta as AgentStateMeta | undefined)?.phase;
    if (named === undefined) continue;
    const d = id.split('.').length;
    if (d > depth) {
      depth = d;
      phase = named;
    }
  }
  return phase;
}
