/**
 * The events agent paths are made of, and the payloads they carry: the completions of the
 * invoked actors (`xstate.done.actor.*`, `xstate.error.actor.*`), tool results, inbox items,
 * close, cancel and compaction. Payloads are named; a name is the step's label in a path.
 */
import type {
  AgentContext,
  AgentEvent,
  TaskHookDecision,
  InboxItem,
  SampleOutput,
  SubagentReport,
  SummaryResult,
} from '../../machines/agent.types.js';
import { NOTHING_INHERITED, prefixReuseOf } from '../request/prefix-reuse.js';
import { compactionEntry, type JsonValue, type ToolCall } from '../dialogue/entry.js';
import { ZERO_USAGE, type Usage } from '../model/adapter.js';
import type { OutputCheck } from '../request/output-schema.js';
import { SUBAGENT_ID_PREFIX } from '../../machines/subagent-ids.js';
import { createAgentInput } from '../../machines/agent.input.js';

/** A model reply as a path step delivers it; tool calls get ids unique in the agent's dialogue. */
export interface ReplyTemplate {
  readonly text?: string;
  readonly toolCalls?: ReadonlyArray<{ readonly name: string; readonly arguments?: JsonValue }>;
  readonly usage?: Usage;
  /** The runtime's check of a final answer against an output schema (structured output). */
  readonly output?: OutputCheck;
  /** The runtime refused to send the request (a hard budget cap); the reply is then empty. */
  readonly budgetStop?: string;
}

/** A tool call's outcome as a path step delivers it. */
export interface ToolOutcomeTemplate {
  readonly content: string;
  readonly isError: boolean;
}

/**
 * Named payloads of path events. Each given record replaces the default one. Every entry is
 * tried wherever its event is enabled, so each guarded branch needs one payload that selects
 * it (an allowed and a denied hook outcome, a reply with and one without tool calls).
 */
export interface AgentPayloads {
  /** `xstate.done.actor.hooks` outputs. */
  readonly hooks?: Readonly<Record<string, TaskHookDecision>>;
  /** `xstate.error.actor.hooks` errors. */
  readonly hookErrors?: Readonly<Record<string, unknown>>;
  /** `xstate.done.actor.summary` outputs. */
  readonly summaries?: Readonly<Record<string, SummaryResult>>;
  /** `xstate.error.actor.summary` errors. */
  readonly summaryErrors?: Readonly<Record<string, unknown>>;
  /** `xstate.done.actor.model` outputs. */
  readonly replies?: Readonly<Record<string, ReplyTemplate>>;
  /**
   * `xstate.done.actor.model` outputs of requests the runtime did not send because they could
   * cross a hard budget cap: the reason each names.
   */
  readonly budgetStops?: Readonly<Record<string, string>>;
  /** `xstate.error.actor.model` errors. */
  readonly modelErrors?: Readonly<Record<string, unknown>>;
  /** `xstate.error.actor.tools` errors: the actor running a step's tool calls fails. */
  readonly toolStepErrors?: Readonly<Record<string, unknown>>;
  /** The `tool.result` of a call (the last call still awaited is answered first). */
  readonly toolResult?: (call: ToolCall) => ToolOutcomeTemplate;
  /** `inbox` items. */
  readonly inbox?: Readonly<Record<string, InboxItem>>;
  /** `compaction.apply` summaries (anchored at nothing: they replace all earlier entries). */
  readonly compactions?: Readonly<Record<string, string>>;
  /** The `cancel` reason. */
  readonly cancelReason?: string;
}

/** The default payloads: one per guarded branch, two concurrent tool calls per acting step. */
export const DEFAULT_PAYLOADS: Required<AgentPayloads> = {
  hooks: {
    'hooks allow (rewritten task)': { allow: true, task: 'the task, as the hooks rewrote it' },
    'hooks deny': { allow: false, reason: 'denied by a test hook' },
  },
  hookErrors: { 'hooks fail': new Error('a test hook threw') },
  summaries: { 'summary ready': { text: 'Background: what the delegating agent found so far.', usage: ZERO_USAGE } },
  summaryErrors: { 'summary fails': new Error('summary generation failed') },
  replies: {
    'reply with 2 tool calls': {
      text: 'Looking things up.',
      toolCalls: [
        { name: 'lookup', arguments: { q: 'first' } },
        { name: 'lookup', arguments: { q: 'second' } },
      ],
    },
    'final reply': { text: 'Here is the answer.' },
  },
  budgetStops: { 'request refused by budget': 'the next model request could use 900 tokens, more than the budget has left (100 tokens)' },
  modelErrors: { 'model fails': new Error('model request failed') },
  toolStepErrors: { 'tool step crashes': new Error('the tool step actor threw') },
  toolResult: (call: ToolCall): ToolOutcomeTemplate => ({ content: `result of ${call.id}`, isError: false }),
  inbox: { inbox: { text: 'A follow-up message.', origin: { kind: 'message', from: '/root/peer' } } },
  compactions: { compaction: 'Summary of everything so far.' },
  cancelReason: 'cancelled by the path test',
};

/** An event of an agent path: an agent event or an invoked actor's completion. */
export type AgentPathEvent =
  | AgentEvent
  | { readonly type: `xstate.done.actor.${string}`; readonly output: unknown }
  | { readonly type: `xstate.error.actor.${string}`; readonly error: unknown };

/** Payloads with defaults filled in. */
export function resolvePayloads(payloads: AgentPayloads = {}): Required<AgentPayloads> {
  return { ...DEFAULT_PAYLOADS, ...Object.fromEntries(Object.entries(payloads).filter(([, v]) => v !== undefined)) };
}

/** A labelled path event. */
export interface LabelledEvent {
  readonly label: string;
  readonly event: AgentPathEvent;
}

/** The model output a reply template yields in `context`: call ids unique per turn and step. */
export function replyOutput(template: ReplyTemplate, context: Pick<AgentContext, 'turnsCompleted' | 'step'>): SampleOutput {
  const toolCalls: ToolCall[] = (template.toolCalls ?? []).map((call, i) => ({
    id: `call_t${context.turnsCompleted}_s${context.step}_${i}`,
    name: call.name,
    arguments: call.arguments ?? {},
  }));
  return {
    response: { text: template.text ?? '', toolCalls, usage: template.usage ?? ZERO_USAGE },
    compaction: undefined,
    ...(template.output ? { output: template.output } : {}),
    ...(template.budgetStop !== undefined ? { budgetStop: { reason: template.budgetStop } } : {}),
  };
}

/** Every candidate event in an agent state (the path generator keeps the enabled ones). */
export function candidateEvents(context: AgentContext, payloads: Required<AgentPayloads>): LabelledEvent[] {
  const out: LabelledEvent[] = [];
  const each = <T>(record: Readonly<Record<string, T>>, make: (value: T) => AgentPathEvent): void => {
    for (const [label, value] of Object.entries(record)) out.push({ label, event: make(value) });
  };
  each(payloads.hooks, (output) => ({ type: 'xstate.done.actor.hooks', output }));
  each(payloads.hookErrors, (error) => ({ type: 'xstate.error.actor.hooks', error }));
  each(payloads.summaries, (output) => ({ type: 'xstate.done.actor.summary', output }));
  each(payloads.summaryErrors, (error) => ({ type: 'xstate.error.actor.summary', error }));
  each(payloads.replies, (template) => ({ type: 'xstate.done.actor.model', output: replyOutput(template, context) }));
  each(payloads.budgetStops, (reason) => ({ type: 'xstate.done.actor.model', output: replyOutput({ budgetStop: reason }, context) }));
  each(payloads.modelErrors, (error) => ({ type: 'xstate.error.actor.model', error }));
  each(payloads.toolStepErrors, (error) => ({ type: 'xstate.error.actor.tools', error }));
  const call = awaitedCall(context);
  if (call) out.push({ label: 'tool result', event: { type: 'tool.result', callId: call.id, toolName: call.name, ...payloads.toolResult(call) } });
  // A subagent's report: the first one answers the call that started it; any other is a notice.
  if (call) out.push({ label: 'subagent answers the call', event: { type: 'subagent.report', from: `${context.input.path}/helper`, callId: call.id, report: helperReport(context) } });
  out.push({ label: 'subagent result notice', event: { type: 'subagent.report', from: `${context.input.path}/helper`, callId: null, report: helperReport(context) } });
  each(payloads.inbox, (item) => ({ type: 'inbox', item }));
  out.push({ label: 'message from a peer', event: { type: 'send_message', from: '/root/peer', to: context.input.path, message: 'A message from a peer.' } });
  out.push({
    label: 'spawn a subagent',
    event: { type: 'subagent.spawn', input: createAgentInput({ model: context.input.model, task: 'Help with one part.', path: `${context.input.path}/helper` }) },
  });
  out.push({ label: 'message to a peer', event: { type: 'send_message', from: context.input.path, to: '/root/peer', message: 'A message to a peer.' } });
  out.push({ label: 'subagent crashed', event: { type: `xstate.error.actor.${SUBAGENT_ID_PREFIX}0`, error: new Error('subagent crashed') } });
  out.push({ label: 'close', event: { type: 'close' } });
  out.push({ label: 'interrupt', event: { type: 'interrupt', reason: 'turn cancelled by the path test' } });
  out.push({ label: 'cancel', event: { type: 'cancel', reason: payloads.cancelReason } });
  each(payloads.compactions, (summary) => ({
    type: 'compaction.apply',
    entry: compactionEntry({ summary, anchorId: null, id: `c_test_${context.dialogue.length}` }),
    basedOn: context.dialogue.length,
  }));
  // One written for a dialogue that has moved on since: refused, its cost still counted.
  for (const [label, summary] of Object.entries(payloads.compactions)) {
    out.push({
      label: `${label} (stale)`,
      event: {
        type: 'compaction.apply',
        entry: compactionEntry({ summary, anchorId: null, id: `c_stale_${context.dialogue.length}` }),
        basedOn: context.dialogue.length + 1,
        usage: { ...ZERO_USAGE, inputTokens: 100, outputTokens: 10, requests: 1 },
      },
    });
  }
  return out;
}

/** The last tool call still awaiting its result. */
/** A completed result of the agent's subagent `helper`, as its `subagent.report` carries it. */
function helperReport(context: AgentContext): SubagentReport {
  const path = `${context.input.path}/helper`;
  return {
    kind: 'result',
    result: {
      text: 'The helper found it.',
      path,
      role: undefined,
      context: 'none',
      contextMode: 'none',
      status: 'completed',
      stopReason: 'completed',
      error: undefined,
      elapsedMs: 0,
      sessionId: context.input.sessionId,
      treeId: context.input.treeId,
      usage: ZERO_USAGE,
      subtreeUsage: ZERO_USAGE,
      turns: 1,
      prefix: prefixReuseOf(NOTHING_INHERITED, undefined),
    },
  };
}

/** The first call (in call order) still awaiting its result: answering it writes it, and any held after it. */
function awaitedCall(context: AgentContext): ToolCall | undefined {
  return context.dialogue.pendingCalls().find((call) => context.dialogue.isPendingCall(call.id));
}
