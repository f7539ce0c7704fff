/**
 * Where an agent keeps its live subagents: in a {@link SubagentSet} its supervisor actor owns
 * (the set is that actor's input, so its snapshot holds it), not in the agent's snapshot's
 * `children`. XState copies `children` on every spawn and every stop, so a parent holding n
 * subagents there pays O(n) per spawn and per settle (O(n²) for a fan-out); here both are
 * O(1), and `children` gains one actor, once. Each subagent is still created with the agent
 * as its XState parent (its done and error events, `sendParent` and the inspector's tree all
 * work as for a spawned child), and its path is its `systemId`.
 *
 * Stopping a parent must still stop its subtree. XState stops only `children` when an actor
 * is stopped, so an agent spawns one {@link superviseSubagents} actor with its first
 * subagent (an agent that never delegates has none): stopping it (the parent was stopped,
 * or it ended) cancels the subagents still held, each of which cancels its own first, so the
 * results arrive children first.
 */
import { createActor, fromCallback, type AnyActorLogic, type AnyActorRef, type EventObject } from 'xstate';
import type { AgentInput, SubagentReportEvent } from './agent.types.js';
import { ChildIds } from './subagent-ids.js';
import { handedOver } from './subagent-reports.js';

/** The id of an agent's subagent supervisor among its XState children. */
export const SUPERVISOR_ID = 'subagents';

/** One agent's live subagents, by path, in spawn order, and the short actor ids it hands out. */
export class SubagentSet {
  private readonly byPath = new Map<string, AnyActorRef>();
  /** Ids this set handed out itself (a spawn event without an `actorId`). */
  private readonly ids = new ChildIds();
  private readonly ownIds = new Set<string>();

  /**
   * Creates (not yet started) a subagent of `parent` running the parent's own logic, with the
   * parent as its XState parent and its path as its system id, and holds it.
   */
  create(parent: AnyActorRef, input: AgentInput, actorId?: string): AnyActorRef {
    const id = actorId ?? this.ids.take();
    if (actorId === undefined) this.ownIds.add(id);
    const logic = (parent as unknown as { logic: AnyActorLogic }).logic;
    const child = createActor(logic, { input, parent, id, systemId: input.path });
    this.byPath.set(input.path, child);
    return child;
  }

  /** Holds an actor created elsewhere (a resumed subagent). */
  hold(path: string, child: AnyActorRef): void {
    this.byPath.set(path, child);
  }

  /** The subagent held at `path`, if any. */
  get(path: string): AnyActorRef | undefined {
    return this.byPath.get(path);
  }

  /** The subagents held, in spawn order. */
  list(): AnyActorRef[] {
    return [...this.byPath.values()];
  }

  /** Lets go of `child` if it is the one held at `path` (and takes back an id this set made). */
  release(child: AnyActorRef, path: string): void {
    if (this.byPath.get(path) !== child) return;
    this.byPath.delete(path);
    if (this.ownIds.delete(child.id)) this.ids.give(child.id);
  }

  /**
   * Cancels every subagent still running, in spawn order. Each one cancels its own subagents
   * before it settles, so the results arrive children first.
   */
  cancelAll(reason: string): void {
    for (const child of this.list()) {
      if (child.getSnapshot().status === 'active') child.send({ type: 'cancel', reason });
    }
  }
}

/** The set `agent`'s supervisor owns, once the agent has spawned one (its snapshot shows it). */
export function subagentSetOf(agent: AnyActorRef | undefined): SubagentSet | undefined {
  const children = (agent?.getSnapshot() as { children?: Record<string, AnyActorRef | undefined> } | undefined)?.children;
  return (children?.[SUPERVISOR_ID]?.getSnapshot() as { input?: SubagentSet } | undefined)?.input;
}

/**
 * Holds an actor created elsewhere (a resumed subagent) as a subagent of `parent`, which must
 * have a supervisor (a restored agent gets one from `restoreAgent`); throws when it has none.
 */
export function holdSubagent(parent: AnyActorRef, path: string, child: AnyActorRef): void {
  const set = subagentSetOf(parent);
  if (!set) throw new Error(`holdSubagent: the parent of ${path} has no subagent supervisor (an agent gets one with its first subagent, a restored agent from restoreAgent)`);
  set.hold(path, child);
}

/** The live subagent of `parent` at `path`, if it holds one. */
export function subagentOf(parent: AnyActorRef, path: string): AnyActorRef | undefined {
  const set = subagentSetOf(parent);
  if (set) return set.get(path);
  // Within the transition that spawns its first subagent, the parent's snapshot does not show
  // the supervisor yet; the new subagent is already registered by its path.
  const child = parent.system.get(path) as AnyActorRef | undefined;
  return child?._parent === parent ? child : undefined;
}

/** The live subagents of `parent`, in spawn order. */
export function subagentsOf(parent: AnyActorRef): AnyActorRef[] {
  return subagentSetOf(parent)?.list() ?? [];
}

/** A settling subagent leaves its parent's set (and gives back an id the set made). */
export function releaseSubagent(child: AnyActorRef, path: string): void {
  subagentSetOf(child._parent)?.release(child, path);
}

/**
 * Cancels every subagent `parent` still holds, in spawn order. Each one cancels its own
 * subagents before it settles, so the results arrive children first.
 */
export function cancelSubagents(parent: AnyActorRef, reason: string): void {
  subagentSetOf(parent)?.cancelAll(reason);
}

/**
 * The actor an agent spawns with its first subagent and keeps for as long as it lives: its
 * input is the agent's {@link SubagentSet}; it does nothing until it is stopped, and then
 * cancels the subagents still in the set (the agent was stopped, or it ended).
 */
export const superviseSubagents = fromCallback<EventObject, SubagentSet>(({ input }) => () => input.cancelAll('its parent agent was stopped'));

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
