/**
 * Test paths of any machine, generated with `@xstate/graph` (which, unlike `createTestModel`,
 * handles machines with `invoke`). States are identified by a caller-given key without
 * volatile context, and only events that enable a transition in a state are tried there.
 */
import type * as Graph from '@xstate/graph';
import type { AnyMachineSnapshot, AnyStateMachine, EventObject } from 'xstate';

// `@xstate/graph` is an optional peer: loading it here (not with a static import) keeps the
// rest of this entry, the scripted model and the clocks, usable without it.
const graph: typeof Graph | undefined = await import('@xstate/graph').catch((error: unknown) => {
  if ((error as { code?: unknown }).code === 'ERR_MODULE_NOT_FOUND') return undefined;
  throw error;
});

/**
 * How paths are chosen:
 * - `transitions` (default): one shortest path to every (state, event) edge, then every path
 *   that is a prefix of another dropped; so every enabled event is taken in every state;
 * - `states`: one shortest path to every state key;
 * - `simple`: every simple path (no state key repeats) to every state; can be large.
 */
export type PathStrategy = 'transitions' | 'states' | 'simple';

/** Options of {@link machinePaths}. */
export interface MachinePathsOptions<TEvent extends EventObject> {
  /** The machine's input. */
  readonly input: unknown;
  /** Candidate events in a state; only those that enable a transition there are used. */
  readonly events: (snapshot: AnyMachineSnapshot) => readonly TEvent[];
  /** The state key: state value plus the context fields guards read (nothing volatile). */
  readonly stateKey: (snapshot: AnyMachineSnapshot) => string;
  /** A short, unique name of an event (events with equal labels are one edge). */
  readonly eventLabel: (event: TEvent) => string;
  readonly strategy?: PathStrategy;
}

/** One step of a path: the event to deliver, its label, and the state key expected after it. */
export interface MachinePathStep<TEvent extends EventObject> {
  readonly event: TEvent | { readonly type: 'xstate.init' };
  readonly label: string;
  readonly expected: string;
}

/** A path from the initial state: the first step is `xstate.init`. */
export interface MachinePath<TEvent extends EventObject> {
  readonly steps: readonly MachinePathStep<TEvent>[];
}

type GraphStep = { readonly state: AnyMachineSnapshot; readonly event: EventObject };

/** Paths through `machine` from its initial state for `options.input`. */
export function machinePaths<TEvent extends EventObject>(machine: AnyStateMachine, options: MachinePathsOptions<TEvent>): MachinePath<TEvent>[] {
  const { stateKey, eventLabel } = options;
  const strategy = options.strategy ?? 'transitions';
  const label = (event: EventObject): string => (event.type === 'xstate.init' ? 'xstate.init' : eventLabel(event as TEvent));
  const enabled = (snapshot: AnyMachineSnapshot): TEvent[] =>
    options.events(snapshot).filter((event) => machine.getTransitionData(snapshot, event).length > 0);
  // `transitions` makes every edge a vertex: the key names the state, where it came from and how.
  const serializeState =
    strategy === 'transitions'
      ? (snapshot: AnyMachineSnapshot, event: EventObject | undefined, prev?: AnyMachineSnapshot) =>
          event === undefined || prev === undefined ? stateKey(snapshot) : `${stateKey(snapshot)} <= ${stateKey(prev)} | ${label(event)}`
      : (snapshot: AnyMachineSnapshot) => stateKey(snapshot);
  const traversal = {
    input: options.input,
    events: enabled,
    serializeState,
    serializeEvent: label,
    stopWhen: (snapshot: AnyMachineSnapshot) => snapshot.status !== 'active',
  };
  if (graph === undefined) throw new Error('machinePaths needs the optional peer dependency @xstate/graph (npm i -D @xstate/graph)');
  const generate = strategy === 'simple' ? graph.getSimplePaths : graph.getShortestPaths;
  const raw = generate(machine, traversal as unknown as Parameters<typeof graph.getShortestPaths>[1]) as unknown as Array<{ steps: GraphStep[] }>;
  const paths = raw.map(
    (path): MachinePath<TEvent> => ({
      steps: path.steps.map((step) => ({ event: step.event as TEvent, label: label(step.event), expected: stateKey(step.state) })),
    }),
  );
  return strategy === 'transitions' ? dropPrefixes(paths) : paths;
}

/** Removes every path whose steps are a prefix of another path's. */
function dropPrefixes<TEvent extends EventObject>(paths: MachinePath<TEvent>[]): MachinePath<TEvent>[] {
  const signature = (path: MachinePath<TEvent>): string => path.steps.map((s) => `${s.label}\u0000`).join('');
  const signatures = paths.map(signature);
  const sorted = [...signatures].sort();
  const isPrefix = (sig: string): boolean => {
    // In sorted order, a string's extensions directly follow it.
    const at = sorted.indexOf(sig);
    for (let i = at + 1; i < sorted.length && sorted[i]!.startsWith(sig); i++) if (sorted[i] !== sig) return true;
    return false;
  };
  const seen = new Set<string>();
  return paths.filter((_, i) => {
    const sig = signatures[i]!;
    if (seen.has(sig) || isPrefix(sig)) return false;
    seen.add(sig);
    return true;
  });
}
