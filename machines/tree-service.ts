/**
 * Something every agent of one tree shares (how reports are worded, who issues session ids),
 * held by one small actor registered in the tree's actor system under a fixed system id, so
 * it is found with `system.get(id)` and lives exactly as long as the tree: no table keyed by
 * actors or systems. The actor is created with an agent of the tree as its XState parent
 * (the only public way to join a system) and never ends; it is not among its parent's
 * `children`, so it is not part of any snapshot.
 */
import { createActor, fromTransition, type AnyActorRef } from 'xstate';

/** An agent tree's actor system. */
export type TreeSystem = AnyActorRef['system'];

/** The one event a tree service takes: its value is replaced. */
interface Replace<T> {
  readonly type: 'replace';
  readonly value: T;
}

/** The value a service holds, replaced by each `replace` event. */
function serviceLogic<T>() {
  return fromTransition<T, Replace<T>, TreeSystem, T>((value, event) => (event.type === 'replace' ? event.value : value), ({ input }) => input);
}

/** The value of the tree service registered as `id` in `system`, if there is one. */
export function treeService<T>(system: TreeSystem, id: string): T | undefined {
  const ref = system.get(id) as AnyActorRef | undefined;
  return ref === undefined ? undefined : (ref.getSnapshot() as { context: T }).context;
}

/** Sets the value of the tree service `id` of `agent`'s tree (registering it the first time). */
export function setTreeService<T>(agent: AnyActorRef, id: string, value: T): void {
  const existing = agent.system.get(id) as AnyActorRef | undefined;
  if (existing) existing.send({ type: 'replace', value });
  else createActor(serviceLogic<T>(), { parent: agent, systemId: id, input: value }).start();
}

/** The tree service `id` of `agent`'s tree, made with `create` the first time it is asked for. */
export function treeServiceOf<T>(agent: AnyActorRef, id: string, create: () => T): T {
  const existing = treeService<T>(agent.system, id);
  if (existing !== undefined) return existing;
  const value = create();
  setTreeService(agent, id, value);
  return value;
}
