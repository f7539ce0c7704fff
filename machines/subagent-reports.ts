/**
 * What parents read about their subagents: results, receipts, notices and turn reports.
 * Canonical JSON, so the same outcome always costs the same bytes in the parent's dialogue,
 * and never a transcript: the final text (or structured value) plus compact metadata the host
 * chooses.
 */
import type { AgentResult, SubagentReport, SubagentReportEvent, ToolOutcome, TurnReport } from './agent.types.js';
import type { JsonValue } from '../src/dialogue/entry.js';
import type { Usage } from '../src/request/usage.js';
import { canonicalJson } from '../src/request/canonical.js';
import type { AnyActorRef } from 'xstate';
import { setTreeService, treeService, type TreeSystem } from './tree-service.js';

/**
 * A metadata field the parent model can be shown with a subagent's result. Every field is
 * reproducible: `elapsed_ms` comes from the runtime's clock (a manual clock gives the same
 * figure every run) and `session_id` from the tree's id, so two identical sessions send the
 * model the same bytes and its prompt cache still serves the second.
 */
export type ResultMetadataField =
  | 'agent_id'
  | 'status'
  | 'stop_reason'
  | 'error'
  | 'role'
  | 'context'
  | 'turns'
  | 'elapsed_ms'
  | 'session_id'
  | 'tree_id'
  | 'usage'
  | 'subtree_usage'
  | 'prefix';

/**
 * What the parent model sees with each result by default, as the context-modes design record
 * says: who answered (`agent_id`, and `role` when the subagent runs an agent definition), what
 * it saw (`context`), how long it took (`elapsed_ms`), how it ended (`status`, `stop_reason`,
 * `error` when there is one) and its own `session_id`.
 */
export const DEFAULT_RESULT_METADATA: readonly ResultMetadataField[] = Object.freeze(['agent_id', 'role', 'context', 'elapsed_ms', 'status', 'stop_reason', 'session_id', 'error']);

/** The metadata a parent model sees: chosen fields, or the host's own function of the result. */
export type ResultMetadata = readonly ResultMetadataField[] | ((result: AgentResult) => Readonly<Record<string, JsonValue>>);

/** Metadata objects are built from this; `undefined` leaves a field out. */
type FieldValue = JsonValue | undefined;

function usageJson(u: Usage): JsonValue {
  return {
    input_tokens: u.inputTokens,
    output_tokens: u.outputTokens,
    cache_read_tokens: u.cacheReadTokens,
    cache_write_tokens: u.cacheWriteTokens,
    requests: u.requests,
    retries: u.retries,
    ...(u.cost !== undefined ? { cost: u.cost } : {}),
  };
}

const FIELDS: { readonly [K in ResultMetadataField]: (result: AgentResult) => FieldValue } = {
  agent_id: (r) => r.path,
  status: (r) => r.status,
  stop_reason: (r) => r.stopReason,
  error: (r) => r.error,
  role: (r) => r.role,
  context: (r) => r.context,
  turns: (r) => r.turns,
  elapsed_ms: (r) => Math.round(r.elapsedMs),
  session_id: (r) => r.sessionId,
  tree_id: (r) => r.treeId,
  usage: (r) => usageJson(r.usage),
  subtree_usage: (r) => usageJson(r.subtreeUsage),
  prefix: (r) => ({
    shared_bytes: r.prefix.sharedBytes,
    shared_tokens: r.prefix.sharedTokens,
    shared_ratio: Math.round(r.prefix.sharedRatio * 1000) / 1000,
    ...(r.prefix.reasons.length > 0 ? { reasons: [...r.prefix.reasons] } : {}),
  }),
};

/** Checks a host's metadata choice once, at runtime creation (a typo would silently hide a field). */
export function checkResultMetadata(choice: ResultMetadata | undefined): ResultMetadata {
  if (choice === undefined) return DEFAULT_RESULT_METADATA;
  if (typeof choice === 'function') return choice;
  if (!Array.isArray(choice)) throw new TypeError('resultMetadata must be a list of field names or a function of the result');
  for (const field of choice) {
    if (typeof field !== 'string' || !Object.hasOwn(FIELDS, field)) {
      throw new TypeError(`resultMetadata: unknown field ${JSON.stringify(field)}; known fields: ${Object.keys(FIELDS).join(', ')}`);
    }
  }
  return Object.freeze([...choice]);
}

/** The metadata object of a result under a (checked) choice. */
export function resultMetadata(result: AgentResult, choice: ResultMetadata): Record<string, JsonValue> {
  if (typeof choice === 'function') return { ...choice(result) };
  const out: Record<string, JsonValue> = {};
  for (const field of choice) {
    const value = FIELDS[field](result);
    if (value !== undefined) out[field] = value;
  }
  return out;
}

/** What the parent model reads as the subagent's answer: the structured value, else the text. */
function answerOf(result: AgentResult): JsonValue {
  return result.value !== undefined ? result.value : result.text;
}

/**
 * The Agent tool's result for caller delivery: the chosen metadata plus `result`, in
 * canonical JSON (the same outcome always costs the same bytes).
 */
export function resultToolContent(result: AgentResult, choice: ResultMetadata = DEFAULT_RESULT_METADATA): string {
  return canonicalJson({ ...resultMetadata(result, choice), result: answerOf(result) });
}

/** What a parent-delivery receipt can say about a subagent that has just started. */
export interface ReceiptInput {
  readonly path: string;
  readonly role: string | undefined;
  readonly context: string;
  readonly lifetime: string;
  /** The subagent's own session id (unknown only when its record is already gone). */
  readonly sessionId: string | undefined;
  readonly treeId: string;
}

/** The metadata fields a receipt can fill in: those known when a subagent starts. */
const RECEIPT_FIELDS: { readonly [K in ResultMetadataField]?: (input: ReceiptInput) => FieldValue } = {
  agent_id: (i) => i.path,
  role: (i) => i.role,
  context: (i) => i.context,
  session_id: (i) => i.sessionId,
  tree_id: (i) => i.treeId,
};

/**
 * The Agent tool's immediate receipt for parent delivery. It follows the host's metadata
 * choice: of the chosen fields it shows those known at the start (`agent_id`, `role`,
 * `context`, `session_id`, `tree_id`), with `status: "started"` and the lifetime. A choice
 * that is a function describes results only; the receipt then names just the agent.
 */
export function receiptToolContent(input: ReceiptInput, choice: ResultMetadata = DEFAULT_RESULT_METADATA): string {
  const out: Record<string, JsonValue> = { agent_id: input.path };
  if (typeof choice !== 'function') {
    for (const field of choice) {
      const value = RECEIPT_FIELDS[field]?.(input);
      if (value !== undefined) out[field] = value;
    }
  }
  return canonicalJson({
    ...out,
    status: 'started',
    lifetime: input.lifetime,
    note: 'The result will arrive later as a message from the runtime; you can continue meanwhile.',
  });
}

/** The Agent tool's result when a continuable subagent finished its first turn (caller delivery). */
export function firstTurnToolContent(input: { path: string; text: string; turn: number }): string {
  return canonicalJson({
    agent_id: input.path,
    status: 'idle',
    turn: input.turn,
    result: input.text,
    note: 'The subagent stays available: send follow-ups with send_message, end it with close_agent.',
  });
}

/** A settlement notice that enters the parent's inbox (parent delivery, or late settlement). */
export function settlementNotice(result: AgentResult, choice: ResultMetadata = DEFAULT_RESULT_METADATA): string {
  return `<subagent_result>\n${resultToolContent(result, choice)}\n</subagent_result>`;
}

/** A continuable subagent's turn report for its parent's inbox. */
export function turnNotice(report: Pick<TurnReport, 'path' | 'turn' | 'text'>): string {
  return `<subagent_turn>\n${canonicalJson({ agent_id: report.path, status: 'idle', turn: report.turn, result: report.text })}\n</subagent_turn>`;
}

/** What a `cancel_agent` call returns: what it stopped, children first. */
export function cancelToolContent(stopped: readonly { readonly path: string; readonly state: string }[]): string {
  return canonicalJson({ cancelled: stopped.map((s) => ({ agent_id: s.path, state: s.state })) });
}

/**
 * How a parent's model reads what its subagents report: the `Agent` call's result (caller
 * delivery, the first report) and the inbox notice (every other report). The agent machine
 * writes these itself when a `subagent.report` arrives; a host changes only the wording.
 */
export interface ReportPresenter {
  /** The `Agent` call's result text and error flag for a report that answers it. */
  callResult(report: SubagentReport): ToolOutcome;
  /** The notice that enters the parent's inbox for any other report. */
  notice(report: SubagentReport): string;
}

/**
 * The presenter for a metadata choice. `finalResult` maps the result an agent reported to the
 * one its host completed (its subtree usage, say); by default it is the result as reported.
 *
 * @example
 * ```ts
 * const present = reportPresenter(['agent_id', 'status', 'usage']);
 * present.notice({ kind: 'result', result }); // '<subagent_result>\n{"agent_id":…}\n</subagent_result>'
 * ```
 */
export function reportPresenter(choice: ResultMetadata = DEFAULT_RESULT_METADATA, finalResult: (reported: AgentResult) => AgentResult = (r) => r): ReportPresenter {
  return {
    callResult: (report) => {
      if (report.kind === 'turn') return { content: firstTurnToolContent({ path: report.turn.path, text: report.turn.text, turn: report.turn.turn }), isError: false };
      const result = finalResult(report.result);
      return { content: resultToolContent(result, choice), isError: result.status !== 'completed' };
    },
    notice: (report) => (report.kind === 'turn' ? turnNotice(report.turn) : settlementNotice(finalResult(report.result), choice)),
  };
}

const DEFAULT_PRESENTER = reportPresenter();

/** How the agents of one actor system handle their subagents' reports. */
export interface ReportSettings {
  /** The wording (default: {@link reportPresenter} with the default metadata). */
  readonly presenter?: ReportPresenter;
  /**
   * Takes a report before it reaches its parent's actor, returning true when it did: for a
   * parent whose loop the host runs (a host-run root), whose machine must not open a turn.
   */
  readonly handOver?: (event: SubagentReportEvent) => boolean;
  /**
   * Completes a settling agent's result as the host measures it (elapsed time by its clock,
   * subtree usage, the prefix its provider shared) when the agent takes it: the host's hook,
   * the parent's report and the actor's output then all carry the completed result. By
   * default the result is taken as the agent made it.
   */
  readonly complete?: (made: AgentResult) => AgentResult;
}

/** The system id of a tree's report settings (no agent path starts this way). */
export const REPORT_SETTINGS_ID = 'subagent-actors:report-settings';

/**
 * Sets how every agent of one tree handles its subagents' reports (a runtime does this for
 * its tree; an embedder who keeps the default wording never needs to). `agent` is any agent
 * of the tree, usually its root; the settings are held by a small actor registered in the
 * tree's system, so they last as long as the tree does.
 *
 * @example
 * ```ts
 * configureReports(root, { presenter: reportPresenter(['agent_id', 'status', 'usage']) });
 * ```
 */
export function configureReports(agent: AnyActorRef, value: ReportSettings): void {
  if (typeof agent !== 'object' || agent === null || typeof (agent as Partial<AnyActorRef>).send !== 'function' || typeof (agent as Partial<AnyActorRef>).system !== 'object') {
    throw new TypeError('configureReports takes an agent of the tree (its root actor), not its system: configureReports(root, settings)');
  }
  setTreeService(agent, REPORT_SETTINGS_ID, value);
}

/** The presenter of an actor system (the default wording unless one was set). */
export function presenterOf(system: TreeSystem): ReportPresenter {
  return treeService<ReportSettings>(system, REPORT_SETTINGS_ID)?.presenter ?? DEFAULT_PRESENTER;
}

/** A settling agent's result as its tree's host completes it (the same object without a host). */
export function completedResult(system: TreeSystem, made: AgentResult): AgentResult {
  const complete = treeService<ReportSettings>(system, REPORT_SETTINGS_ID)?.complete;
  return complete ? complete(made) : made;
}

/** Hands a report to the host when the system's settings take it; true when taken. */
export function handedOver(system: TreeSystem, event: SubagentReportEvent): boolean {
  return treeService<ReportSettings>(system, REPORT_SETTINGS_ID)?.handOver?.(event) === true;
}
