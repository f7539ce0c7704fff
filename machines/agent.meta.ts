/**
 * What each state of the agent machine promises a host can see, written once beside the
 * machine as state `meta`. The path tests' oracle checks every step of every generated path
 * against the runtime (its listing, slots, results, requests and tool calls) using these
 * promises, never the machine's own transitions, so a wrong transition cannot vouch for
 * itself. A state's meta is merged with its ancestors' (the innermost value wins).
 */
import type { AgentStatus } from './agent.types.js';

/** The one side effect a state waits on: task hooks, a summary, a model request or a step's tool calls. */
export type AgentWork = 'hooks' | 'summary' | 'model' | 'tools';

/**
 * Where an agent is in its life, in words that do not depend on how the machine names its
 * states: the journal records phases, and restoring an agent maps a phase back to the state
 * whose meta names it (machines/agent.image.ts).
 */
export type AgentPhase = 'reserved' | 'preparing_summary' | 'waiting_on_model' | 'running_tools' | 'idle' | 'settled';

/** Every phase, in the order an agent passes them. */
export const AGENT_PHASES: readonly AgentPhase[] = Object.freeze(['reserved', 'preparing_summary', 'waiting_on_model', 'running_tools', 'idle', 'settled']);

/** What a `close` does in a state. */
export type CloseMeaning =
  /** The agent ends at once, `completed` with stop reason `closed`. */
  | 'settles-closed'
  /**
   * The agent finishes its turn and then ends: a turn that completes is its last (it settles
   * `closed` instead of reporting the turn and waiting for input).
   */
  | 'after-turn';

/** What an inbox item does in a state. */
export type InboxMeaning =
  /** The item opens a turn: a model request that contains it starts at once. */
  | 'opens-turn'
  /** The item waits (no request starts now) and is answered before the turn ends `completed`. */
  | 'queued';

/**
 * The `meta` of an agent machine state. Every stable state (one the agent can wait in) must
 * end up with every field except the event meanings set, through its own meta or an ancestor's.
 *
 * @example
 * ```ts
 * idle: {
 *   meta: { waitsForInput: true, works: null, close: 'settles-closed', inbox: 'opens-turn' },
 * }
 * ```
 */
export interface AgentStateMeta {
  /** The phase the state belongs to (what the journal records, and a restore maps back). */
  readonly phase?: AgentPhase;
  /** `runtime.list()` shows the agent (its path is held, reserved or published). */
  readonly listed?: boolean;
  /** Published: `list_agents` shows it and `send_message` reaches it. */
  readonly addressable?: boolean;
  /** It counts in `runtime.slotsInUse` (a subagent's slot; the root never takes one). */
  readonly holdsSlot?: boolean;
  /** Its one result has been delivered (exactly once; never before a final state). */
  readonly settles?: boolean;
  /** The statuses that result may have. */
  readonly statuses?: readonly AgentStatus[];
  /** The side effect in flight: exactly one of it runs, and nothing else does; `null` for none. */
  readonly works?: AgentWork | null;
  /** No turn is in progress: the agent waits for an inbox item. */
  readonly waitsForInput?: boolean;
  /** What `close` does here (absent: the agent takes no `close` here). */
  readonly close?: CloseMeaning;
  /** What an inbox item, or a `send_message` addressed to the agent, does here (absent: it takes none here). */
  readonly inbox?: InboxMeaning;
  /** What `cancel` does here: the agent ends `cancelled` at once. */
  readonly cancel?: 'cancels';
}

/** The fields every stable state must have, after merging. */
export const REQUIRED_STATE_META = ['phase', 'listed', 'addressable', 'holdsSlot', 'settles', 'works', 'waitsForInput'] as const satisfies readonly (keyof AgentStateMeta)[];

/**
 * Merges a snapshot's `getMeta()` (keyed by state node id, outermost first) into the meta of
 * its current state: inner states override their ancestors.
 */
export function mergeStateMeta(byNode: Readonly<Record<string, AgentStateMeta | undefined>>): AgentStateMeta {
  const ids = Object.keys(byNode).sort((a, b) => a.split('.').length - b.split('.').length);
  let merged: AgentStateMeta = {};
  for (const id of ids) merged = { ...merged, ...byNode[id] };
  return merged;
}
