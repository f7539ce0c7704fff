/**
 * The actor that runs one step's tool calls, built from a function that runs one call.
 * Pure: the function is the host's side effect.
 */
import { setMaxListeners } from 'node:events';
import { fromCallback, type AnyActorRef } from 'xstate';
import { errorText } from '../src/dialogue/error-text.js';
import type { AgentEvent, ToolStepOutcome, ToolInput, ToolOutcome, ToolStepInput } from './agent.types.js';

/**
 * Runs one tool call; `signal` aborts when the step is stopped. An `Agent` call whose subagent
 * answers it (caller delivery) resolves with `{ answeredBy: path }`: the agent writes the
 * subagent's first report as the call's result when it arrives.
 */
export type ToolExecutor = (input: ToolInput, signal: AbortSignal, step: ToolStepScope) => ToolStepOutcome | Promise<ToolStepOutcome>;

/**
 * Where a step runs: the agent whose calls it runs, a way to send that agent events from the
 * step, and what the step owns for its calls (their order, and one list of what to do when it
 * is stopped), so an executor keeps per-step state on the step rather than in a table.
 */
export interface ToolStepScope {
  /** The agent's actor (the step's XState parent). */
  readonly agent: AnyActorRef;
  /** Sends the agent an event from the step's actor (a spawn, a message to relay). */
  send(event: AgentEvent): void;
  /** The step's calls in the reply's order: `calls[0] === input.call` for the first one started. */
  readonly calls: ToolStepInput['calls'];
  /**
   * Calls `stopped` once when the step is stopped (at once when it already was), and returns
   * a function that unregisters it. The step keeps one list: registering costs O(1), where an
   * abort listener per call would rescan the signal's listener list on every add and remove.
   */
  onStop(stopped: () => void): () => void;
}

/**
 * Callback logic for the agent machine's `runToolCalls` actor: starts every call of the step
 * at once and sends back one `tool.result` per call as it finishes (a thrown error or a
 * rejection becomes an error result). Stopping the actor aborts the one signal all calls
 * share, and nothing is sent after that. One signal per step rather than per call: a call that
 * finishes has nothing left to abort.
 *
 * @example
 * ```ts
 * const logic = agentMachine.provide({
 *   actors: { runToolCalls: toolStepLogic(async ({ call }, signal) => ({ content: await myTool(call, signal), isError: false })) },
 * });
 * ```
 */
export function toolStepLogic(execute: ToolExecutor) {
  return fromCallback<AgentEvent, ToolStepInput>(({ input, sendBack, self }) => {
    const controller = new AbortController();
    const { signal } = controller;
    const onStopped = new Set<() => void>();
    const scope: ToolStepScope = {
      agent: self._parent as AnyActorRef,
      send: sendBack,
      calls: input.calls,
      onStop: (stopped) => {
        if (signal.aborted) {
          stopped();
          return () => {};
        }
        onStopped.add(stopped);
        return () => void onStopped.delete(stopped);
      },
    };
    // Each call may listen for the abort (fetch does): expected, so no leak warning past 10.
    setMaxListeners(Math.max(10, input.calls.length + 10), signal);
    const settle = (call: ToolInput['call'], outcome: ToolStepOutcome): void => {
      // A call stopped with its step writes nothing; one a subagent answers is written by the agent.
      if (signal.aborted || isAnsweredBySubagent(outcome)) return;
      const { content, isError } = checkedOutcome(outcome);
      sendBack({ type: 'tool.result', callId: call.id, toolName: call.name, content, isError });
    };
    for (const call of input.calls) {
      const one: ToolInput = { path: input.path, call };
      let outcome: ToolStepOutcome | Promise<ToolStepOutcome>;
      try {
        outcome = execute(one, signal, scope);
      } catch (error) {
        outcome = Promise.reject(error);
      }
      void Promise.resolve(outcome).then(
        (value) => settle(call, value),
        (error: unknown) => settle(call, { content: `Error: ${errorText(error)}`, isError: true } satisfies ToolOutcome),
      );
    }
    return () => {
      controller.abort();
      for (const stopped of onStopped) stopped();
      onStopped.clear();
    };
  });
}

function isAnsweredBySubagent(outcome: unknown): boolean {
  return typeof outcome === 'object' && outcome !== null && typeof (outcome as { answeredBy?: unknown }).answeredBy === 'string';
}

/** A harness executor's outcome, or an error result naming what it returned instead. */
function checkedOutcome(outcome: unknown): ToolOutcome {
  const o = outcome as Partial<ToolOutcome> | null | undefined;
  if (typeof o === 'object' && o !== null && typeof o.content === 'string') return { content: o.content, isError: o.isError === true };
  return { content: `Error: the tool executor returned ${errorText(outcome)} instead of { content, isError }`, isError: true };
}
