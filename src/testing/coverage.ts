/**
 * Transition coverage: which transitions of which machines really fired, collected from
 * XState's `@xstate.microstep` inspection events, against every transition the machines
 * define. A suite uses it to fail when any transition is never exercised.
 */
import type { AnyStateMachine, AnyTransitionDefinition, InspectionEvent } from 'xstate';
import { machineTransitions, transitionKey, type MachineTransition } from '../inspect/transitions.js';

/** The coverage of one machine. */
export interface MachineCoverage {
  /** The name the machine was registered under (e.g. `agent.machine`). */
  readonly name: string;
  readonly total: number;
  readonly covered: number;
  /** Transitions that never fired, in definition order. */
  readonly missing: readonly MachineTransition[];
}

/** A machine to measure, under a display name. */
export interface CoverageTarget {
  readonly name: string;
  readonly machine: AnyStateMachine;
}

/** Thrown by {@link TransitionCoverage.assertComplete} when a transition never fired. */
export class TransitionCoverageError extends Error {
  constructor(
    message: string,
    readonly report: readonly MachineCoverage[],
  ) {
    super(message);
    this.name = 'TransitionCoverageError';
  }
}

/**
 * Collects fired transitions. Pass {@link TransitionCoverage.inspect} as (or call it from) an
 * actor's `inspect` observer; every actor running one of the registered machines (or a
 * `provide()`d copy) counts, children included.
 */
export class TransitionCoverage {
  readonly #targets: ReadonlyArray<{ readonly name: string; readonly machineId: string; readonly transitions: readonly MachineTransition[] }>;
  readonly #fired = new Set<string>();

  constructor(targets: readonly CoverageTarget[]) {
    this.#targets = targets.map(({ name, machine }) => ({ name, machineId: machine.id, transitions: machineTransitions(machine) }));
  }

  /** An inspection listener recording the transitions of every microstep. */
  readonly inspect = (event: InspectionEvent): void => {
    if (event.type === '@xstate.microstep') this.record(event._transitions);
  };

  /** Records transitions that fired. */
  record(transitions: readonly AnyTransitionDefinition[]): void {
    for (const t of transitions) this.#fired.add(transitionKey(t));
  }

  /** Whether the transition with this key has fired. */
  has(key: string): boolean {
    return this.#fired.has(key);
  }

  /** Coverage per registered machine. */
  report(): MachineCoverage[] {
    return this.#targets.map(({ name, transitions }) => {
      const missing = transitions.filter((t) => !this.#fired.has(t.key));
      return { name, total: transitions.length, covered: transitions.length - missing.length, missing };
    });
  }

  /** One line per machine: e.g. `agent.machine: 26/26 transitions`. */
  summary(): string {
    return this.report()
      .map((r) => `${r.name}: ${r.covered}/${r.total} transitions`)
      .join('\n');
  }

  /** Throws a {@link TransitionCoverageError} listing every transition that never fired. */
  assertComplete(): void {
    const report = this.report();
    const incomplete = report.filter((r) => r.missing.length > 0);
    if (incomplete.length === 0) return;
    const lines = incomplete.flatMap((r) => [`${r.name}: ${r.covered}/${r.total} transitions; never exercised:`, ...r.missing.map((t) => `  ${t.description}`)]);
    throw new TransitionCoverageError(lines.join('\n'), report);
  }
}
