/**
 * Tool calls as the event stream shows them: `tool-call-started` before the call runs, and
 * exactly one `tool-call-finished` after, with the outcome, or marked cancelled when the call's
 * step is stopped first (a call that ignores its signal may resolve much later, or never).
 */
import type { ToolInput, ToolOutcome, ToolStepOutcome } from '../../machines/agent.types.js';
import type { ToolStepScope } from '../../machines/tool-step.js';
import type { ToolCall } from '../dialogue/entry.js';
import type { AnsweredLater, RuntimeCore } from './core.js';
import { executeTool, type CallAnswers } from './tools.js';
import { admitToolCall } from '../request/tool-call-admission.js';
import { outcomeCode } from '../../machines/agent-trace.js';

/** The outcome text a cancelled call's `tool-call-finished` carries. */
const CANCELLED_CALL = 'Error (aborted): the call was stopped before it finished';

/**
 * One call whose start was published or traced, until its finish is: what the finish needs,
 * kept on one object rather than in closures made per call.
 */
class RunningCall {
  private done = false;
  /** Whether the parent's machine answers it later (it is then in `core.answeredLater`). */
  private later = false;
  /** Unregisters it from its step's stop list. */
  private unwatch: (() => void) | undefined;

  constructor(
    private readonly core: RuntimeCore,
    private readonly path: string,
    private readonly call: ToolCall,
  ) {}

  /** Publishes and traces its finish, once; forgets it everywhere it waits. */
  finish(content: string, isError: boolean, cancelled: boolean): void {
    if (this.done) return;
    this.done = true;
    const { core, path, call } = this;
    this.unwatch?.();
    if (this.later) forgetAnswer(core.answeredLater, path, call.id);
    if (core.events.stream.active) core.events.publish({ type: 'tool-call-finished', path, callId: call.id, toolName: call.name, content, isError, cancelled });
    core.trace?.toolEnded(path, call.id, { content, isError, cancelled, errorCode: isError ? outcomeCode(content, cancelled) : undefined });
  }

  /** Its step was stopped first. */
  cancel(): void {
    this.finish(CANCELLED_CALL, true, true);
  }

  /** The parent's machine wrote the subagent's first report as its result. */
  answered(content: string, isError: boolean): void {
    this.finish(content, isError, false);
  }

  /** Its outcome is the subagent's first report, which the parent's machine writes later. */
  awaitAnswer(): void {
    const calls = this.core.answeredLater;
    let byId = calls.get(this.path);
    if (!byId) calls.set(this.path, (byId = new Map()));
    byId.set(this.call.id, this);
    this.later = true;
  }

  /**
   * Finished as cancelled when its step is stopped first (the step keeps the list), or, for a
   * call the host runs outside any step, when its signal aborts.
   */
  watch(step: ToolStepScope | undefined, signal: AbortSignal): void {
    const cancel = (): void => this.cancel();
    if (step) this.unwatch = step.onStop(cancel);
    else if (signal.aborted) cancel();
    else {
      signal.addEventListener('abort', cancel, { once: true });
      this.unwatch = () => signal.removeEventListener('abort', cancel);
    }
  }
}

function forgetAnswer(waiting: AnsweredLater, path: string, callId: string): void {
  const byId = waiting.get(path);
  if (!byId?.delete(callId)) return;
  if (byId.size === 0) waiting.delete(path);
}

/** Runtime hook: the machine wrote a subagent's first report as this `Agent` call's result. */
export function answeredCall(waiting: AnsweredLater, path: string, answer: { readonly callId: string; readonly content: string; readonly isError: boolean }): void {
  // Untraced and unstreamed sessions never wait here: nothing is looked up.
  if (waiting.size === 0) return;
  waiting.get(path)?.get(answer.callId)?.answered(answer.content, answer.isError);
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
export function executeToolWithEvents(core: RuntimeCore, input: ToolInput, signal: AbortSignal, answers: CallAnswers = 'awaited', step?: ToolStepScope): Promise<ToolStepOutcome> {
  // Without an iterator or a tracer the call costs what it did before streaming existed.
  const trace = core.trace;
  if (!core.events.stream.active && !trace) return executeTool(core, input, signal, answers);
  const { path, call } = input;
  // Traced without an iterator, no event object is built for nobody.
  if (core.events.stream.active) core.events.publish({ type: 'tool-call-started', path, callId: call.id, toolName: call.name, args: call.arguments });
  trace?.toolStarted({ path, callId: call.id, toolName: call.name, args: call.arguments });
  const tracked = new RunningCall(core, path, call);
  tracked.watch(step, signal);
  // `then` rather than an async frame of its own: the call's one extra promise.
  return executeTool(core, input, signal, answers).then((outcome) => settled(tracked, outcome, signal));
}

/** A call's outcome arrived: it finishes now, or (an `Agent` call a subagent answers) when its answer is written. */
function settled(call: RunningCall, outcome: ToolStepOutcome, signal: AbortSignal): ToolStepOutcome {
  if (!('answeredBy' in outcome)) call.finish(outcome.content, outcome.isError, false);
  // Stopped before its answer: it finished as cancelled already.
  else if (!signal.aborted) call.awaitAnswer();
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
