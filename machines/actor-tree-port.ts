/**
 * The {@link CoordinationPort} of a tree of agent actors that no runtime hosts (the machine
 * embedding, `delegatingAgent`): the directory is the actor tree itself, read from the agents'
 * snapshots and their state meta; effects are events sent to the agents.
 */
import type { AnyActorRef } from 'xstate';
import type { MessagingPolicy } from '../src/policy/messaging.js';
import { stateValueString } from '../src/text/state-value.js';
import { mergeStateMeta, type AgentStateMeta } from './agent.meta.js';
import type { AgentContext, AgentEvent } from './agent.types.js';
import type { CoordinationPort, DirectoryEntry, StoppedAgent } from './coordination.js';
import { agentAt, subagentsOf } from './subagents.js';
import type { EndedAgents } from './ended-agents.js';

interface AgentSnapshot {
  readonly status: string;
  readonly value: unknown;
  readonly context: AgentContext;
  getMeta(): Record<string, AgentStateMeta | undefined>;
}

const snapshotOf = (actor: AnyActorRef): AgentSnapshot => actor.getSnapshot() as AgentSnapshot;

function entryOf(actor: AnyActorRef): DirectoryEntry {
  const snapshot = snapshotOf(actor);
  const { input } = snapshot.context;
  return {
    path: input.path,
    role: input.role,
    state: stateValueString(snapshot.value),
    context: input.contextLabel,
    lastTask: input.task,
    addressable: mergeStateMeta(snapshot.getMeta()).addressable === true,
  };
}

/** The top of the tree `agent` belongs to (its XState ancestors end there). */
function rootOf(agent: AnyActorRef): AnyActorRef {
  let top = agent;
  while (top._parent && (top._parent.getSnapshot() as { context?: { input?: unknown } }).context?.input !== undefined) top = top._parent;
  return top;
}

/** What a harness adds to an actor tree's port. */
export interface ActorTreePortOptions {
  /** Who may message whom (default: the family scope). */
  readonly messaging?: MessagingPolicy;
  /** Told what a cancellation will stop (children first) before the first agent stops (traces). */
  readonly beforeCancel?: (target: string, stopped: readonly StoppedAgent[]) => void;
  /** How agents whose actors are gone ended, while the harness remembers them. */
  readonly endings?: Pick<EndedAgents, 'of'> | undefined;
}

/**
 * The port for the agent `agent`'s tree. `send` sends the agent an event from the step that
 * runs its calls (a message goes out from the sender's actor, which relays it).
 *
 * @example
 * ```ts
 * const port = actorTreePort(step.agent, step.send);
 * coordinationCall(port, '/root', 'c1', { tool: 'list_agents', args: {} });
 * ```
 */
export function actorTreePort(agent: AnyActorRef, send: (event: AgentEvent) => void, options: ActorTreePortOptions = {}): CoordinationPort {
  const { messaging, beforeCancel, endings } = options;
  const live = (path: string): AnyActorRef | undefined => {
    const actor = agentAt(agent, path);
    return actor && actor.getSnapshot().status === 'active' ? actor : undefined;
  };
  function* walk(actor: AnyActorRef): Generator<AnyActorRef> {
    if (actor.getSnapshot().status !== 'active') return;
    yield actor;
    for (const child of subagentsOf(actor)) yield* walk(child);
  }
  return {
    messaging,
    halted: () => undefined,
    entry: (path) => {
      const actor = live(path);
      return actor ? entryOf(actor) : undefined;
    },
    // A settled agent's actor has left the tree by the time a call can ask: only the record knows.
    ended: (path) => endings?.of(path),
    agents: function* () {
      for (const actor of walk(rootOf(agent))) yield entryOf(actor);
    },
    deliver: (from, to, message) => send({ type: 'send_message', from, to, message }),
    cancel: (path, reason) => {
      const target = live(path);
      if (!target) return [];
      const stopped: StoppedAgent[] = [];
      const visit = (actor: AnyActorRef): void => {
        if (actor.getSnapshot().status !== 'active') return;
        for (const child of subagentsOf(actor)) visit(child);
        const entry = entryOf(actor);
        stopped.push({ path: entry.path, state: entry.state });
      };
      visit(target);
      beforeCancel?.(path, stopped);
      // The target cancels its subagents first as it enters `cancelled`: children first.
      target.send({ type: 'cancel', reason });
      return stopped;
    },
    close: (path) => live(path)?.send({ type: 'close' }),
  };
}
