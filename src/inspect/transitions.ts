/**
 * Every transition a machine defines, read from its state nodes: `on` handlers, eventless
 * (`always`) transitions, invoke `onDone`/`onError`, delayed ones. Each guarded branch is its
 * own transition, so a coverage check sees every branch a guard can select.
 */
import type { AnyStateMachine, AnyStateNode, AnyTransitionDefinition } from 'xstate';

/** One transition a machine defines. */
export interface MachineTransition {
  /** Stable identity: source node id, event type (`always` for eventless) and branch index. */
  readonly key: string;
  /** Id of the machine the transition belongs to. */
  readonly machine: string;
  /** Source state, relative to the machine (`reserved.admitting`; the machine id for the root). */
  readonly source: string;
  /** Event type; `always` for eventless transitions. */
  readonly event: string;
  /** The guard, by name (`and(a, b)` for combinators); undefined when unguarded. */
  readonly guard: string | undefined;
  /** Target states, relative to the machine; empty for a targetless (actions-only) transition. */
  readonly targets: readonly string[];
  /** `source --event [guard]--> target`. */
  readonly description: string;
}

/** The event name of eventless transitions in keys and descriptions. */
export const ALWAYS = 'always';

/** Every state node of a machine, the root first, in document order. */
export function stateNodesOf(machine: AnyStateMachine): AnyStateNode[] {
  const nodes: AnyStateNode[] = [];
  const visit = (node: AnyStateNode): void => {
    nodes.push(node);
    for (const child of Object.values(node.states) as AnyStateNode[]) visit(child);
  };
  visit(machine.root);
  return nodes;
}

/** A state node's id relative to its machine (`running.idle`); the machine id for the root. */
export function relativeId(node: AnyStateNode): string {
  return node.path.length === 0 ? node.machine.id : node.path.join('.');
}

/** A guard's readable name: `isRoot`, `hookDenied`, `and(allToolResultsIn, stepLimitReached)`. */
export function describeGuard(guard: unknown): string | undefined {
  if (guard === undefined || guard === null) return undefined;
  if (typeof guard === 'string') return guard;
  if (typeof guard === 'function') {
    const parts = (guard as { guards?: unknown }).guards;
    const name = guard.name || 'inline';
    if (Array.isArray(parts)) return `${name}(${parts.map((g) => describeGuard(g) ?? '?').join(', ')})`;
    if (parts !== undefined) return `${name}(${describeGuard(parts) ?? '?'})`;
    return name;
  }
  if (typeof guard === 'object' && 'type' in guard && typeof guard.type === 'string') return guard.type;
  return 'inline';
}

/** The branches defined for `eventType` on `node` (the `always` list for eventless ones). */
function branchesOf(node: AnyStateNode, eventType: string): readonly AnyTransitionDefinition[] {
  if (eventType === '' || eventType === ALWAYS) return node.always ?? [];
  return node.transitions.get(eventType) ?? [];
}

/**
 * The stable key of a transition definition: the same for a machine and any `provide()`d
 * copy of it, so transitions fired by a runtime's machine match the pristine definition.
 */
export function transitionKey(transition: AnyTransitionDefinition): string {
  const eventType = String(transition.eventType);
  const eventless = eventType === '' && (transition.source.always ?? []).includes(transition);
  const event = eventless ? ALWAYS : eventType;
  const index = branchesOf(transition.source, event).indexOf(transition);
  return `${transition.source.machine.id}|${transition.source.id}|${event}|${index}`;
}

/** Describes one transition definition. */
export function describeTransition(transition: AnyTransitionDefinition): MachineTransition {
  const eventType = String(transition.eventType);
  const eventless = eventType === '' && (transition.source.always ?? []).includes(transition);
  const event = eventless ? ALWAYS : eventType;
  const source = relativeId(transition.source);
  const guard = describeGuard(transition.guard);
  const targets = (transition.target ?? []).map((t) => relativeId(t));
  const label = guard === undefined ? event : `${event} [${guard}]`;
  const target = targets.length === 0 ? '(no target: actions only)' : targets.join(', ');
  return {
    key: transitionKey(transition),
    machine: transition.source.machine.id,
    source,
    event,
    guard,
    targets,
    description: `${source} --${label}--> ${target}`,
  };
}

/** Every transition `machine` defines, in document order (state by state, branch by branch). */
export function machineTransitions(machine: AnyStateMachine): MachineTransition[] {
  const out: MachineTransition[] = [];
  for (const node of stateNodesOf(machine)) {
    for (const branches of node.transitions.values()) for (const t of branches) out.push(describeTransition(t));
    for (const t of node.always ?? []) out.push(describeTransition(t));
  }
  return out;
}
