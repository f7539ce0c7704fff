/**
 * Runs a generated agent path against the real agent machine: the machine's side-effecting
 * actors are replaced by controllable stand-ins (unless the caller provides them), each step
 * is delivered the way it really arrives (an actor settling, a tool sending its result back,
 * an outside event), and the state after every step is compared with the path's.
 */
import { createActor, type AnyActorRef, type AnyMachineSnapshot, type EventObject, type InspectionEvent } from 'xstate';
import { agentMachine } from '../../machines/agent.machine.js';
import { holdSubagent } from '../../machines/subagents.js';
import type { AgentEvent, AgentResult, ToolStepInput } from '../../machines/agent.types.js';
import type { AgentPath, AgentPathStep } from './agent-paths.js';
import { agentStateKey, type AgentSnapshotLike } from './agent-state.js';
import { afterMicrotasks } from './deferred.js';
import { PathMismatchError } from './path-error.js';
import { startPathParent } from './path-parent.js';
import { StandIns, type Invocation, type SpawnedChild } from './stand-ins.js';
import { stateNodesOf } from '../inspect/transitions.js';

/** Implementations for the agent machine, as `agentMachine.provide` takes them. */
export type AgentImplementations = Parameters<typeof agentMachine.provide>[0];

/** Options of {@link runAgentPath}. */
export interface RunAgentPathOptions {
  /**
   * Your implementations: actions (`publishInDirectory`, `releaseAndReport`, `reportTurn`),
   * guards, and actors. An actor you provide runs for real and the run waits for the event it
   * produces; every other side-effecting actor is a stand-in the runner drives.
   */
  readonly provide?: AgentImplementations;
  /** Sees every inspection event of the run (e.g. a {@link TransitionCoverage}'s `inspect`). */
  readonly inspect?: (event: InspectionEvent) => void;
  /**
   * When the path ends in a final state, settle every stand-in still pending and send every
   * tool's result late, then check nothing changed (default true).
   */
  readonly lateResults?: boolean;
  /**
   * The machine to run (default the agent machine): a `provide()`d or patched copy, e.g. one
   * with a planted defect, run along paths generated from it.
   */
  readonly machine?: typeof agentMachine;
  /** Sees the actor and every step as the run goes (e.g. an oracle comparing each step with a runtime). */
  readonly observer?: AgentPathObserver;
  /**
   * Receives every event the agent sends its parent (its `subagent.report` events: a result, a
   * turn the parent asked for). Given this, the agent runs under a parent the runner owns,
   * which holds it as a spawning agent holds a subagent (`subagentOf(agent._parent, path)`
   * finds it until it settles) and passes its events on here; stopping the run stops that
   * parent, which cancels the agent as a stopped parent cancels its subagents. By default the
   * agent has no parent.
   */
  readonly parent?: AnyActorRef;
}

/**
 * Watches a run. Throwing from `step` fails the path with that error (the actor is stopped first).
 *
 * @example
 * ```ts
 * await runAgentPath(path, {
 *   observer: { step: ({ step, snapshot }) => console.log(step.label, snapshot.value) },
 * });
 * ```
 */
export interface AgentPathObserver {
  /** The agent's actor, created and not yet started (a host can register it before it runs). */
  readonly created?: (actor: AnyActorRef) => void;
  /** Called once the agent reached the state of each step, before the next step is delivered. */
  readonly step?: (seen: AgentStepSeen) => void;
}

/** What an {@link AgentPathObserver} sees after a step. */
export interface AgentStepSeen {
  /** The step's index in `path.steps` (0 is `xstate.init`). */
  readonly index: number;
  readonly step: AgentPathStep;
  readonly path: AgentPath;
  /** The agent's snapshot after the step. */
  readonly snapshot: AnyMachineSnapshot;
  /** Every run of an invoked stand-in so far (hooks, summary, model requests), oldest first. */
  readonly invocations: readonly Invocation[];
  /** Every tool step (`runToolCalls`) stand-in so far, oldest first. */
  readonly toolSteps: readonly SpawnedChild[];
}

/** What a run observed. */
export interface AgentPathRun {
  /** The state key after each step. */
  readonly states: readonly string[];
  /** The agent's output, when the path ends in a final state. */
  readonly output: AgentResult | undefined;
  /** How often `releaseAndReport` ran (1 for a path ending in a final state, else 0). */
  readonly reports: number;
  /** Late completions delivered after the end (each one was ignored). */
  readonly lateDeliveries: number;
}

type LogEntry = { readonly event: EventObject; readonly snapshot: AnyMachineSnapshot };

const DONE = 'xstate.done.actor.';
const ERROR = 'xstate.error.actor.';

/** Whether an actor's input belongs to the agent at `path` (every actor input names its agent's path). */
function isOwn(input: unknown, path: string): boolean {
  const own = (input as { path?: unknown } | null | undefined)?.path;
  return own === undefined || own === path;
}

/** Invoke id → actor source, from the machine's state nodes (`model` → `sampleModel`). */
const INVOKED: ReadonlyMap<string, string> = new Map(
  stateNodesOf(agentMachine).flatMap((node) => node.invoke.map((inv): [string, string] => [inv.id, String(inv.src)])),
);

/** The actor that runs a step's tool calls: a callback sending one `tool.result` per call. */
const TOOL_STEP = 'runToolCalls';

/** Stand-ins for the agent machine's actors: invoked ones become promises, the rest (and the tool step) callbacks. */
function standInActors(standIns: StandIns, real: ReadonlySet<string>): Record<string, unknown> {
  const invoked = new Set(INVOKED.values());
  const actors: Record<string, unknown> = {};
  for (const src of Object.keys(agentMachine.implementations.actors)) {
    // The subagent supervisor is the machine's own (no side effect): it stays real.
    if (real.has(src) || src === 'superviseSubagents') continue;
    actors[src] = invoked.has(src) && src !== TOOL_STEP ? standIns.promise(src) : standIns.callback(src);
  }
  return actors;
}

/**
 * Runs `path` against the agent machine and resolves with what it observed. Throws a
 * {@link PathMismatchError} when a step reaches another state than the path expects, or when
 * an invariant breaks: a final state must report exactly once (none before), stop every
 * actor it started (aborting pending ones), and ignore every late completion. Never sleeps:
 * it waits on the machine's own inspection events.
 */
export async function runAgentPath(path: AgentPath, options: RunAgentPathOptions = {}): Promise<AgentPathRun> {
  const standIns = new StandIns();
  const real = new Set(Object.keys(options.provide?.actors ?? {}));
  const logic = (options.machine ?? agentMachine)
    .provide(options.provide ?? {})
    .provide({ actors: standInActors(standIns, real) as NonNullable<AgentImplementations>['actors'] });

  const log: LogEntry[] = [];
  let consumed = 0;
  let wake: (() => void) | undefined;
  let reports = 0;
  const under: { agent?: AnyActorRef } = {};
  const inspect = (event: InspectionEvent): void => {
    options.inspect?.(event);
    // Only the agent under test (not its subagents, not its parent).
    if (under.agent === undefined || event.actorRef !== under.agent) return;
    if (event.type === '@xstate.action' && event.action.type === 'releaseAndReport') reports++;
    if (event.type === '@xstate.snapshot') {
      log.push({ event: event.event, snapshot: event.snapshot as AnyMachineSnapshot });
      wake?.();
    }
  };
  // An actor with a parent joins the parent's system, which XState inspects only from its root.
  const holder = options.parent === undefined ? undefined : startPathParent(options.parent);
  const inspection = holder?.system.inspect(inspect);
  const actor = createActor(logic, { input: path.input, ...(holder ? { parent: holder, systemId: path.input.path } : { inspect }) });
  if (holder) holdSubagent(holder, path.input.path, actor);
  under.agent = actor;
  const stopAgent = (): void => {
    // What the stop sets off (a held subagent's cancellation) is not part of the path.
    under.agent = undefined;
    (holder ?? actor).stop();
  };
  try {
    options.observer?.created?.(actor);

    const fail = (step: number, label: string, expected: string, actual: string): never => {
      stopAgent();
      throw new PathMismatchError({ path: path.name, step, label, expected, actual });
    };
    const next = async (): Promise<LogEntry> => {
      while (consumed >= log.length) await new Promise<void>((resolve) => (wake = resolve));
      wake = undefined;
      return log[consumed++]!;
    };
    const keyOf = (snapshot: AnyMachineSnapshot): string => agentStateKey(snapshot as unknown as AgentSnapshotLike);

    const states: string[] = [];
    for (const [index, step] of path.steps.entries()) {
      if (index === 0) actor.start();
      else {
        const driven = deliver(step, standIns, real, actor.send.bind(actor));
        if (typeof driven === 'object') fail(index, step.label, `an agent able to take "${step.label}"`, driven.error);
        if (driven === 'sync' && consumed >= log.length) fail(index, step.label, `the agent to process ${step.event.type}`, 'no event was processed');
      }
      const entry = await next();
      if (!sameEvent(entry.event, step.event, real.has(TOOL_STEP))) fail(index, step.label, `event ${eventText(step.event)}`, `event ${eventText(entry.event)}`);
      const reached = keyOf(entry.snapshot);
      states.push(reached);
      if (reached !== step.expected) fail(index, step.label, step.expected, reached);
      if (options.observer?.step) {
        // A settled agent's report reaches its parent a microtask after the final state.
        if (entry.snapshot.status === 'done') await afterMicrotasks();
        const seen: AgentStepSeen = {
          index,
          step,
          path,
          snapshot: entry.snapshot,
          // The agent's own work: a subagent it spawned runs its stand-ins in the same registry.
          invocations: standIns.invocations.filter((i) => isOwn(i.input, path.input.path)),
          toolSteps: standIns.children.filter((c) => c.src === TOOL_STEP && isOwn(c.input, path.input.path)),
        };
        try {
          options.observer.step(seen);
        } catch (error) {
          stopAgent();
          throw error;
        }
      }
    }

    const last = actor.getSnapshot();
    if (last.status !== 'done') {
      if (reports !== 0) fail(-1, 'no result before a final state', 'releaseAndReport ran 0 times', `ran ${reports} times`);
      stopAgent();
      checkStopped(standIns, (label, expected, actual) => fail(-1, label, expected, actual));
      return { states, output: undefined, reports, lateDeliveries: 0 };
    }
    if (reports !== 1) fail(-1, 'exactly one result', 'releaseAndReport ran once', `ran ${reports} times`);
    checkStopped(standIns, (label, expected, actual) => fail(-1, label, expected, actual));
    let lateDeliveries = 0;
    if (options.lateResults !== false) {
      const before = { entries: log.length, snapshot: actor.getSnapshot() };
      lateDeliveries = deliverLate(standIns, path.steps);
      await afterMicrotasks();
      if (log.length !== before.entries || actor.getSnapshot() !== before.snapshot || reports !== 1) {
        fail(-1, 'late results are dropped', 'no event processed after the final state', `${log.length - before.entries} event(s) processed, ${reports} report(s)`);
      }
    }
    return { states, output: last.output as AgentResult, reports, lateDeliveries };
  } finally {
    inspection?.unsubscribe();
    holder?.stop();
  }
}

/**
 * Delivers one step. Returns `sync` when the agent processes it before returning, `async`
 * when an actor settles (or a real actor will send it), or a reason it cannot be delivered.
 */
function deliver(step: AgentPathStep, standIns: StandIns, real: ReadonlySet<string>, send: (event: never) => void): 'sync' | 'async' | { readonly error: string } {
  const event = step.event;
  const settles = event.type.startsWith(DONE) ? DONE : event.type.startsWith(ERROR) ? ERROR : undefined;
  if (settles !== undefined && !INVOKED.has(event.type.slice(settles.length))) {
    // A subagent's relayed ending: it arrives from outside, like any sent event.
    send(event as never);
    return 'sync';
  }
  if (settles === ERROR && event.type === `${ERROR}tools` && !real.has(TOOL_STEP)) {
    const step = standIns.children.findLast((c) => c.src === TOOL_STEP);
    if (!step || step.stopped) return { error: 'no running tool step' };
    step.fail((event as { error: unknown }).error);
    return 'sync';
  }
  if (settles !== undefined) {
    const id = event.type.slice(settles.length);
    const invocation = standIns.pending(id);
    if (real.has(INVOKED.get(id) ?? '')) return 'async';
    if (!invocation) return { error: `no running "${id}" actor` };
    if (invocation.signal.aborted) return { error: `"${id}" was already stopped` };
    if (settles === DONE) invocation.result.resolve((event as { output: unknown }).output);
    else invocation.result.reject((event as { error: unknown }).error);
    return 'async';
  }
  if (event.type === 'tool.result') {
    if (real.has(TOOL_STEP)) return 'async';
    const child = standIns.children.findLast((c) => c.src === TOOL_STEP && (c.input as ToolStepInput).calls.some((call) => call.id === event.callId));
    if (!child) return { error: `no running tool step has call ${event.callId}` };
    if (child.stopped) return { error: `the tool step running ${event.callId} was already stopped` };
    child.sendBack(event);
    return 'sync';
  }
  send(event as never);
  return 'sync';
}

/** After a final state (or a stop): every pending stand-in was aborted, every child stopped. */
function checkStopped(standIns: StandIns, fail: (label: string, expected: string, actual: string) => never): void {
  const running = standIns.invocations.filter((i) => !i.result.settled && !i.signal.aborted).map((i) => i.id);
  if (running.length > 0) fail('stopping aborts pending actors', 'every unsettled actor aborted', `still running: ${running.join(', ')}`);
  const children = standIns.children.filter((c) => !c.stopped).map((c) => c.id);
  if (children.length > 0) fail('stopping stops spawned actors', 'every spawned actor stopped', `still running: ${children.join(', ')}`);
}

/** Settles every pending stand-in and sends every tool's result once more; returns how many. */
function deliverLate(standIns: StandIns, steps: readonly AgentPathStep[]): number {
  let count = 0;
  const outputs = new Map<string, unknown>();
  for (const { event } of steps) if (event.type.startsWith(DONE)) outputs.set(event.type.slice(DONE.length), (event as { output: unknown }).output);
  for (const invocation of standIns.invocations) {
    if (invocation.result.settled) continue;
    invocation.result.resolve(outputs.get(invocation.id));
    count++;
  }
  for (const child of standIns.children) {
    if (child.src !== TOOL_STEP) continue;
    for (const call of (child.input as ToolStepInput).calls) {
      const late: AgentEvent = { type: 'tool.result', callId: call.id, toolName: call.name, content: 'late result', isError: false };
      child.sendBack(late);
      count++;
    }
  }
  return count;
}

/** Whether the agent processed the step's event (any call's result, when tools run for real). */
function sameEvent(actual: EventObject, expected: EventObject, realTools: boolean): boolean {
  if (actual.type !== expected.type) return false;
  if (expected.type === 'tool.result' && !realTools) return (actual as { callId?: unknown }).callId === (expected as { callId?: unknown }).callId;
  return true;
}

function eventText(event: EventObject): string {
  return event.type === 'tool.result' ? `tool.result(${String((event as { callId?: unknown }).callId)})` : event.type;
}
