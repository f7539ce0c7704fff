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

/** Where a step runs: the agent whose calls it runs, and a way to send that agent events from the step. */
export interface ToolStepScope {
  /** The agent's actor (the step's XState parent). */
  readonly agent: AnyActorRef;
  /** Sends the agent an event from the step's actor (a spawn, a message to relay). */
  send(event: AgentEvent): void;
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
    const scope: ToolStepScope = { agent: self._parent as AnyActorRef, send: sendBack };
    const controller = new AbortController();
    const { signal } = controller;
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
    return () => controller.abort();
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
