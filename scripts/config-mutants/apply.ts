/**
 * Configuration mutants of the agent machine (issue #30.10). Stryker leaves the machine's
 * configuration alone (`ignoreStatic`), so these realistic mistakes are listed by hand in
 * mutants.json and applied to a copy of `agentMachine.config`: a target moved to a sibling, a
 * guard swapped, a transition or an action removed, an event renamed, `reenter` flipped, a
 * final state made non-final.
 *
 * A transition is addressed by its state's path, where it sits (`on:<event>`, `always`,
 * `done:<invoke id>`, `error:<invoke id>`) and its guard's name (`-` for none), never by
 * position, so the list survives small edits of the machine; a mutant whose target is gone is
 * skipped and reported, not applied somewhere else.
 */
import { and, createMachine, not, or } from 'xstate';
import type { agentMachine } from '../../machines/agent.machine.js';

/** One mutant, as mutants.json lists it. */
export interface ConfigMutant {
  readonly id: string;
  readonly kind: 'retarget' | 'swapGuard' | 'dropTransition' | 'dropAction' | 'renameEvent' | 'flipReenter' | 'notFinal';
  /** The state's path, dot-separated (`running.working.sampling`; empty for the machine itself). */
  readonly state: string;
  /** Where the transition sits: `on:<event>`, `always`, `done:<invoke id>`, `error:<invoke id>`; `entry` or `exit` for dropAction of a state's action. */
  readonly at?: string;
  /** The transition's guard, by name (`and(a,b)`, `not(a)`, `-` for none). */
  readonly guard?: string;
  /** retarget: the new target. */
  readonly to?: string;
  /** swapGuard: the guard name replaced (`from`) and its replacement (`with`). */
  readonly from?: string;
  readonly with?: string;
  /** dropAction: the action's name. */
  readonly action?: string;
  /** renameEvent: the new event name. */
  readonly event?: string;
  /** What the mistake would do, for the report. */
  readonly note?: string;
}

type Node = Record<string, unknown> & { states?: Record<string, Node> };
type Transition = Record<string, unknown> & { guard?: unknown; target?: unknown; actions?: unknown; reenter?: boolean };

/** Thrown when a mutant's target no longer exists in the configuration. */
export class MissingTarget extends Error {}

/** A guard's name: `isRoot`, `and(a,b)`, `not(a)`; `-` for none. */
export function guardName(guard: unknown): string {
  if (guard === undefined) return '-';
  if (typeof guard === 'string') return guard;
  if (typeof guard === 'function') {
    const inner = (guard as { guards?: unknown[] }).guards ?? [];
    return `${guard.name}(${inner.map(guardName).join(',')})`;
  }
  if (typeof guard === 'object' && guard !== null && typeof (guard as { type?: unknown }).type === 'string') return (guard as { type: string }).type;
  return '?';
}

/** The guard with every use of the guard named `from` replaced by `to`. */
function swapGuard(guard: unknown, from: string, to: string): unknown {
  if (typeof guard === 'string') return guard === from ? to : guard;
  if (typeof guard === 'function') {
    const inner = ((guard as { guards?: unknown[] }).guards ?? []).map((g) => swapGuard(g, from, to));
    if (guard.name === 'and') return and(inner as never);
    if (guard.name === 'or') return or(inner as never);
    if (guard.name === 'not') return not(inner[0] as never);
    return guard;
  }
  if (typeof guard === 'object' && guard !== null && (guard as { type?: unknown }).type === from) return { ...guard, type: to };
  return guard;
}

const asList = <T>(value: T | readonly T[] | undefined): T[] => (value === undefined ? [] : Array.isArray(value) ? [...(value as T[])] : [value as T]);
const asTransition = (t: unknown): Transition => (typeof t === 'string' ? { target: t } : (t as Transition));
const actionName = (a: unknown): string => (typeof a === 'string' ? a : typeof a === 'object' && a !== null ? String((a as { type?: unknown }).type) : typeof a === 'function' ? a.name : '?');

/** A copy of `node` with the state at `path` replaced by `patch(state)`. */
function patchState(node: Node, path: readonly string[], patch: (state: Node) => Node): Node {
  if (path.length === 0) return patch(node);
  const [name, ...rest] = path;
  const child = node.states?.[name!];
  if (!child) throw new MissingTarget(`no state "${name}"`);
  return { ...node, states: { ...node.states, [name!]: patchState(child, rest, patch) } };
}

/** A copy of the state with the transition list at `at` replaced by `patch(list)`. */
function patchList(state: Node, at: string, patch: (list: Transition[]) => Transition[]): Node {
  const [where, name] = at.split(/:(.*)/s) as [string, string | undefined];
  if (where === 'on') {
    const on = (state['on'] ?? {}) as Record<string, unknown>;
    if (name === undefined || !Object.hasOwn(on, name)) throw new MissingTarget(`no transition on "${name}"`);
    return { ...state, on: { ...on, [name]: patch(asList(on[name]).map(asTransition)) } };
  }
  if (where === 'always') {
    if (state['always'] === undefined) throw new MissingTarget('no eventless transition');
    return { ...state, always: patch(asList(state['always']).map(asTransition)) };
  }
  if (where === 'done' || where === 'error') {
    const key = where === 'done' ? 'onDone' : 'onError';
    const invokes = asList(state['invoke'] as unknown) as Record<string, unknown>[];
    const index = invokes.findIndex((inv) => inv['id'] === name);
    if (index < 0 || invokes[index]![key] === undefined) throw new MissingTarget(`no ${key} of invoke "${name}"`);
    const copy = [...invokes];
    copy[index] = { ...invokes[index], [key]: patch(asList(invokes[index]![key]).map(asTransition)) };
    return { ...state, invoke: Array.isArray(state['invoke']) ? copy : copy[0] };
  }
  throw new MissingTarget(`unknown place "${at}"`);
}

/** Replaces the one transition whose guard is named `guard` with `patch(it)` (or removes it when patch returns undefined). */
function patchTransition(list: Transition[], guard: string, patch: (t: Transition) => Transition | undefined): Transition[] {
  const index = list.findIndex((t) => guardName(t.guard) === guard);
  if (index < 0) throw new MissingTarget(`no transition guarded by ${guard} (guards: ${list.map((t) => guardName(t.guard)).join(', ')})`);
  const out = [...list];
  const patched = patch(list[index]!);
  if (patched === undefined) out.splice(index, 1);
  else out[index] = patched;
  return out;
}

/** The configuration with `mutant` applied; throws {@link MissingTarget} when its target is gone. */
export function applyMutant(config: object, mutant: ConfigMutant): object {
  const path = mutant.state === '' ? [] : mutant.state.split('.');
  const needs = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new MissingTarget(`mutant ${mutant.id} names no ${what}`);
    return value;
  };
  const onTransition = (patch: (t: Transition) => Transition | undefined) =>
    patchState(config as Node, path, (state) => patchList(state, needs(mutant.at, 'place'), (list) => patchTransition(list, mutant.guard ?? '-', patch)));
  switch (mutant.kind) {
    case 'retarget':
      return onTransition((t) => ({ ...t, target: needs(mutant.to, 'target') }));
    case 'swapGuard':
      return onTransition((t) => {
        const from = needs(mutant.from, 'guard to replace');
        if (!guardName(t.guard).match(new RegExp(`(^|[(,])${from}([),]|$)`))) throw new MissingTarget(`guard ${guardName(t.guard)} does not use ${from}`);
        return { ...t, guard: swapGuard(t.guard, from, needs(mutant.with, 'replacement guard')) };
      });
    case 'dropTransition':
      return onTransition(() => undefined);
    case 'flipReenter':
      return onTransition((t) => ({ ...t, reenter: t.reenter !== true }));
    case 'dropAction': {
      const action = needs(mutant.action, 'action');
      const drop = (list: unknown): unknown[] => {
        const actions = asList(list);
        const kept = actions.filter((a) => actionName(a) !== action);
        if (kept.length === actions.length) throw new MissingTarget(`no action ${action}`);
        return kept;
      };
      if (mutant.at === 'entry' || mutant.at === 'exit') {
        const where = mutant.at;
        return patchState(config as Node, path, (state) => ({ ...state, [where]: drop(state[where]) }));
      }
      return onTransition((t) => ({ ...t, actions: drop(t.actions) }));
    }
    case 'renameEvent':
      return patchState(config as Node, path, (state) => {
        const name = needs(mutant.at, 'event').replace(/^on:/, '');
        const on = (state['on'] ?? {}) as Record<string, unknown>;
        if (!Object.hasOwn(on, name)) throw new MissingTarget(`no transition on "${name}"`);
        const { [name]: moved, ...rest } = on;
        return { ...state, on: { ...rest, [needs(mutant.event, 'new event name')]: moved } };
      });
    case 'notFinal':
      return patchState(config as Node, path, (state) => {
        if (state['type'] !== 'final') throw new MissingTarget(`${mutant.state} is not final`);
        const { type: _final, ...rest } = state;
        return rest;
      });
  }
}

/** The agent machine with the same implementations and the mutated configuration. */
export function mutatedMachine(machine: typeof agentMachine, mutant: ConfigMutant): typeof agentMachine {
  return createMachine(applyMutant(machine.config, mutant) as never, machine.implementations as never) as unknown as typeof agentMachine;
}
