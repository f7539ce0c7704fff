/**
 * The agent statechart: one actor per agent, from reservation to exactly one result.
 *
 * reserved ─► preparingSummary ─► running (working: sampling ⇄ acting | idle) ─► settled
 *    └──────────── cancel / hook denied / failure ──────────────────────────► cancelled
 *
 * The file is pure: side effects are actors and actions the runtime provides through
 * `agentMachine.provide(...)`; the placeholders here fail loudly or do nothing.
 */
import { and, assign, type AnyActorRef, enqueueActions, not, sendTo, fromCallback, fromPromise, setup } from 'xstate';
import { Dialogue } from '../src/dialogue/dialogue.js';
import type { DialogueView } from '../src/dialogue/types.js';
import { errorText } from '../src/dialogue/error-text.js';
import { userEntry, assistantEntry, toolResultEntry, type ToolCall } from '../src/dialogue/entry.js';
import { addUsage, requestUsage, ZERO_USAGE } from '../src/request/usage.js';
import { composeInitialTask } from '../src/request/compose-task.js';
import { failedRequestUsage } from '../src/request/failed-request.js';
import { assertAgentInput, freezeAgentInput } from './agent.input.js';
import { SUBAGENT_ID_PREFIX } from './subagent-ids.js';
import type { AgentStateMeta } from './agent.meta.js';
import { agentAt, cancelSubagents, releaseSubagent, relayToParent, subagentOf, SubagentSet, subagentSetOf, subagentsOf, superviseSubagents, SUPERVISOR_ID } from './subagents.js';
import { completedResult, presenterOf } from './subagent-reports.js';
import { outputInstruction, repairInstruction } from '../src/request/output-schema.js';
import { prefixReuseOf, requestBytesOf } from '../src/request/prefix-reuse.js';
import type {
  AgentContext,
  AgentEvent,
  AgentInput,
  AgentResult,
  TaskHookInput,
  TaskHookDecision,
  InboxItem,
  InboxQueue,
  SampleInput,
  SampleOutput,
  SummaryActorInput,
  SummaryResult,
  SubagentReport,
  SubagentReportEvent,
  ToolStepInput,
  TurnReport,
  TurnStatus,
  StopReason,
} from './agent.types.js';

const notProvided = (name: string) => (): never => {
  throw new Error(`agent machine: the runtime must provide the "${name}" actor`);
};

/** What the context is before `initializeContext` runs (never seen by any guard or action). */
const UNINITIALIZED: Readonly<Record<string, never>> = Object.freeze({});

export const agentMachine = setup({
  types: {
    context: {} as AgentContext,
    events: {} as AgentEvent,
    input: {} as AgentInput,
    output: {} as AgentResult,
    meta: {} as AgentStateMeta,
  },
  actors: {
    /** Runs the runtime's task hooks once; each may rewrite the task or deny it. */
    runTaskHooks: fromPromise<TaskHookDecision, TaskHookInput>(notProvided('runTaskHooks')),
    /** Generates task-focused background from the parent's snapshot; abortable. */
    generateSummary: fromPromise<SummaryResult, SummaryActorInput>(notProvided('generateSummary')),
    /** One model request over the effective dialogue; abortable. */
    sampleModel: fromPromise<SampleOutput, SampleInput>(notProvided('sampleModel')),
    /**
     * Runs every call of one reply concurrently and sends back one `tool.result` per call as
     * it finishes; stopping it (the step ends, or the agent is cancelled) aborts every call
     * still running. One actor per step, not one per call: XState copies an actor's
     * `children` on every spawn and stop, which made a wide reply quadratic.
     * `toolStepLogic(execute)` builds it from a per-call function.
     */
    runToolCalls: fromCallback<AgentEvent, ToolStepInput>(() => notProvided('runToolCalls')()),
    /**
     * Spawned with the agent's first subagent, it owns the set of subagents the agent holds and
     * does nothing until it is stopped; then it cancels those still held. XState stops only
     * `children` when an actor is stopped, and subagents are held outside them (see
     * machines/subagents.ts).
     */
    superviseSubagents,
  },
  actions: {
    /** Runtime hook: the agent entered `running` and becomes addressable. */
    publishInDirectory: () => {},
    /**
     * Runtime hook: the agent settled. Release the slot and path, record the result and hand it
     * to the host's waiters (the machine reports it to the parent right after).
     */
    releaseAndReport: (_, _params: { result: AgentResult; dialogue: DialogueView }) => {},
    /** A subagent's actor ended abnormally; the runtime has already delivered its result. */
    noteSubagentEnded: () => {},
    /**
     * Runtime hook: a subagent's actor exists and is about to start (`subagentOf(self, path)`
     * finds it; the runtime watches it from here).
     */
    adoptSubagent: (_, _params: { path: string }) => {},
    /**
     * Creates a subagent's actor from the agent's own logic, with this agent as its XState
     * parent and its path as system id, and holds it outside `children`. The first one also
     * spawns the supervisor that owns the set of held subagents: an agent that never delegates
     * has no supervisor at all.
     */
    spawnSubagent: enqueueActions<AgentContext, AgentEvent, undefined, AgentEvent, { src: 'superviseSubagents'; logic: typeof superviseSubagents; id: string }, never, never, never, never>(({ enqueue, self, event }) => {
      if (event.type !== 'subagent.spawn') return;
      let set = subagentSetOf(self);
      if (!set) {
        set = new SubagentSet();
        enqueue.spawnChild('superviseSubagents', { id: SUPERVISOR_ID, input: set });
      }
      const held = set;
      enqueue(() => void held.create(self, event.input, event.actorId));
    }),
    /** Starts the subagent just created (after the runtime adopted it). */
    startSubagent: ({ self, event }) => {
      if (event.type === 'subagent.spawn') subagentOf(self, event.input.path)?.start();
    },
    /** Cancels every live subagent first, each of which cancels its own: results arrive children first. */
    cancelSubagents: ({ self }, params: { reason: string }) => cancelSubagents(self, params.reason),
    /** A settling agent leaves its parent's set of live subagents. */
    leaveParent: ({ self, context }) => releaseSubagent(self, context.input.path),
    /** A subagent whose actor failed is no longer held (the runtime has delivered its result). */
    forgetFailedSubagent: ({ self, event }) => {
      const id = event.type.slice('xstate.error.actor.'.length);
      const child = subagentsOf(self).find((c) => c.id === id);
      if (child) releaseSubagent(child, (child as unknown as { systemId?: string }).systemId ?? '');
    },
    /** Runtime hook: a continuable agent (or the root) finished a turn and is idle again. */
    reportTurn: (_, _params: { report: TurnReport }) => {},
    /**
     * Sends the finished turn to the parent's actor when it is the parent's business: the first
     * report of a caller-delivered subagent (it answers the `Agent` call), or a turn the parent
     * opened (its task or its message). Other turns stay with the host, so agents cannot loop.
     */
    reportTurnToParent: ({ context, self }, params: { report: TurnReport }) => {
      const event = subagentReportOf(context, { kind: 'turn', turn: params.report });
      if (event) relayToParent(self, event);
    },
    /** Sends the one result to the parent's actor (the `Agent` call's answer, or an inbox notice). */
    reportResultToParent: ({ context, self }) => {
      const event = subagentReportOf(context, { kind: 'result', result: finalResultOf(context) });
      if (event) relayToParent(self, event);
    },
    /**
     * Builds the context from the input the actor was created with (checked, deeply frozen):
     * a partial, hand-built input ends here with a clear error.
     */
    initializeContext: assign(({ event }) => initialAgentContext((event as unknown as { input: AgentInput }).input)),
    /** The agent made its first report; later ones never answer the `Agent` call. */
    noteFirstReport: assign({ firstReportMade: true }),
    /**
     * Writes a subagent's first report as the result of the `Agent` call that started it (caller
     * delivery); the `answersPendingCall` guard admits it once, while the call waits.
     */
    answerAgentCall: assign(({ context, event, system }) => {
      if (event.type !== 'subagent.report' || event.callId === null) return {};
      const outcome = presenterOf(system).callResult(event.report);
      return {
        dialogue: context.dialogue.appendInCallOrder(toolResultEntry({ callId: event.callId, toolName: 'Agent', content: outcome.content, isError: outcome.isError })),
      };
    }),
    /** Runtime hook: an `Agent` call was answered by its subagent's report (the call is finished). */
    noteCallAnswered: (_, _params: { callId: string; content: string; isError: boolean }) => {},
    /** Queues a subagent's report that arrived while working as an inbox notice. */
    queueReportNotice: assign({
      inbox: ({ context, event, system }) => {
        const item = noticeOf(event, system);
        return item ? { item, next: context.inbox, size: (context.inbox?.size ?? 0) + 1 } : context.inbox;
      },
    }),
    /** Opens a new turn with a subagent's report: a notice wakes an idle parent. */
    openTurnWithReport: assign(({ context, event, system }) => {
      const item = noticeOf(event, system);
      if (!item) return {};
      return {
        dialogue: context.dialogue.append(userEntry({ text: item.text, origin: item.origin, opensTurn: true })),
        step: 0,
        repairAsked: false,
        turnOpenedBy: item.origin,
      };
    }),

    /** Keeps the hook-accepted (possibly rewritten) task. */
    acceptTask: assign({
      acceptedTask: (_, params: { task: string }) => params.task,
    }),
    /** Records a hook's denial as the stop reason. */
    recordDenial: assign((_, params: { reason: string }) => ({
      status: 'cancelled' as const,
      stopReason: 'hook_denied' as const,
      error: params.reason,
    })),
    /** Records a failing hook. */
    recordHookFailure: assign((_, params: { error: unknown }) => ({
      status: 'cancelled' as const,
      stopReason: 'hook_failed' as const,
      error: errorText(params.error),
    })),
    /** Keeps the generated background (the parent keeps only metadata). */
    acceptBackground: assign(({ context }, params: { summary: SummaryResult }) => ({
      background: params.summary.text,
      usage: addUsage(context.usage, requestUsage(params.summary.usage)),
    })),
    /** Records a failed summary generation. */
    recordSummaryFailure: assign((_, params: { error: unknown }) => ({
      status: 'cancelled' as const,
      stopReason: 'summary_failed' as const,
      error: errorText(params.error),
    })),
    /**
     * Seeds the dialogue: copied entries, then background, then the framed initial task. Given
     * the accepted task (no summary to wait for), it also keeps it as `acceptTask` does: one
     * context update where two ran, on every spawn.
     */
    seedDialogue: assign(({ context }, params: { task?: string } | undefined) => {
      const accepted = params?.task !== undefined ? { acceptedTask: params.task } : {};
      const task = params?.task ?? context.acceptedTask ?? context.input.task ?? '';
      let dialogue = context.input.snapshot ? Dialogue.seeded(context.input.snapshot.entries) : Dialogue.empty();
      const from = context.input.parentPath ?? context.input.path;
      if (context.background !== undefined) {
        dialogue = dialogue.append(
          userEntry({ text: context.background, origin: { kind: 'background', from }, opensTurn: true }),
        );
      }
      const composed = composeInitialTask(context.input.framing, task, context.input.system);
      // The schema goes with the task, after any inherited dialogue, never into the head.
      const text = context.input.output ? `${composed}\n\n${outputInstruction(context.input.output)}` : composed;
      dialogue = dialogue.append(
        userEntry({
          text,
          origin: { kind: 'task', from },
          opensTurn: context.background === undefined,
        }),
      );
      return { ...accepted, dialogue, turnOpenedBy: { kind: 'task' as const, from } };
    }),
    /** Opens a new turn with the inbox item (or message) that woke an idle agent. */
    openTurnWithItem: assign(({ context, event }) => {
      const item = inboxItemOf(event);
      if (!item) return {};
      return {
        dialogue: context.dialogue.append(userEntry({ text: item.text, origin: item.origin, opensTurn: true, attachments: item.attachments })),
        step: 0,
        repairAsked: false,
        turnOpenedBy: item.origin,
      };
    }),
    /** Queues an item (or message) that arrived while working; it joins before the next model request. */
    queueInboxItem: assign({
      inbox: ({ context, event }) => {
        const item = inboxItemOf(event);
        return item ? { item, next: context.inbox, size: (context.inbox?.size ?? 0) + 1 } : context.inbox;
      },
    }),
    /**
     * Relays this agent's `send_message` to the target's actor (found by its system id, the
     * path), so the event's source is the sender. The runtime checked the target first; a
     * target gone meanwhile gets nothing.
     */
    routeMessage: sendTo(
      ({ event, self }) => targetOf(event, self) ?? self,
      // A target gone meanwhile: a note to self that no state takes (never a loop).
      ({ event, self }) => (targetOf(event, self) ? event : ({ type: 'send_message.undeliverable' } as unknown as AgentEvent)),
    ),
    /** Appends queued inbox items to the dialogue, in arrival order. */
    drainInbox: assign(({ context }) => {
      if (context.inbox === null) return {};
      const items: InboxItem[] = [];
      for (let node: InboxQueue = context.inbox; node !== null; node = node.next) items.push(node.item);
      let dialogue = context.dialogue;
      for (let i = items.length - 1; i >= 0; i--) {
        const item = items[i]!;
        dialogue = dialogue.append(userEntry({ text: item.text, origin: item.origin, opensTurn: false, attachments: item.attachments }));
      }
      return { dialogue, inbox: null };
    }),
    /** Appends the model's reply (and the compaction and budget notice the runtime wrote before it). */
    appendReply: assign(({ context }, params: { output: SampleOutput }) => {
      let dialogue = context.dialogue;
      if (params.output.compaction) dialogue = dialogue.append(params.output.compaction);
      if (params.output.budgetNotice) dialogue = dialogue.append(params.output.budgetNotice);
      const { response } = params.output;
      dialogue = dialogue.append(assistantEntry({ text: response.text, toolCalls: response.toolCalls, ...(response.reasoning ? { reasoning: response.reasoning } : {}) }));
      return {
        dialogue,
        usage: addUsage(context.usage, params.output.usage ?? requestUsage(response.usage)),
        // What the turn has said so far: a tool-calling step without text keeps the earlier
        // text of the same turn, so a turn cut short by its step cap still reports something.
        lastText: response.text !== '' || context.step === 0 ? response.text : context.lastText,
        step: context.step + 1,
        value: params.output.output?.valid === true ? params.output.output.value : context.value,
      };
    }),
    /**
     * Asks, once per turn, for a corrected answer naming what did not match the output schema
     * (nothing when the reply matched or had no schema to match).
     */
    askForRepair: assign(({ context }, params: { output: SampleOutput }) => {
      const check = params.output.output;
      if (check?.valid !== false || context.repairAsked) return {};
      return {
        dialogue: context.dialogue.append(
          userEntry({ text: repairInstruction(check.errors), origin: { kind: 'notice', from: context.input.path }, opensTurn: false }),
        ),
        repairAsked: true,
      };
    }),
    /**
     * Writes one tool result in call order (held until every earlier call of the step has its
     * result, so identical sessions write identical logs whatever order their tools finish in);
     * the `isPendingCall` guard admits each call of this step once.
     */
    appendToolResult: assign(({ context, event }) => {
      if (event.type !== 'tool.result') return {};
      return {
        dialogue: context.dialogue.appendInCallOrder(
          toolResultEntry({ callId: event.callId, toolName: event.toolName, content: event.content, isError: event.isError }),
        ),
      };
    }),
    /**
     * Ends the calls of an interrupted step with an error result each, so the dialogue stays a
     * valid transcript for the next turn. Leaving `acting` stops the
     * tool actor (aborting the calls); whatever it reports afterwards is ignored.
     */
    abandonPendingCalls: assign(({ context }) => {
      let dialogue = context.dialogue;
      // In call order: a result that finished but waited for an earlier call's is written as it is.
      for (const call of context.dialogue.pendingCalls()) {
        const held = context.dialogue.resultOf(call.id);
        dialogue = dialogue.append(held ?? toolResultEntry({ callId: call.id, toolName: call.name, content: INTERRUPTED_CALL_TEXT, isError: true }));
      }
      return { dialogue };
    }),
    /** Applies a compaction the host asked for, counting what writing it cost. */
    applyCompaction: assign(({ context, event }) =>
      event.type === 'compaction.apply'
        ? { dialogue: context.dialogue.append(event.entry), usage: event.usage ? addUsage(context.usage, event.usage) : context.usage }
        : {},
    ),
    /**
     * Counts what a host compaction cost when the agent refuses it (a turn ran while it was
     * written): the summary was paid for even though it is not applied.
     */
    countRefusedCompaction: assign(({ context, event }) =>
      event.type === 'compaction.apply' && event.usage ? { usage: addUsage(context.usage, event.usage) } : {},
    ),
    /** Remembers a close request that arrived mid-turn; the agent settles when the turn ends. */
    requestClose: assign({ closeRequested: true }),
    /** Counts a finished turn. */
    finishTurn: assign(({ context }) => ({ turnsCompleted: context.turnsCompleted + 1, step: 0, repairAsked: false })),
    /**
     * Counts the finished turn (as `finishTurn` does) and marks a normal completion, or
     * `invalid_output` when the final answer still missed the output schema after its repair
     * request: one context update where two ran, on every one-shot agent's last reply.
     */
    markCompleted: assign(({ context }, params: { output?: SampleOutput }) => {
      const turn = { turnsCompleted: context.turnsCompleted + 1, step: 0, repairAsked: false };
      const check = params.output?.output;
      if (check?.valid === false) {
        return {
          ...turn,
          status: 'failed' as const,
          stopReason: 'invalid_output' as const,
          error: `the final answer did not match the output schema after one repair request: ${check.errors}`,
        };
      }
      return { ...turn, status: 'completed' as const, stopReason: context.closeRequested ? ('closed' as const) : ('completed' as const) };
    }),
    /** Marks a close of an idle continuable agent. */
    markClosed: assign({ status: 'completed' as const, stopReason: 'closed' as const }),
    /** Marks a failed model request. */
    markModelError: assign((_, params: { error: unknown }) => ({
      status: 'failed' as const,
      stopReason: 'model_error' as const,
      error: errorText(params.error),
    })),
    /**
     * Keeps what a request that failed for good cost: every attempt sent (and a compaction
     * written before them), as the host's error says; an error that says nothing adds nothing.
     */
    keepFailedRequestCost: assign(({ context }, params: { error: unknown }) => {
      const cost = failedRequestUsage(params.error);
      return { usage: cost ? addUsage(context.usage, cost) : context.usage };
    }),
    /**
     * Keeps what a request the budget refused had already cost: the compaction written before
     * the check (and its usage), and the budget notice that request would have carried. Nothing
     * else changes: no reply exists.
     */
    keepRefusedRequestCost: assign(({ context }, params: { output: SampleOutput }) => {
      let dialogue = context.dialogue;
      if (params.output.compaction) dialogue = dialogue.append(params.output.compaction);
      if (params.output.budgetNotice) dialogue = dialogue.append(params.output.budgetNotice);
      return { dialogue, usage: params.output.usage ? addUsage(context.usage, params.output.usage) : context.usage };
    }),
    /** Marks an agent whose next model request its budget could not pay for. */
    markBudgetExceeded: assign((_, params: { output: SampleOutput }) => ({
      status: 'failed' as const,
      stopReason: 'budget_exceeded' as const,
      error: budgetStopText(params.output),
    })),
    /** Marks a one-shot agent whose turn used up its model requests. */
    markStepLimit: assign(({ context }) => ({
      status: 'failed' as const,
      stopReason: 'max_steps' as const,
      error: stepLimitText(context),
    })),
    /** Marks a failed actor that has no failure of its own to report (the tool step). */
    markInternalError: assign(({ context, event }) => ({
      status: 'failed' as const,
      stopReason: 'internal_error' as const,
      error: `internal error in ${context.input.path}: actor "${event.type.slice('xstate.error.actor.'.length)}" failed: ${errorText((event as { error?: unknown }).error)}`,
    })),
    /**
     * Takes the one result from the final context, once, as the tree's host completes it
     * (`configureReports`' `complete`): the runtime's hook, the parent and the actor's output
     * then get the same object.
     */
    takeResult: assign(({ context, system }) => ({ result: completedResult(system, resultOf(context)) })),
    /** Marks an outside cancellation (unless a denial or failure already explains it). */
    markCancelled: assign(({ context, event }) => ({
      status: 'cancelled' as const,
      stopReason: context.stopReason ?? ('cancelled' as const),
      error: context.error ?? (event.type === 'cancel' ? event.reason : undefined),
    })),
  },
  guards: {
    /** A task hook denied the spawn. */
    hookDenied: (_, params: { outcome: TaskHookDecision }) => !params.outcome.allow,
    /** The root starts idle in `running`; it has no task to vet. */
    isRoot: ({ context }) => context.input.task === null,
    /** No task hooks are registered: skip the hook actor. */
    hasNoTaskHooks: ({ context }) => !context.input.hasTaskHooks,
    /** The spawn asked for a generated summary. */
    wantsSummary: ({ context }) => context.input.contextMode === 'summary',
    /** The turn goes on after this reply: inbox items wait to be answered, or the answer needs its repair. */
    turnContinues: ({ context }, params: { output: SampleOutput }) =>
      context.inbox !== null || (params.output.output?.valid === false && !context.repairAsked),
    /** The model's reply requested tool calls. */
    replyHasToolCalls: (_, params: { output: SampleOutput }) => params.output.response.toolCalls.length > 0,
    /** Inbox items arrived while the agent was working and wait to join the dialogue. */
    inboxHasItems: ({ context }) => context.inbox !== null,
    /** This reply is the last model request the turn may make. */
    replyUsesLastStep: ({ context }) => context.input.maxSteps !== undefined && context.step + 1 >= context.input.maxSteps,
    /**
     * The agent is a root that stays open (the session's top, taking turns from its host): a
     * failed model request ends its turn, not the session. A one-shot root settles `failed`
     * like any one-shot agent.
     */
    isOpenRoot: ({ context }) => context.input.parentPath === null && context.input.lifetime === 'continuable',
    /** A continuable agent goes idle after a turn, unless a close was requested. */
    staysOpen: ({ context }) => context.input.lifetime === 'continuable' && !context.closeRequested,
    /**
     * The runtime did not send the model request: with its input estimate and output limit it
     * could cross a hard budget cap of the agent's subtree (or an ancestor's).
     */
    requestRefusedByBudget: ({ event }) => sampleOutputOf(event)?.budgetStop !== undefined,
    /** The model's final answer missed its output schema (after the repair request: it now fails). */
    answerMissedSchema: ({ event }) => sampleOutputOf(event)?.output?.valid === false,
    /** Every call of the current step has its result (O(1)). */
    allToolResultsIn: ({ context }) => !context.dialogue.hasPendingCalls(),
    /** The result answers a call of the current step that has none yet (O(1)). */
    isPendingCall: ({ context, event }) => event.type === 'tool.result' && context.dialogue.isPendingCall(event.callId),
    /** The turn used its allowed model requests. */
    stepLimitReached: ({ context }) => context.input.maxSteps !== undefined && context.step >= context.input.maxSteps,
    /** The report answers an `Agent` call of the current step that still waits (O(1)). */
    answersPendingCall: ({ context, event }) => event.type === 'subagent.report' && event.callId !== null && context.dialogue.isPendingCall(event.callId),
    /**
     * The report is a notice (no `Agent` call waits for it). A first report whose call no longer
     * waits (its turn was interrupted) is dropped: the call already has its error result.
     */
    reportIsNotice: ({ event }) => event.type === 'subagent.report' && event.callId === null,
    /** The event comes from a subagent (actor id `subagent:<n>`), not from an invoked actor. */
    fromSubagent: ({ event }) => event.type.startsWith(`xstate.error.actor.${SUBAGENT_ID_PREFIX}`),
    /** A `send_message` addressed to this agent. */
    isMessageForMe: ({ context, event }) => event.type === 'send_message' && event.to === context.input.path,
    /** A `send_message` this agent sends to another agent. */
    isMessageFromMe: ({ context, event }) => event.type === 'send_message' && event.from === context.input.path && event.to !== context.input.path,
    /** A host compaction applies only to the dialogue it summarized (no turn ran meanwhile). */
    compactionIsCurrent: ({ context, event }) => event.type === 'compaction.apply' && context.dialogue.length === event.basedOn,
  },
}).createMachine({
  id: 'agent',
  description: 'One LLM agent: reserved, optionally preparing a summary, running turns, then exactly one result.',
  // Set by `initializeContext`, the first entry action. A context *function* makes XState build
  // an assign action whenever an actor is constructed, and subagents are constructed inside
  // their parent's `spawnSubagent` action, where XState's development build warns about that.
  context: UNINITIALIZED as unknown as AgentContext,
  entry: 'initializeContext',
  initial: 'reserved',
  // What a host sees in each state (docs/path-tests.md, "State meta"): the path tests check
  // every step against these promises, not against the transitions below.
  meta: { cancel: 'cancels' },
  on: {
    cancel: { target: '.cancelled' },
    // Subagents are created with this agent as XState parent, so their completion and
    // failure are relayed here. The runtime reports them; an agent never fails because
    // one of its subagents did.
    'xstate.error.actor.*': { guard: 'fromSubagent', actions: ['forgetFailedSubagent', 'noteSubagentEnded'] },
    // A message this agent sends goes out from its own actor (addressed ones are taken per state).
    send_message: { guard: 'isMessageFromMe', actions: 'routeMessage' },
  },
  // The same object releaseAndReport and the parent's report got (`takeResult`).
  output: ({ context }) => finalResultOf(context),
  states: {
    reserved: {
      description: 'Path and slot are held; not addressable. Task hooks run here, once per spawn.',
      meta: { phase: 'reserved', listed: true, addressable: false, holdsSlot: true, settles: false, waitsForInput: false, works: null },
      initial: 'admitting',
      states: {
        admitting: {
          description: 'Decides whether there are hooks to run (the root has no task to vet).',
          always: [
            { guard: 'isRoot', target: '#agent.running.idle' },
            {
              guard: and(['hasNoTaskHooks', 'wantsSummary']),
              target: '#agent.preparingSummary',
              actions: { type: 'acceptTask', params: ({ context }) => ({ task: context.input.task ?? '' }) },
            },
            {
              guard: 'hasNoTaskHooks',
              target: '#agent.running',
              actions: { type: 'seedDialogue', params: ({ context }) => ({ task: context.input.task ?? '' }) },
            },
            { target: 'runningHooks' },
          ],
        },
        runningHooks: {
          description: 'The task hooks vet the task; each may rewrite or deny it.',
          meta: { works: 'hooks' },
          invoke: {
            id: 'hooks',
            src: 'runTaskHooks',
            input: ({ context }) => ({
              path: context.input.path,
              parentPath: context.input.parentPath,
              role: context.input.role,
              task: context.input.task ?? '',
              context: context.input.contextLabel,
            }),
            onDone: [
              {
                guard: { type: 'hookDenied', params: ({ event }) => ({ outcome: event.output }) },
                target: '#agent.cancelled',
                actions: {
                  type: 'recordDenial',
                  params: ({ event }) => ({ reason: event.output.allow ? '' : event.output.reason }),
                },
              },
              {
                guard: 'wantsSummary',
                target: '#agent.preparingSummary',
                actions: {
                  type: 'acceptTask',
                  params: ({ context, event }) => ({ task: event.output.allow ? (event.output.task ?? context.input.task ?? '') : '' }),
                },
              },
              {
                target: '#agent.running',
                actions: [
                  { type: 'seedDialogue', params: ({ context, event }) => ({ task: event.output.allow ? (event.output.task ?? context.input.task ?? '') : '' }) },
                ],
              },
            ],
            onError: {
              target: '#agent.cancelled',
              actions: { type: 'recordHookFailure', params: ({ event }) => ({ error: event.error }) },
            },
          },
        },
      },
    },
    preparingSummary: {
      description: 'Generating task-focused background from the frozen snapshot; still not addressable.',
      meta: { phase: 'preparing_summary', listed: true, addressable: false, holdsSlot: true, settles: false, waitsForInput: false, works: 'summary' },
      invoke: {
        id: 'summary',
        src: 'generateSummary',
        input: ({ context }) => ({ path: context.input.path, task: context.acceptedTask ?? '', snapshot: context.input.snapshot }),
        onDone: {
          target: 'running',
          actions: [{ type: 'acceptBackground', params: ({ event }) => ({ summary: event.output }) }, 'seedDialogue'],
        },
        onError: { target: 'cancelled', actions: { type: 'recordSummaryFailure', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    running: {
      description: 'Published in the directory and addressable.',
      meta: { listed: true, addressable: true, holdsSlot: true, settles: false },
      entry: 'publishInDirectory',
      on: {
        // The runtime reserved the path and slot and built the input; the agent starts the
        // subagent as its own XState child (held outside `children`: see machines/subagents.ts).
        'subagent.spawn': {
          actions: ['spawnSubagent', { type: 'adoptSubagent', params: ({ event }) => ({ path: event.input.path }) }, 'startSubagent'],
        },
        // Idle applies a current compaction; any other (stale, or arriving mid-turn) is refused but paid for.
        'compaction.apply': { actions: 'countRefusedCompaction' },
      },
      initial: 'working',
      states: {
        working: {
          description: 'A turn is in progress; inbox items join before the next model request.',
          meta: { waitsForInput: false, close: 'after-turn', inbox: 'queued' },
          initial: 'sampling',
          on: {
            inbox: { actions: 'queueInboxItem' },
            send_message: { guard: 'isMessageForMe', actions: 'queueInboxItem' },
            // A report no call waits for joins like any inbox item (acting answers waiting calls first).
            'subagent.report': { guard: 'reportIsNotice', actions: 'queueReportNotice' },
            close: { actions: 'requestClose' },
            // The host cancelled this turn (its subagents are already cancelled): the model
            // request stops with the state, pending calls get error results, and the agent
            // waits for its next turn. A one-shot agent is cancelled instead, never interrupted.
            interrupt: {
              guard: 'staysOpen',
              target: 'idle',
              actions: [
                'abandonPendingCalls',
                'drainInbox',
                ...turnReported(({ context, event }: { context: AgentContext; event: AgentEvent }) => ({
                    report: turnReportOf(context, 'cancelled', 'cancelled', event.type === 'interrupt' ? event.reason : undefined),
                  })),
                'finishTurn',
              ],
            },
          },
          states: {
            sampling: {
              description: 'Waiting for the model reply.',
              meta: { phase: 'waiting_on_model', works: 'model' },
              entry: 'drainInbox',
              invoke: {
                id: 'model',
                src: 'sampleModel',
                input: ({ context }) => sampleInputOf(context),
                onDone: [
                  {
                    // Not sent: it could cross a hard budget cap. An open root's turn ends; it stays usable.
                    guard: and(['requestRefusedByBudget', 'isOpenRoot']),
                    target: '#agent.running.idle',
                    actions: [
                      { type: 'keepRefusedRequestCost', params: ({ event }) => ({ output: event.output }) },
                      'drainInbox',
                      ...turnReported(({ context, event }: { context: AgentContext; event: { output: SampleOutput } }) => ({
                        report: turnReportOf(context, 'failed', 'budget_exceeded', budgetStopText(event.output)),
                      })),
                      'finishTurn',
                    ],
                  },
                  {
                    // Any other agent whose budget cannot pay for its next request settles, with its one result.
                    guard: 'requestRefusedByBudget',
                    target: '#agent.settled',
                    actions: [
                      { type: 'keepRefusedRequestCost', params: ({ event }) => ({ output: event.output }) },
                      { type: 'markBudgetExceeded', params: ({ event }) => ({ output: event.output }) },
                    ],
                  },
                  {
                    guard: { type: 'replyHasToolCalls', params: ({ event }) => ({ output: event.output }) },
                    target: 'acting',
                    actions: { type: 'appendReply', params: ({ event }) => ({ output: event.output }) },
                  },
                  {
                    // The cap ends the turn; a continuable agent (and the root) stays usable.
                    guard: and(['inboxHasItems', 'replyUsesLastStep', 'staysOpen']),
                    target: '#agent.running.idle',
                    actions: [
                      { type: 'appendReply', params: ({ event }) => ({ output: event.output }) },
                      'drainInbox',
                      ...turnReported(({ context }) => ({ report: turnReportOf(context, 'max_steps', 'max_steps', stepLimitText(context)) })),
                      'finishTurn',
                    ],
                  },
                  {
                    guard: and(['inboxHasItems', 'replyUsesLastStep']),
                    target: '#agent.settled',
                    actions: [{ type: 'appendReply', params: ({ event }) => ({ output: event.output }) }, 'markStepLimit'],
                  },
                  {
                    // Input that arrived during this request belongs to this turn, and so does
                    // the one repair request for an answer that missed its output schema:
                    // answer them before going idle or settling.
                    guard: { type: 'turnContinues', params: ({ event }) => ({ output: event.output }) },
                    target: 'sampling',
                    reenter: true,
                    actions: [
                      { type: 'appendReply', params: ({ event }) => ({ output: event.output }) },
                      { type: 'askForRepair', params: ({ event }) => ({ output: event.output }) },
                    ],
                  },
                  {
                    guard: and(['staysOpen', not('answerMissedSchema')]),
                    target: '#agent.running.idle',
                    actions: [
                      { type: 'appendReply', params: ({ event }) => ({ output: event.output }) },
                      // Reported before the turn is counted: the turn in progress is turnsCompleted.
                      ...turnReported(({ context }) => ({ report: turnReportOf(context, 'completed', 'completed') })),
                      'finishTurn',
                    ],
                  },
                  {
                    target: '#agent.settled',
                    actions: [
                      { type: 'appendReply', params: ({ event }) => ({ output: event.output }) },
                      { type: 'markCompleted', params: ({ event }) => ({ output: event.output }) },
                    ],
                  },
                ],
                onError: [
                  {
                    // A failure that survived the retries ends an open root's turn, not the session.
                    guard: 'isOpenRoot',
                    target: '#agent.running.idle',
                    actions: [
                      { type: 'keepFailedRequestCost', params: ({ event }) => ({ error: event.error }) },
                      'drainInbox',
                      ...turnReported(({ context, event }: { context: AgentContext; event: { error: unknown } }) => ({ report: turnReportOf(context, 'failed', 'model_error', errorText(event.error)) })),
                      'finishTurn',
                    ],
                  },
                  {
                    target: '#agent.settled',
                    actions: [
                      { type: 'keepFailedRequestCost', params: ({ event }) => ({ error: event.error }) },
                      { type: 'markModelError', params: ({ event }) => ({ error: event.error }) },
                    ],
                  },
                ],
              },
            },
            acting: {
              description: 'Running the tool calls of the last reply, concurrently.',
              meta: { phase: 'running_tools', works: 'tools' },
              invoke: {
                id: 'tools',
                src: 'runToolCalls',
                input: ({ context }) => ({ path: context.input.path, calls: lastToolCalls(context) }),
                // A harness-provided step actor that throws ends the agent with one result
                // instead of erroring the actor silently.
                onError: { target: '#agent.settled', actions: 'markInternalError' },
              },
              // Results join the dialogue in call order as soon as every earlier call has its
              // result, so a fork started by a later call of this step sees the results of the
              // calls before it that exist; unknown, repeated and late results change nothing.
              on: {
                'tool.result': { guard: 'isPendingCall', actions: 'appendToolResult' },
                // A caller-delivered subagent's first report is its Agent call's result.
                'subagent.report': {
                  guard: 'answersPendingCall',
                  actions: ['answerAgentCall', { type: 'noteCallAnswered', params: ({ context, event }) => answeredCallOf(context, event.callId ?? '') }],
                },
              },
              always: [
                {
                  guard: and(['allToolResultsIn', 'stepLimitReached', 'staysOpen']),
                  target: '#agent.running.idle',
                  actions: [
                    'drainInbox',
                    ...turnReported(({ context }) => ({ report: turnReportOf(context, 'max_steps', 'max_steps', stepLimitText(context)) })),
                    'finishTurn',
                  ],
                },
                { guard: and(['allToolResultsIn', 'stepLimitReached']), target: '#agent.settled', actions: 'markStepLimit' },
                { guard: 'allToolResultsIn', target: 'sampling' },
              ],
            },
          },
        },
        idle: {
          description: 'A continuable agent (or the root) waiting; the first inbox item starts a turn.',
          meta: { phase: 'idle', waitsForInput: true, works: null, close: 'settles-closed', inbox: 'opens-turn' },
          on: {
            inbox: { target: 'working', actions: 'openTurnWithItem' },
            send_message: { guard: 'isMessageForMe', target: 'working', actions: 'openTurnWithItem' },
            // A subagent's report wakes an idle parent.
            'subagent.report': { guard: 'reportIsNotice', target: 'working', actions: 'openTurnWithReport' },
            close: { target: '#agent.settled', actions: 'markClosed' },
            'compaction.apply': { guard: 'compactionIsCurrent', actions: 'applyCompaction' },
          },
        },
      },
    },
    settled: {
      type: 'final',
      description: 'Completed or failed; slot released, path unpublished, result delivered once.',
      meta: { phase: 'settled', listed: false, addressable: false, holdsSlot: false, settles: true, statuses: ['completed', 'failed'], waitsForInput: false, works: null },
      entry: [
        // A finished agent leaves no live subagents behind; theirs are reported before its own.
        { type: 'cancelSubagents', params: ({ context }) => ({ reason: `${context.input.path} finished` }) },
        'takeResult',
        { type: 'releaseAndReport', params: ({ context }) => ({ result: finalResultOf(context), dialogue: context.dialogue }) },
        'leaveParent',
        'reportResultToParent',
      ],
    },
    cancelled: {
      type: 'final',
      description: 'Stopped from outside, denied by a hook, or failed before running; result delivered once.',
      meta: { phase: 'settled', listed: false, addressable: false, holdsSlot: false, settles: true, statuses: ['cancelled'], waitsForInput: false, works: null },
      entry: [
        // Children first: each subagent (and its own, before it) is cancelled and reported before this agent.
        { type: 'cancelSubagents', params: ({ context, event }) => ({ reason: event.type === 'cancel' && event.reason ? event.reason : `${context.input.path} was cancelled` }) },
        'markCancelled',
        'takeResult',
        { type: 'releaseAndReport', params: ({ context }) => ({ result: finalResultOf(context), dialogue: context.dialogue }) },
        'leaveParent',
        'reportResultToParent',
      ],
    },
  },
});

/**
 * The actions of a finished turn: the runtime's report hook, the report to the parent, and
 * noting the first report. `report` builds the turn report from the context.
 */
function turnReported<E>(report: (args: { context: AgentContext; event: E }) => { report: TurnReport }) {
  return [{ type: 'reportTurn', params: report }, { type: 'reportTurnToParent', params: report }, 'noteFirstReport'] as const;
}

/** The result a settled agent took (`takeResult`); before that, one made from its context. */
function finalResultOf(context: AgentContext): AgentResult {
  return context.result ?? resultOf(context);
}

/** The `Agent` call result just written, or held until an earlier call of its step has its result. */
function answeredCallOf(context: AgentContext, callId: string): { callId: string; content: string; isError: boolean } {
  const entry = context.dialogue.resultOf(callId);
  return entry !== undefined ? { callId: entry.callId, content: entry.content, isError: entry.isError } : { callId: '', content: '', isError: false };
}

/** Whether a turn was opened by the parent (its task or its message): only those are reported up. */
function openedByParent(context: AgentContext, report: SubagentReport): boolean {
  if (report.kind === 'result') return true;
  const opener = report.turn.openedBy;
  return opener !== undefined && (opener.kind === 'task' || opener.kind === 'message') && opener.from === context.input.parentPath;
}

/**
 * The `subagent.report` an agent sends its parent, or nothing. A caller-delivered agent's first
 * report answers the `Agent` call that started it; a host caller (no call) takes it from the
 * host instead. Every later report, and every report of a parent-delivered agent, is a notice.
 */
export function subagentReportOf(context: AgentContext, report: SubagentReport): SubagentReportEvent | undefined {
  const { input } = context;
  if (input.parentPath === null) return undefined;
  if (!context.firstReportMade && input.delivery === 'caller') {
    const callId = input.snapshot?.source.triggeringCallId ?? null;
    return callId === null ? undefined : { type: 'subagent.report', from: input.path, callId, report };
  }
  return openedByParent(context, report) ? { type: 'subagent.report', from: input.path, callId: null, report } : undefined;
}

/** The inbox notice a subagent's report becomes, worded by the actor system's presenter. */
function noticeOf(event: AgentEvent, system: AnyActorRef['system']): InboxItem | undefined {
  if (event.type !== 'subagent.report') return undefined;
  return { text: presenterOf(system).notice(event.report), origin: { kind: 'notice', from: event.from } };
}

/**
 * The context an agent starts with. The immutable input stays nested: XState copies the whole
 * context on every assign, so a narrow context is what makes spawning cheap. A resumed agent's
 * context is built on this too.
 */
export function initialAgentContext(input: AgentInput): AgentContext {
  return {
    input: checkedInput(input),
    acceptedTask: null,
    background: undefined,
    dialogue: Dialogue.empty(),
    inbox: null,
    step: 0,
    usage: ZERO_USAGE,
    lastText: '',
    status: undefined,
    stopReason: undefined,
    error: undefined,
    closeRequested: false,
    turnsCompleted: 0,
    turnOpenedBy: undefined,
    value: undefined,
    repairAsked: false,
    firstReportMade: false,
    result: undefined,
  };
}

function checkedInput(input: AgentInput): AgentInput {
  assertAgentInput(input);
  return freezeAgentInput(input);
}

/** The calls of the last reply (the step `acting` runs). */
function lastToolCalls(context: AgentContext): readonly ToolCall[] {
  const last = context.dialogue.at(context.dialogue.lastAssistantPosition());
  return last?.kind === 'assistant' ? last.toolCalls : [];
}

/**
 * The model output a `sampleModel` done event carries. XState types guard events as the
 * machine's declared events, which do not include invoked actors' done events.
 */
function sampleOutputOf(event: unknown): SampleOutput | undefined {
  const output = (event as { output?: unknown }).output;
  return output !== null && typeof output === 'object' && 'response' in output ? (output as SampleOutput) : undefined;
}

/** The text a tool result gets when its turn was interrupted before the call finished. */
export const INTERRUPTED_CALL_TEXT = 'Error (cancelled): the turn was cancelled before this tool call finished.';

function budgetStopText(output: SampleOutput): string {
  return `budget exceeded: ${output.budgetStop?.reason ?? 'a hard budget cap was reached'}`;
}

function stepLimitText(context: AgentContext): string {
  return `stopped after ${context.step} model requests in one turn (limit ${context.input.maxSteps ?? 0})`;
}

/** The live actor a `send_message` is addressed to (system ids are agent paths; a root may have none). */
function targetOf(event: AgentEvent, self: AnyActorRef): AnyActorRef | undefined {
  return event.type === 'send_message' ? agentAt(self, event.to) : undefined;
}

/** The inbox item an `inbox` or addressed `send_message` event carries. */
function inboxItemOf(event: AgentEvent): InboxItem | undefined {
  if (event.type === 'inbox') return event.item;
  if (event.type === 'send_message') return { text: event.message, origin: { kind: 'message', from: event.from } };
  return undefined;
}

/** The model request's input in the agent's current state (also what a resumed request is rebuilt from). */
export function sampleInputOf(context: AgentContext): SampleInput {
  return {
    path: context.input.path,
    dialogue: context.dialogue,
    system: context.input.system,
    model: context.input.model,
    effort: context.input.effort,
    turn: context.turnsCompleted,
    step: context.step,
    output: context.input.output,
  };
}

function turnReportOf(context: AgentContext, status: TurnStatus, stopReason: StopReason, error?: string): TurnReport {
  return {
    path: context.input.path,
    turn: context.turnsCompleted,
    text: context.lastText,
    openedBy: context.turnOpenedBy,
    status,
    stopReason,
    ...(error !== undefined ? { error } : {}),
    ...(context.input.output && context.value !== undefined ? { value: context.value } : {}),
    usage: context.usage,
    subtreeUsage: context.usage,
  };
}

/**
 * UTF-8 bytes of the agent's first model request: its head, the log up to its first reply, and
 * the model frame. Undefined when no request was answered.
 */
function firstRequestBytes(context: AgentContext): number | undefined {
  const log = context.dialogue.log;
  for (let p = context.dialogue.seedLength; p < log.length; p++) {
    if (log.at(p)?.kind === 'assistant') return requestBytesOf(context.input, log, p);
  }
  return undefined;
}

/** The result an agent reports from its current context. */
export function resultOf(context: AgentContext, now: number = Date.now()): AgentResult {
  const status = context.status ?? 'cancelled';
  return {
    text: context.lastText,
    ...(context.input.output && context.value !== undefined ? { value: context.value } : {}),
    path: context.input.path,
    role: context.input.role,
    context: context.input.contextLabel,
    contextMode: context.input.contextMode,
    status,
    stopReason: context.stopReason ?? (status === 'cancelled' ? 'cancelled' : 'completed'),
    error: context.error,
    elapsedMs: Math.max(0, now - context.input.startedAt),
    sessionId: context.input.sessionId,
    treeId: context.input.treeId,
    usage: context.usage,
    subtreeUsage: context.usage,
    turns: context.turnsCompleted,
    prefix: prefixReuseOf(context.input.prefix, firstRequestBytes(context)),
  };
}
