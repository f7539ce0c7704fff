/**
 * The agent machine with the runtime's side effects provided: hooks, summaries, model
 * requests, tool calls, and the publish/report actions. Every actor honours its AbortSignal,
 * and XState ignores whatever a stopped actor resolves, so late results are dropped.
 */
import { setImmediate as nextMacrotask } from 'node:timers/promises';
import { fromPromise } from 'xstate';
import { agentMachine } from '../../machines/agent.machine.js';
import { toolStepLogic } from '../../machines/tool-step.js';
import { subagentOf } from '../../machines/subagents.js';
import type {
  TaskHookInput,
  TaskHookDecision,
  SampleInput,
  SampleOutput,
  SummaryActorInput,
  SummaryResult,
} from '../../machines/agent.types.js';
import { assistantEntry, compactionEntry } from '../dialogue/entry.js';
import type { Dialogue } from '../dialogue/dialogue.js';
import type { DialogueView } from '../dialogue/types.js';
import { addUsage, requestUsage, ZERO_USAGE, type ModelResponse } from '../model/adapter.js';
import { throwIfAborted } from '../model/abort.js';
import { EntryView } from '../dialogue/entry-seq.js';
import { serializeRequest } from '../request/serialize.js';
import { wireRequestOf, type WireBody, type WireRequest } from '../request/wire-prefix.js';
import { checkOutput } from '../request/output-schema.js';
import { checkHookDecision } from './hook-decision.js';
import type { ModelRequest } from '../request/types.js';
import type { RuntimeCore } from './core.js';
import type { Compaction, CoreBuilders } from './core-builders.js';
import { requestOf } from './requests.js';
import { answeredCall, cancelledBeforeRun, executeToolWithEvents } from './tool-events.js';
import { deltaSink, type DeltaSink } from './delta-sink.js';
import { errorText } from '../dialogue/error-text.js';
import { normalizeResponse, normalizeSummary } from '../model/normalize.js';
import { requestSettingsOf, withRetries } from './model-request.js';
import { sliceYield } from './slices.js';
import { failureCode, providerOf } from './telemetry.js';
import { traceChatEnd, traceChatStart } from '../../machines/agent-trace.js';
import { classifyFailure } from '../model/transient.js';
import { SaEvents } from '../otel/attributes.js';
import { BudgetError } from '../policy/budget.js';
import type { Usage } from '../request/usage.js';
import { FailedRequestError } from '../request/failed-request.js';

/** The empty reply of a request the budget refused (the machine reads `budgetStop` instead). */
const NO_REPLY: ModelResponse = Object.freeze({ text: '', toolCalls: Object.freeze([]), usage: ZERO_USAGE });

const COMPACTION_TASK =
  'Summarize the conversation so far so the agent can continue it: keep goals, decisions, findings, open questions and the state of any work in progress.';

/** Writes a compaction before the request when the policy or the host asks for one. */
async function maybeCompact(core: RuntimeCore, input: SampleInput, signal: AbortSignal): Promise<Compaction | undefined> {
  const record = core.registry.get(input.path);
  const policy = core.config.compaction;
  const forced = record?.compactRequested === true;
  if (!forced && !policy) return undefined;
  if (!forced && serializeRequest(requestOf(input, input.dialogue.effective())).length <= (policy?.maxRequestBytes ?? Infinity)) return undefined;
  if (record) record.compactRequested = false;
  return compactDialogue(core, input.path, input.dialogue, signal);
}

/**
 * Summarizes everything before the active turn (or everything, between turns) into a
 * compaction entry anchored at the active turn's opening entry.
 */
export async function compactDialogue(core: RuntimeCore, path: string, dialogue: DialogueView, signal: AbortSignal): Promise<Compaction | undefined> {
  const effective = dialogue.effective().toArray();
  const active = dialogue.activeTurn();
  const opener = active ? dialogue.at(active.start) : undefined;
  const anchorId = opener?.kind === 'user' ? opener.id : null;
  const cut = anchorId === null ? effective.length : effective.findIndex((e) => e.id === anchorId);
  const replaced = effective.slice(0, cut < 0 ? effective.length : cut);
  if (replaced.length === 0) return undefined;
  const entries = EntryView.of(replaced);
  const { value, retries } = await withRetries(core, path, requestSettingsOf(core, path), signal, (attemptSignal) =>
    core.config.summarizer.summarize({ entries, task: COMPACTION_TASK, agentPath: path }, attemptSignal),
  );
  const { text, usage } = normalizeSummary(value);
  core.trace?.event(path, SaEvents.compaction, { 'entries.replaced': replaced.length, 'summary.length': text.length, retries });
  return { entry: compactionEntry({ summary: text, anchorId: cut < 0 ? null : anchorId }), usage: requestUsage(usage, retries) };
}

/**
 * Rejects a reply the dialogue could not hold (a tool call id repeated or reused, a call
 * without a name), so a provider glitch ends the agent as `model_error` with a clear message
 * instead of breaking the machine.
 */
function checkReply(dialogue: Dialogue, response: ModelResponse): void {
  for (const call of response.toolCalls) {
    if (typeof call.id !== 'string' || call.id === '' || typeof call.name !== 'string' || call.name === '') {
      throw new Error(`the model returned a tool call without an id or name (${JSON.stringify({ id: call.id, name: call.name })})`);
    }
  }
  try {
    dialogue.append(assistantEntry({ text: response.text, toolCalls: response.toolCalls, ...(response.reasoning ? { reasoning: response.reasoning } : {}) }));
  } catch (error) {
    throw new Error(`the model returned a reply the dialogue cannot hold: ${errorText(error)}`, { cause: error });
  }
}

/** Keeps an agent's latest request: what a subagent spawned next inherits is measured against it. */
function notePrefix(core: RuntimeCore, path: string, request: ModelRequest): void {
  const record = core.registry.get(path);
  if (record) record.lastRequest = request;
}

/**
 * Keeps the provider's body of an answered request, read in its cache order, when the adapter
 * reported one: the agent's first (for its own `result.prefix`) and its latest (for its subagents').
 */
function noteWire(core: RuntimeCore, path: string, reply: unknown): void {
  const record = core.registry.get(path);
  if (!record) return;
  let wire: WireRequest | undefined;
  try {
    const sent = typeof reply === 'object' && reply !== null ? (reply as { wire?: unknown }).wire : undefined;
    if (typeof sent === 'object' && sent !== null) wire = wireRequestOf(sent as WireBody);
  } catch {
    // A body that cannot be read is a body not known: the canonical figures stand.
    wire = undefined;
  }
  record.lastWire = wire;
  if (record.firstWire === undefined) record.firstWire = wire ?? null;
}

/** Builds the agent machine with this runtime's implementations. */
export function createAgentLogic(core: RuntimeCore) {
  return agentMachine.provide({
    actors: {
      runTaskHooks: fromPromise<TaskHookDecision, TaskHookInput>(async ({ input, signal }) => {
        // A resumed spawn whose hooks already allowed it does not ask them again.
        const replayed = core.replayed?.get(input.path)?.hookTask;
        if (replayed !== undefined) {
          core.trace?.event(input.path, SaEvents.hook, { allow: true, replayed: true });
          return { allow: true, task: replayed };
        }
        let task = input.task;
        const hooks = core.config.taskHooks ?? [];
        for (let i = 0; i < hooks.length; i++) {
          // Fails closed: only a real `allow: true` lets the spawn go on (see checkHookDecision).
          const decision = checkHookDecision(
            await hooks[i]!({ path: input.path, parentPath: input.parentPath, role: input.role, task, context: input.context }, signal),
            i + 1,
          );
          core.trace?.event(input.path, SaEvents.hook, { hook: i + 1, allow: decision.allow, 'task.rewritten': decision.allow && decision.task !== undefined, reason: decision.allow ? undefined : decision.reason });
          if (!decision.allow) return decision;
          if (decision.task !== undefined) task = decision.task;
        }
        return { allow: true, task };
      }),
      generateSummary: fromPromise<SummaryResult, SummaryActorInput>(async ({ input, signal }) => {
        // A resumed subagent whose background was journaled gets it back, not a new one.
        const replayed = core.replayed?.get(input.path)?.background;
        if (replayed) {
          core.trace?.event(input.path, SaEvents.summary, { replayed: true, 'summary.length': replayed.text.length });
          return replayed;
        }
        const entries = input.snapshot?.summarizerInput;
        if (!entries || entries.length === 0) {
          core.trace?.event(input.path, SaEvents.summary, { entries: 0 });
          return { text: '(the delegating agent had no conversation to summarize)', usage: ZERO_USAGE };
        }
        core.trace?.event(input.path, SaEvents.summary, { phase: 'started', entries: entries.length });
        const { value, retries } = await withRetries(core, input.path, requestSettingsOf(core, input.path), signal, (attemptSignal) =>
          core.config.summarizer.summarize({ entries, task: input.task, agentPath: input.path }, attemptSignal),
        );
        const summary = normalizeSummary(value);
        core.trace?.event(input.path, SaEvents.summary, { phase: 'prepared', entries: entries.length, 'summary.length': summary.text.length, retries });
        return { text: summary.text, usage: requestUsage(summary.usage, retries) };
      }),
      sampleModel: fromPromise<SampleOutput, SampleInput>(async ({ input, signal }) => {
        // Between model requests of a turn, let timers, I/O, aborts and signals run: a model
        // that answers without I/O would otherwise keep the loop in microtasks for the whole
        // turn. (node:timers is used because test fake timers replace only the globals.)
        if (input.step > 0) await nextMacrotask();
        // A large fan-out's requests wait for a later turn once this one has run its slice.
        const wait = sliceYield();
        if (wait) await wait;
        throwIfAborted(signal);
        const compaction = await maybeCompact(core, input, signal);
        let dialogue = compaction ? input.dialogue.append(compaction.entry) : input.dialogue;
        // A soft limit reached since the last request (RuntimeOptions.budgetNotice): told once, here.
        const notice = core.budgets.takeNotice(input.path);
        if (notice) dialogue = dialogue.append(notice.entry);
        const request = requestOf(input, dialogue.effective());
        // A request that could cross a hard budget cap is not sent: the machine ends the turn.
        const hold = core.budgets.beforeRequest(input.path, request, dialogue);
        if (hold instanceof BudgetError) {
          return { response: NO_REPLY, compaction: compaction?.entry, ...(compaction ? { usage: compaction.usage } : {}), budgetStop: { reason: hold.message }, ...(notice ? { budgetNotice: notice.entry } : {}) };
        }
        let charged: Usage | undefined;
        try {
          const output = await sendRequest(core, input, request, dialogue, compaction, signal);
          charged = output.usage;
          return notice ? { ...output, budgetNotice: notice.entry } : output;
        } catch (error) {
          // No reply, so the dialogue does not keep it: the next request carries the notice.
          if (notice) core.budgets.returnNotice(input.path, notice);
          throw error;
        } finally {
          if (hold) core.budgets.afterRequest(hold, charged);
        }
      }),
      runToolCalls: toolStepLogic((input, signal, step) => {
        // A reply with many calls starts them over several turns once this one has run its
        // slice; its first call starts at once (the request before it was a yield point).
        const wait = step.calls[0] === input.call ? undefined : sliceYield();
        if (!wait) return executeToolWithEvents(core, input, signal, 'by-machine', step);
        // A call whose step was stopped while it waited never runs.
        return wait.then(() => (signal.aborted ? cancelledBeforeRun(core, input) : executeToolWithEvents(core, input, signal, 'by-machine', step)));
      }),
    },
    actions: {
      // The call's result as written: the actor's snapshot still shows the dialogue before it.
      noteCallAnswered: ({ context }, answer) => answeredCall(core.answeredLater, context.input.path, answer),
      publishInDirectory: ({ context }) => core.lifecycle.published(context.input.path),
      adoptSubagent: ({ self }, { path }) => core.lifecycle.adopt(path, subagentOf(self, path)),
      releaseAndReport: (_, params) => core.lifecycle.finished(params.result, params.dialogue),
      reportTurn: (_, params) => core.lifecycle.turnEnded(params.report),
    },
  });
}

/** What a request whose attempts all failed cost: each attempt a request, each after the first a retry. */
function failedUsage(attempts: number, compaction: Compaction | undefined): Usage {
  const sent: Usage = { ...ZERO_USAGE, requests: attempts, retries: Math.max(0, attempts - 1) };
  return compaction ? addUsage(compaction.usage, sent) : sent;
}

/** Sends one model request (with retries) and checks its reply. */
async function sendRequest(core: RuntimeCore, input: SampleInput, request: ModelRequest, dialogue: Dialogue, compaction: Compaction | undefined, signal: AbortSignal): Promise<SampleOutput & { usage: Usage }> {
  notePrefix(core, input.path, request);
  // Deltas are asked for only while some iterator takes this agent's events; each
  // attempt gets its own sink, so a failed attempt's late deltas go nowhere.
  const wantsDeltas = core.events.stream.wants(input.path);
  const sink: { current: DeltaSink | undefined } = { current: undefined };
  const trace = core.trace;
  const model = core.config.model;
  if (trace) traceChatStart(trace, { path: input.path, model: request.model, provider: providerOf(model, request.model), turn: input.turn, step: input.step }, () => ({ system: request.system.systemPrompt, entries: request.messages }));
  // Transient failures are retried here, each attempt bounded by the request timeout;
  // what still fails ends the turn (the machine's model error path).
  let value: Awaited<ReturnType<typeof model.sample>>;
  let retries: number;
  const tally = { attempts: 0 };
  try {
    ({ value, retries } = await withRetries(core, input.path, requestSettingsOf(core, input.path), signal, (attemptSignal) => {
      sink.current?.close();
      sink.current = wantsDeltas ? deltaSink(core, input, attemptSignal) : undefined;
      const onDelta = sink.current?.onDelta;
      const context = { signal: attemptSignal, agentPath: input.path, turn: input.turn, step: input.step, ...(onDelta ? { onDelta } : {}) };
      // Spans the provider code starts (the AI SDK's, an HTTP instrumentation's) nest under `chat`.
      return trace ? trace.inChat(input.path, () => model.sample(request, context)) : model.sample(request, context);
    }, tally));
  } catch (error) {
    trace?.chatEnded(input.path, { errorCode: signal.aborted ? 'cancelled' : failureCode(error, classifyFailure(error).status), errorMessage: errorText(error) });
    if (signal.aborted) throw error;
    // Every attempt was sent and counts, and so does a compaction written before them.
    throw new FailedRequestError(errorText(error), failedUsage(tally.attempts, compaction), { cause: error });
  }
  noteWire(core, input.path, value);
  const response = normalizeResponse(value, core.registry.limits);
  if (trace) traceChatEnd(trace, input.path, response);
  sink.current?.replied(response);
  checkReply(dialogue, response);
  const usage = requestUsage(response.usage, retries);
  // A final answer of an agent with an output schema is checked here; the machine decides what follows.
  const output = input.output && response.toolCalls.length === 0 ? checkOutput(response.text, input.output, core.registry.limits) : undefined;
  return {
    response,
    compaction: compaction?.entry,
    usage: compaction ? addUsage(compaction.usage, usage) : usage,
    ...(output ? { output } : {}),
  };
}

/** The builders `RuntimeCore` is made with: this runtime's agent machine and compaction. */
export const agentCoreBuilders: CoreBuilders<RuntimeCore> = { logic: createAgentLogic, compact: compactDialogue };
