/**
 * Tool calls as the event stream shows them: `tool-call-started` before the call runs, and
 * exactly one `tool-call-finished` after, with the outcome, or marked cancelled when the call's
 * step is stopped first (a call that ignores its signal may resolve much later, or never).
 */
import type { ToolInput, ToolOutcome, ToolStepOutcome } from '../../machines/agent.types.js';
import type { AnsweredLater, RuntimeCore } from './core.js';
import { executeTool, type CallAnswers } from './tools.js';
import { admitToolCall } from '../request/tool-call-admission.js';
import { outcomeCode } from '../../machines/agent-trace.js';

/** The outcome text a cancelled call's `tool-call-finished` carries. */
const CANCELLED_CALL = 'Error (aborted): the call was stopped before it finished';

/**
 * Calls still running per step signal, each with the function that finishes it as cancelled.
 * One abort listener per step, not per call: an AbortSignal's listener list is scanned on
 * every add and remove, so one listener per call would make a wide step quadratic.
 */
const running = new WeakMap<AbortSignal, Set<() => void>>();

function onStepAbort(signal: AbortSignal, cancel: () => void): () => void {
  let calls = running.get(signal);
  if (!calls) {
    const set = new Set<() => void>();
    calls = set;
    running.set(signal, set);
    signal.addEventListener(
      'abort',
      () => {
        running.delete(signal);
        for (const finish of set) finish();
      },
      { once: true },
    );
  }
  calls.add(cancel);
  return () => void running.get(signal)?.delete(cancel);
}

/** Runtime hook: the machine wrote a subagent's first report as this `Agent` call's result. */
export function answeredCall(waiting: AnsweredLater, path: string, answer: { readonly callId: string; readonly content: string; readonly isError: boolean }): void {
  const key = `${path}\n${answer.callId}`;
  const finish = waiting.get(key);
  if (!finish) return;
  waiting.delete(key);
  finish(answer.content, answer.isError);
}

/**
 * A call its step stopped before it ran (it waited for a later slice of the event loop): it
 * never runs, and the stream shows it started and finished as cancelled like any stopped call.
 */
export function cancelledBeforeRun(core: RuntimeCore, input: ToolInput): ToolOutcome {
  const outcome: ToolOutcome = { content: CANCELLED_CALL, isError: true };
  if (!core.events.stream.active && !core.trace) return outcome;
  const { path, call } = input;
  core.events.publish({ type: 'tool-call-started', path, callId: call.id, toolName: call.name, args: call.arguments });
  core.trace?.toolStarted({ path, callId: call.id, toolName: call.name, args: call.arguments });
  core.events.publish({ type: 'tool-call-finished', path, callId: call.id, toolName: call.name, content: outcome.content, isError: true, cancelled: true });
  core.trace?.toolEnded(path, call.id, { content: outcome.content, isError: true, cancelled: true, errorCode: outcomeCode(outcome.content, true) });
  return outcome;
}

/** Runs a tool call like `executeTool`, publishing its start and finish while anyone iterates events. */
export async function executeToolWithEvents(core: RuntimeCore, input: ToolInput, signal: AbortSignal, answers: CallAnswers = 'awaited'): Promise<ToolStepOutcome> {
  // Without an iterator or a tracer the call costs what it did before streaming existed.
  const trace = core.trace;
  if (!core.events.stream.active && !trace) return executeTool(core, input, signal, answers);
  const { path, call } = input;
  // Traced without an iterator, no event object is built for nobody.
  if (core.events.stream.active) core.events.publish({ type: 'tool-call-started', path, callId: call.id, toolName: call.name, args: call.arguments });
  trace?.toolStarted({ path, callId: call.id, toolName: call.name, args: call.arguments });
  let done = false;
  const finish = (content: string, isError: boolean, cancelled: boolean): void => {
    if (done) return;
    done = true;
    forget();
    if (core.events.stream.active) core.events.publish({ type: 'tool-call-finished', path, callId: call.id, toolName: call.name, content, isError, cancelled });
    trace?.toolEnded(path, call.id, { content, isError, cancelled, errorCode: isError ? outcomeCode(content, cancelled) : undefined });
  };
  const forget = signal.aborted ? () => {} : onStepAbort(signal, () => finish(CANCELLED_CALL, true, true));
  if (signal.aborted) finish(CANCELLED_CALL, true, true);
  const outcome = await executeTool(core, input, signal, answers);
  if ('answeredBy' in outcome) {
    const key = `${path}\n${call.id}`;
    if (!done && !signal.aborted) {
      const calls = core.answeredLater;
      calls.set(key, (content, isError) => finish(content, isError, false));
      // Stopped before its answer: finished as cancelled, and forgotten here too.
      onStepAbort(signal, () => calls.delete(key));
    }
    return outcome;
  }
  finish(outcome.content, outcome.isError, false);
  return outcome;
}

/**
 * A host's `callTool`: every call, `Agent` included, resolves with its outcome. Its arguments
 * are checked like a model's as it arrives (a refused call gets an `invalid_arguments` outcome).
 */
export async function callToolForHost(core: RuntimeCore, input: ToolInput, signal: AbortSignal): Promise<ToolOutcome> {
  const call = typeof input.call === 'object' && input.call !== null ? admitToolCall(input.call, core.registry.limits) : input.call;
  const outcome = await executeToolWithEvents(core, { ...input, call }, signal, 'awaited');
  // Never the case for 'awaited' calls; kept total rather than cast.
  return 'answeredBy' in outcome ? { content: `Error: ${outcome.answeredBy} answers this call in its parent's dialogue`, isError: true } : outcome;
}
