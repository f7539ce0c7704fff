/**
 * Where an agent keeps its live subagents: beside its actor, not in its snapshot's
 * `children`. XState copies `children` on every spawn and every stop, so a parent holding
 * n subagents there pays O(n) per spawn and per settle (O(n²) for a fan-out); here both are
 * O(1). Each subagent is still created with the agent as its XState parent (its done and
 * error events, `sendParent` and the inspector's tree all work as for a spawned child), and
 * its path is its `systemId`.
 *
 * Stopping a parent must still stop its subtree. XState stops only `children` when an actor
 * is stopped, so every agent invokes one {@link superviseSubagents} actor: stopping it (the
 * parent was stopped, or it ended) cancels the subagents still held, each of which cancels
 * its own first, so the results arrive children first.
 */
import { createActor, fromCallback, type AnyActorLogic, type AnyActorRef } from 'xstate';
import type { AgentInput, SubagentReportEvent } from './agent.types.js';
import { ChildIds } from './subagent-ids.js';
import { handedOver } from './subagent-reports.js';

/** One agent's live subagents, by path, in spawn order. */
interface Held {
  readonly byPath: Map<string, AnyActorRef>;
  /** Ids this holder handed out itself (a spawn event without an `actorId`). */
  readonly ids: ChildIds;
  readonly ownIds: Set<string>;
}

const holders = new WeakMap<AnyActorRef, Held>();

function heldBy(parent: AnyActorRef): Held {
  let held = holders.get(parent);
  if (!held) {
    held = { byPath: new Map(), ids: new ChildIds(), ownIds: new Set() };
    holders.set(parent, held);
  }
  return held;
}

/**
 * Creates (not yet started) a subagent of `parent` running the parent's own logic, with the
 * parent as its XState parent and its path as its system id, and holds it.
 */
export function createSubagent(parent: AnyActorRef, input: AgentInput, actorId?: string): AnyActorRef {
  const held = heldBy(parent);
  const id = actorId ?? held.ids.take();
  if (actorId === undefined) held.ownIds.add(id);
  const logic = (parent as unknown as { logic: AnyActorLogic }).logic;
  const child = createActor(logic, { input, parent, id, systemId: input.path });
  held.byPath.set(input.path, child);
  return child;
}

/** Holds an actor created elsewhere (a resumed subagent) as a subagent of `parent`. */
export function holdSubagent(parent: AnyActorRef, path: string, child: AnyActorRef): void {
  heldBy(parent).byPath.set(path, child);
}

/** The live subagent of `parent` at `path`, if it holds one. */
export function subagentOf(parent: AnyActorRef, path: string): AnyActorRef | undefined {
  return holders.get(parent)?.byPath.get(path);
}

/** The live subagents of `parent`, in spawn order. */
export function subagentsOf(parent: AnyActorRef): AnyActorRef[] {
  const held = holders.get(parent);
  return held ? [...held.byPath.values()] : [];
}

/** A settling subagent leaves its parent's holder (and gives back an id the holder made). */
export function releaseSubagent(child: AnyActorRef, path: string): void {
  const parent = child._parent;
  const held = parent ? holders.get(parent) : undefined;
  if (!held || held.byPath.get(path) !== child) return;
  held.byPath.delete(path);
  if (held.ownIds.delete(child.id)) held.ids.give(child.id);
}

/**
 * Cancels every subagent `parent` still holds, in spawn order. Each one cancels its own
 * subagents before it settles, so the results arrive children first.
 */
export function cancelSubagents(parent: AnyActorRef, reason: string): void {
  for (const child of subagentsOf(parent)) {
    if (child.getSnapshot().status === 'active') child.send({ type: 'cancel', reason });
  }
}

/**
 * The actor every agent invokes for as long as it lives: it does nothing until it is
 * stopped, and then cancels the subagents its agent still holds (the agent was stopped, or
 * it ended). It holds no state of its own, so a restored agent can restore it as it is.
 */
export const superviseSubagents = fromCallback(({ self }) => {
  const agent = self._parent;
  return () => {
    if (agent) cancelSubagents(agent, 'its parent agent was stopped');
  };
});

/**
 * Sends an agent's report to its parent's actor a microtask later (the event says who sent
 * it: `from` is the reporting agent's path). A microtask later: the agent's own new state
 * reaches its observers (the journal) before its parent holds the report, and a cascade that
 * cancels the parent right after the child reaches the parent first, which then takes nothing.
 * Delivered with the parent's public `send`: outside a transition, XState offers no public
 * delivery that names a source actor.
 */
export function relayToParent(child: AnyActorRef, event: SubagentReportEvent): void {
  const parent = child._parent;
  if (!parent) return;
  queueMicrotask(() => {
    if (handedOver(child.system, event)) return;
    if (parent.getSnapshot().status !== 'active') return;
    parent.send(event);
  });
}

/**
 * The live agent at `path` as seen from `agent`: any agent of the tree registered by its path
 * (every subagent is), or one of `agent`'s ancestors (a root started without a system id).
 */
export function agentAt(agent: AnyActorRef, path: string): AnyActorRef | undefined {
  const registered = agent.system.get(path) as AnyActorRef | undefined;
  if (registered) return registered;
  for (let up: AnyActorRef | undefined = agent; up; up = up._parent) {
    if ((up.getSnapshot() as { context?: { input?: { path?: unknown } } }).context?.input?.path === path) return up;
  }
  return undefined;
}
