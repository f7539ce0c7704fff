/**
 * The runtime's public shapes: options, handles, reports.
 */
import type { TelemetryOptions } from '../otel/types.js';
import type { InspectionEvent, Observer } from 'xstate';
import type { AgentResult, Delivery, InboxItem, Lifetime, StopReason, TaskHookDecision, ToolOutcome, TurnReport, TurnStatus } from '../../machines/agent.types.js';
import type { ContextSpec } from '../context/types.js';
import type { Attachment, ToolCall } from '../dialogue/entry.js';
import type { DialogueView } from '../dialogue/types.js';
import type { ModelAdapter, Usage } from '../model/adapter.js';
import type { PriceTable } from '../model/prices.js';
import type { ResultMetadata } from '../../machines/subagent-reports.js';
import type { Summarizer } from '../model/summarizer.js';
import type { Effort, JsonObject } from '../request/types.js';
import type { Limits } from '../policy/limits.js';
import type { HostTool } from '../request/host-tool.js';
import type { PresetCatalog } from '../request/preset.js';
import type { RoleCatalogLimits } from '../request/role-catalog.js';
import type { RoleDefinition, RoleWarning } from './roles.js';
import type { PermissionMatcher } from '../policy/permission-pattern.js';
import type { ModelTable } from '../policy/model-alias.js';
import type { ToolNameMap } from '../policy/tool-mapping.js';
import type { RetentionPolicy } from './retention.js';
import type { MessagingPolicy } from '../policy/messaging.js';
import type { ConfirmCallback } from '../policy/confirmation.js';
import type { SessionStore, StoreError } from '../store/types.js';
import type { AccessCapability, CapabilityCatalog } from '../policy/capabilities.js';
import type { RetryPolicy } from '../policy/retry-policy.js';
import type { Clock } from '../model/clock.js';
import type { EventsOptions, RuntimeStreamEvent } from './stream-events.js';
import type { Budget } from '../policy/budget.js';
import type { BudgetRemaining, BudgetWarning } from './budget-ledger.js';

export type { Budget, BudgetRemaining, BudgetWarning };

export type { AgentResult, Delivery, Lifetime, TaskHookDecision, TurnReport };
export type { RetentionPolicy };

/** What a task hook sees. */
export interface TaskHookInput {
  readonly path: string;
  readonly parentPath: string | null;
  readonly role: string | undefined;
  readonly task: string;
  readonly context: string;
}


/**
 * Runs once per spawn, before any summary is generated. Hooks run in order; each sees the
 * task as the previous one left it. The verdict is read strictly (fail closed): only the
 * boolean `allow: true` lets the spawn go on, and a rewritten `task` must be a non-empty
 * string. Throwing, or returning anything else (`{ allow: "false" }`, `1`, a numeric task),
 * cancels the spawn as `hook_failed`, naming the hook; `allow: false` cancels it as
 * `hook_denied` with the reason when the reason is text.
 *
 * @example
 * ```ts
 * const noDeploys: TaskHook = ({ task }) => (/deploy/i.test(task) ? { allow: false, reason: 'no deploys today' } : { allow: true });
 * ```
 */
export type TaskHook = (input: TaskHookInput, signal: AbortSignal) => TaskHookDecision | Promise<TaskHookDecision>;

/** What a host tool's `execute` gets besides its validated arguments. */
export interface ToolExecutionContext {
  /** The calling agent's path. */
  readonly path: string;
  /** Aborts when the calling agent is cancelled. */
  readonly signal: AbortSignal;
  readonly callId: string;
  /** Directories outside the workspace the host granted the calling agent at its spawn (none for the root). */
  readonly externalDirectories: readonly string[];
  /** Whether the host let the calling agent load the project's extensions (true for the root). */
  readonly inheritsExtensions: boolean;
}

/** Whether a host tool's call needs approval: always, or by a predicate over its arguments. */
export type NeedsApproval<T = unknown> =
  | boolean
  // Method syntax keeps the predicate's argument bivariant, like `execute`'s, so a typed tool
  // is still a RuntimeTool<unknown>.
  | { check(args: T, context: { readonly path: string }): boolean | Promise<boolean> }['check'];

/** What the host's approval callback is asked. */
export interface ApprovalRequest {
  /** The agent making the call (a subagent's own path for its calls). */
  readonly path: string;
  readonly tool: string;
  /** The validated arguments. */
  readonly args: unknown;
  readonly callId: string;
}

/** The host's answer: approve or deny, optionally with a reason the model reads. */
export type ApprovalDecision = boolean | { readonly approved: boolean; readonly reason?: string };

/**
 * Asks the host to approve one tool call. `signal` aborts when the calling agent or its turn
 * is cancelled; nothing runs after that.
 */
export type ApprovalCallback = (request: ApprovalRequest, signal: AbortSignal) => ApprovalDecision | Promise<ApprovalDecision>;

/** A host tool's result: text for the model, flagged when it is an error. */
export type ToolOutput = string | { readonly content: string; readonly isError?: boolean };

/**
 * A host tool with its implementation: the host's schema (any Standard Schema or a JSON
 * Schema), its canonical JSON Schema, model-actionable argument errors, plus `execute`. Build one with
 * {@link defineRuntimeTool}.
 */
export interface RuntimeTool<T = unknown> extends HostTool<T> {
  /** Calls that need the host's approval (`RuntimeOptions.approve`) before they run. */
  readonly needsApproval?: NeedsApproval<T>;
  execute(args: T, context: ToolExecutionContext): ToolOutput | Promise<ToolOutput>;
  /**
   * What `Tool(pattern)` entries in a role's tool lists are matched on: the command of a
   * shell tool, the path(s) of a file tool. Without it, a pattern for this tool cannot be
   * checked, so a role that names the tool only with a pattern does not get it.
   */
  readonly permission?: PermissionMatcher<T>;
}

/** What the host decides per spawn, beyond what the model asked for. */
export interface SpawnPolicyInput {
  readonly parentPath: string;
  readonly taskName: string;
  readonly role: string | undefined;
  readonly context: ContextSpec;
}

/** The host's choices for one spawn. */
export interface SpawnPolicyDecision {
  readonly delivery?: Delivery;
  readonly lifetime?: Lifetime;
  /** Narrows the subagent's tools further than its role does (allow list, then deny list). */
  readonly tools?: { readonly allow?: readonly string[]; readonly deny?: readonly string[] };
  /** Directories outside the workspace this subagent's tools may use (asks for confirmation). */
  readonly externalDirectories?: readonly string[];
  /** Whether the subagent loads the project's extensions (asks for confirmation). */
  readonly inheritsExtensions?: boolean;
  /**
   * JSON Schema the subagent's final answer must match (structured output); replaces the
   * role's `output`. The result then carries the parsed `value`, and the parent model sees it
   * as JSON. An invalid schema fails the spawn with an `OutputSchemaError`.
   */
  readonly output?: JsonObject;
  /**
   * The subagent's budget caps; replaces its role's. Carved from its parent's remaining budget
   * when it is reserved (a spawn it does not fit is refused with a `budget` error).
   */
  readonly budget?: Budget;
}

/**
 * A root agent whose loop the host runs itself, as a coding harness does (the Pi extension is
 * one). The runtime keeps the root addressable and spawns its subagents, but never samples a
 * model for it: snapshots for the root's subagents are taken from the host's dialogue, and
 * whatever would enter the root's inbox (settlement notices, turn reports, messages) is handed
 * to the host to feed into its own loop.
 *
 * @example
 * ```ts
 * const runtime = createRuntime({
 *   model,
 *   hostRoot: {
 *     dialogue: () => myDialogue,
 *     deliver: (item) => myLoop.followUp(item.text),
 *   },
 * });
 * ```
 */
export interface HostRoot {
  /** The root's dialogue as the host holds it now (the in-flight Agent call may be its last entry). */
  dialogue(): DialogueView;
  /** An item for the root's inbox; the host delivers it into its own loop (for example as a follow-up). */
  deliver(item: InboxItem): void;
}

/** A tool call's outcome, as it enters the calling agent's dialogue (the machine's `ToolOutcome`). */
export type ToolCallOutcome = ToolOutcome;

/** Automatic compaction: when a request would pass `maxRequestBytes`, summarize first. */
export interface CompactionPolicy {
  readonly maxRequestBytes: number;
}

/** Options of {@link createRuntime}. */
export interface RuntimeOptions {
  /** The model every agent samples from. */
  readonly model: ModelAdapter;
  /** Writes summary backgrounds and compactions. Default: the model itself, when it can summarize. */
  readonly summarizer?: Summarizer;
  /** Model id agents use unless a spawn or role names another. Default `default`. */
  readonly modelId?: string;
  /** The root's system prompt, when no presets are given (a `default` preset is made from it). */
  readonly systemPrompt?: string;
  /** Named system configurations; presets may extend one another. */
  readonly presets?: PresetCatalog;
  /** The root's preset (default: the first of `presets`). Subagents inherit their parent's. */
  readonly preset?: string;
  /** Limits on depth (default 3), per-agent fan-out (default 8) and total live subagents (default unbounded). */
  readonly limits?: Partial<Limits>;
  /** Runtime-wide defaults; per spawn the host may override through `spawnPolicy`. */
  readonly defaults?: {
    readonly context?: ContextSpec;
    readonly delivery?: Delivery;
    /**
     * Subagents' lifetime when neither the spawn, the spawn policy, the role nor the parent's
     * preset sets one (default one-shot). The shipped default preset binds forks (`all`, N) to
     * `continuable`, unless this is set: `'one-shot'` here gives one-shot forks too.
     */
    readonly lifetime?: Lifetime;
    /**
     * Model requests per turn (default `DEFAULT_MAX_STEPS`, 20). Reaching it ends the turn with
     * status `max_steps` and the text so far: the root and continuable agents go idle and stay
     * usable, a one-shot subagent settles (failed, `max_steps`). A role's `maxSteps` (front matter key `maxTurns`) overrides it.
     */
    readonly maxSteps?: number;
  };
  /** The host's per-spawn choice of delivery and lifetime (never the model's). */
  readonly spawnPolicy?: (input: SpawnPolicyInput) => SpawnPolicyDecision | undefined;
  /** The host's own tools, registered for every agent after the built-in ones. */
  readonly tools?: readonly RuntimeTool[];
  /** Agent definitions spawns may name as `role`; without them a role is a plain label. */
  readonly roles?: Iterable<RoleDefinition>;
  /**
   * Whether a role without a `tools` list keeps `Agent` (and may start subagents of its own)
   * along with the rest of its parent's tools. Default `false`: as in Claude Code, such a
   * role inherits every tool but `Agent`. A role that lists `Agent` keeps it either way.
   */
  readonly allowNesting?: boolean;
  /**
   * How the `Agent` tool's description lists `roles` (fixed when the runtime starts): its byte
   * budget, description length and the host's ranking, or `false` to leave it out. Every role
   * stays reachable: by description, by name, or through the `find_roles` tool the runtime
   * registers when even the names do not fit. See `docs/agent-definitions.md` for the rule.
   */
  readonly roleCatalog?: RoleCatalogLimits | false;
  /**
   * Maps the tool names definition files use to this host's, e.g. `{ Read: 'read_file' }`;
   * a pattern moves with its tool (`Read(./src/**)` → `read_file(./src/**)`). A role entry
   * that still names no tool is reported in `warnings`.
   */
  readonly toolNames?: ToolNameMap;
  /**
   * Model aliases (`sonnet`, `opus`, `haiku`, and any name of the host's) → model ids,
   * ordered from the cheapest to the costliest; the order decides when a subagent's model is
   * costlier than its parent's and needs confirmation. `inherit` always means the parent's
   * model. With a table, a name that is neither a key nor a value is an error at spawn.
   */
  readonly models?: ModelTable;
  /**
   * The directory relative path patterns (`Read(./src/**)`) and relative call paths are
   * resolved against. Default: the process's working directory when the runtime starts.
   */
  readonly workspace?: string;
  /** Receives each role warning when the runtime starts (they are also in `runtime.warnings`). */
  readonly onWarning?: (warning: RoleWarning) => void;
  /** The project's trusted context (`AGENTS.md` text) given to independent subagents. */
  readonly projectContext?: string;
  /** Asks the host before a subagent gets a risky capability its parent lacks. */
  readonly confirm?: ConfirmCallback;
  /** What tools and models grant; confirmation is only asked when it is set. */
  readonly capabilities?: CapabilityCatalog;
  /** Capabilities the root holds without asking (beyond its own tools'). */
  readonly rootGrants?: readonly AccessCapability[];
  /**
   * Approves host-tool calls that need it (`needsApproval`), for every agent of the session.
   * A denial is a tool error the model reads; without this callback such calls are denied.
   *
   * @example
   * ```ts
   * createRuntime({ model, tools: [deploy], approve: ({ path, tool, args }) => askPerson(`${path} wants ${tool}`, args) });
   * ```
   */
  readonly approve?: ApprovalCallback;
  /** Task hooks, run in order once per spawn. */
  readonly taskHooks?: readonly TaskHook[];
  /** Compaction policy; off when omitted. */
  readonly compaction?: CompactionPolicy;
  /** An XState inspection observer for the whole tree (sanitized: no dialogues). */
  readonly inspect?: Observer<InspectionEvent> | ((event: InspectionEvent) => void);
  /**
   * Called when a listener given to `on`, or the `inspect` observer (`source` is then
   * `'inspect'`), throws (default: `console.error`); the runtime goes on.
   */
  readonly onListenerError?: (error: unknown, source: keyof RuntimeEvents | 'inspect') => void;
  /** Time source for elapsed times. Default `Date.now`. */
  readonly now?: () => number;
  /**
   * Prices per model id (per million tokens). With a table, every usage the runtime reports
   * (results, turn reports, `usage()`) carries a `cost`; an agent's background generation and
   * compactions are priced at the agent's model. A total that includes spending at a model
   * missing from the table has no `cost`. A malformed table throws a `TypeError`.
   */
  readonly prices?: PriceTable;
  /**
   * Caps on the whole session's spending (the root's subtree: every agent). Subagents get
   * their own caps from their role's `budget`, the host's spawn options or their `Agent` call
   * (smaller only), carved from their parent's remaining budget; a model request that could
   * cross a cap is not sent (stop reason `budget_exceeded`). A `costUsd` cap needs `prices`
   * for the model in use: without them `createRuntime` throws a `TypeError`. See docs/governance.md.
   *
   * @example
   * ```ts
   * createRuntime({ model, prices, budget: { tokens: 500_000, costUsd: 5, spawns: 40 } });
   * ```
   */
  readonly budget?: Budget;
  /**
   * The most output tokens one reply may use, as the budget check counts it: before each
   * model request of a capped agent, its input estimate plus this must fit in what remains.
   * Give your adapter the same limit (`aiSdkModel`'s `maxOutputTokens`). Default 4096.
   */
  readonly maxOutputTokens?: number;
  /**
   * What the parent model sees with each subagent result besides the answer: a list of fields
   * (default `DEFAULT_RESULT_METADATA`: agent id, status, stop reason, and the error when there
   * is one), or a function that builds the object. Hosts always get the full `AgentResult`.
   * An unknown field name throws a `TypeError`.
   *
   * @example
   * ```ts
   * createRuntime({ model, resultMetadata: [...DEFAULT_RESULT_METADATA, 'turns', 'usage'] });
   * ```
   */
  readonly resultMetadata?: ResultMetadata;
  /**
   * The tree's session id (results carry it as `treeId`; each agent has its own `sessionId`);
   * generated when omitted (a `store`'s session id wins).
   */
  readonly sessionId?: string;
  /**
   * Who may message whom (default: parent, own subagents, siblings) and what `list_agents`
   * shows of task texts. Applies to models' `send_message` and to `runtime.send`.
   */
  readonly messaging?: MessagingPolicy;
  /**
   * Journals the session to this store while it runs, so it can be resumed after a crash
   * with {@link resumeRuntime}. Create it with `createJsonlStore` (or `createPostgresStore`).
   */
  readonly store?: SessionStore;
  /**
   * Host tools that may run again after a crash interrupted them. A call of any other tool
   * that was running when the session stopped gets an error result saying it was interrupted.
   */
  readonly idempotentTools?: readonly string[];
  /**
   * How many settled agents the runtime keeps (results and final dialogues). Default: the
   * latest 1,000 (`DEFAULT_MAX_SETTLED`); `{ maxSettled: Infinity }` keeps all of them, and
   * `release(path)` drops one. See {@link RetentionPolicy}.
   */
  readonly retention?: RetentionPolicy;
  /** The host runs the root's loop itself (see {@link HostRoot}); `prompt` to the root is then refused. */
  readonly hostRoot?: HostRoot;
  /**
   * Retries of transient model failures (HTTP 408, 409, 429, 5xx, network errors, timeouts),
   * for every agent; a role's `retry` overrides it field by field. Default
   * `DEFAULT_RETRY_POLICY`: 2 retries after 2 s and 4 s (less up to 20% jitter), honouring the
   * provider's `retry-after`. Each retry is a `retry` event and counts in `Usage.retries`. A
   * failure that remains ends the turn (the root goes idle; a subagent fails with its result).
   *
   * @example
   * ```ts
   * createRuntime({ model, retry: { maxRetries: 4, initialDelayMs: 1_000 } });
   * ```
   */
  readonly retry?: RetryPolicy;
  /**
   * How long one model request (and one summary) may take, in ms, before its signal aborts
   * and it counts as a transient failure (default `DEFAULT_REQUEST_TIMEOUT_MS`, 10 minutes;
   * `Infinity` for none). A role's `requestTimeoutMs` overrides it.
   */
  readonly requestTimeoutMs?: number;
  /** What request timeouts and retry waits sleep on. Default `systemClock`; tests pass `manualClock()`. */
  readonly clock?: Clock;
  /**
   * OpenTelemetry traces of the agent tree (needs the optional peer `@opentelemetry/api`):
   * `invoke_agent`, `chat` and `execute_tool` spans following the GenAI semantic conventions,
   * each subagent under the `Agent` call that spawned it. Without a `tracer`, the global
   * provider's is used. See `docs/telemetry.md`.
   *
   * @example
   * ```ts
   * import { trace } from '@opentelemetry/api';
   * createRuntime({ model, telemetry: { tracer: trace.getTracer('my-app') } });
   * ```
   */
  readonly telemetry?: TelemetryOptions;
}

/** One live agent as `list_agents` and hosts see it. */
export interface AgentInfo {
  readonly path: string;
  readonly role: string | undefined;
  /** `reserved`, `preparingSummary`, `running.working.sampling`, `running.idle`, ... */
  readonly state: string;
  readonly context: string;
  readonly delivery: Delivery;
  readonly lifetime: Lifetime;
  readonly lastTask: string | null;
  readonly elapsedMs: number;
}

/** One agent a cancellation stopped, and the state it was in. */
export interface CancelledAgent {
  readonly path: string;
  readonly state: string;
}

/** What a cancellation stopped, children before parents. */
export interface CancelReport {
  readonly stopped: readonly CancelledAgent[];
}

/** A spawn as the model (or host) asks for it, before validation. */
export interface SpawnRequest {
  readonly task_name: string;
  readonly message: string;
  readonly role?: string;
  readonly context?: string | number;
  readonly model?: string;
  readonly effort?: Effort;
  readonly attachments?: readonly Attachment[];
  /** Smaller caps than the role's (or the host's) for this subagent; never larger. */
  readonly budget?: Budget;
}

/** What a started spawn gives its caller. */
export interface SpawnHandle {
  readonly path: string;
  readonly delivery: Delivery;
  readonly lifetime: Lifetime;
  /** Resolves with the result (one-shot) or first turn report (continuable) for caller delivery. */
  readonly firstReport: Promise<FirstReportValue>;
  /** Resolves with the agent's one result, whatever ends it. */
  readonly result: Promise<AgentResult>;
}

/** What resolves a caller-delivery spawn. */
export type FirstReportValue = { readonly kind: 'result'; readonly result: AgentResult } | { readonly kind: 'turn'; readonly text: string; readonly turn: number };

/** Options of {@link Runtime.prompt}. */
export interface PromptOptions {
  /** The agent to prompt (default the root). It must be running. */
  readonly to?: string;
  /** Files or snippets the prompt carries; the model sees each after the prompt's text. */
  readonly attachments?: readonly Attachment[];
  /** Aborting it cancels the turn answering this prompt, and the subagents that turn started. */
  readonly signal?: AbortSignal;
}

/** Events the runtime emits to hosts. */
export interface RuntimeEvents {
  /** An agent settled or was cancelled (exactly once per agent). */
  result: AgentResult;
  /** The root or a continuable agent finished a turn (completed, max_steps, failed or cancelled). */
  turn: TurnReport;
  /** The tree changed (spawn, state change, release); for live views. */
  change: { readonly path: string; readonly state: string };
  /** The session's store failed: it takes no new work (resume it from what the store kept). */
  halted: { readonly error: StoreError };
  /** A model request failed transiently and will be tried again after `delayMs`. */
  retry: RetryEvent;
  /** A budget cap reached its soft limit (default 80%); once per cap. */
  'budget-warning': BudgetWarning;
}

/**
 * A model request that failed transiently (HTTP 429, 5xx, a network error, a timeout) and
 * will be tried again.
 *
 * @example
 * ```ts
 * runtime.on('retry', (e) => console.warn(`${e.path}: attempt ${e.attempt} failed (${e.status ?? e.error}); retrying in ${e.delayMs} ms`));
 * ```
 */
export interface RetryEvent {
  /** The agent whose request failed (a summary or compaction counts for the agent it is for). */
  readonly path: string;
  /** The attempt that failed, from 1; the next one is `attempt + 1`. */
  readonly attempt: number;
  /** The wait before the next attempt: the backoff, or the provider's `retry-after`. */
  readonly delayMs: number;
  /** What went wrong, as text. */
  readonly error: string;
  /** The HTTP status, when the error carried one. */
  readonly status?: number;
}

/** The host's handle on a session. */
export interface Runtime {
  /** The tree's session id: every result carries it as `treeId`. */
  readonly sessionId: string;
  /** The same id under the name results use for it. */
  readonly treeId: string;
  /** The agent's own session id (live agents, and settled ones still retained). */
  sessionIdOf(path: string): string | undefined;
  /**
   * What the runtime found wrong with its roles when it started: tool names no tool has,
   * patterns for tools without a matcher, unknown model names, `bypassPermissions` without
   * a confirm callback. Each names the role and its file.
   */
  readonly warnings: readonly RoleWarning[];
  /** The root agent's path (`/root`). */
  readonly rootPath: string;
  /**
   * Sends a person's message to an agent (the root by default), starting its turn if it is
   * idle or joining the turn in progress. Resolves with that turn's outcome when it ends; a
   * failed model request or the step cap ends the turn, never the session. Rejects only for
   * bad input (then nothing was sent).
   *
   * @example
   * ```ts
   * const controller = new AbortController();
   * const outcome = await runtime.prompt('Why do nested blocks break?', { signal: controller.signal });
   * if (outcome.status === 'completed') console.log(outcome.text, outcome.usage.subtree);
   * ```
   */
  prompt(text: string, options?: PromptOptions): Promise<TurnOutcome>;
  /** Starts a subagent under `parentPath` as the Agent tool would, with the host's options. */
  spawn(parentPath: string, request: SpawnRequest, options?: SpawnPolicyDecision & { readonly signal?: AbortSignal }): Promise<SpawnHandle>;
  /**
   * Runs one model tool call (a built-in such as `Agent`, or a host tool) on behalf of a live
   * agent, as the agent machine would: for hosts that run an agent's loop themselves (see
   * {@link HostRoot}). Never rejects: a bad call resolves as an error outcome the model can read.
   *
   * @example
   * ```ts
   * const outcome = await runtime.callTool('/root', { id: 'call_1', name: 'list_agents', arguments: {} });
   * ```
   */
  callTool(path: string, call: ToolCall, options?: { readonly signal?: AbortSignal }): Promise<ToolCallOutcome>;
  /** Routes a `send_message` from one agent to another. Throws a RuntimeError on a bad target. */
  send(from: string, to: string, message: string): void;
  /** Cancels an agent's subtree, children first. Cancelling the root stops the session. */
  cancel(path: string, reason?: string): CancelReport;
  /** Closes a continuable agent (now if idle, at the end of its turn if working). */
  close(path: string): void;
  /** Compacts an agent's dialogue (now if idle, before its next model request otherwise). */
  compact(path: string): Promise<void>;
  /** Live agents, the root first. */
  list(): AgentInfo[];
  /** An agent's dialogue (live agents only; see `transcript` for settled ones). */
  dialogue(path: string): DialogueView | undefined;
  /**
   * The transcript of any agent of the session: a live agent's dialogue so far, or the final
   * dialogue of a settled or cancelled one, kept until the host calls `release(path)` or the
   * retention policy (`retention.maxSettled`, default keep all) drops it. Undefined for a
   * path the session never had or no longer keeps. A frozen value, never a copy.
   *
   * @example
   * ```ts
   * await runtime.prompt('Research the parser bug');
   * const log = runtime.transcript('/root/research')?.log.toArray();
   * runtime.release('/root/research');
   * ```
   */
  transcript(path: string): DialogueView | undefined;
  /** An agent's state string, or undefined when it is not live. */
  stateOf(path: string): string | undefined;
  /** The one result of an agent (waits for it if still live). */
  result(path: string): Promise<AgentResult>;
  /**
   * Results of settled agents in settlement order, as far as the retention policy keeps them
   * (every one by default). A frozen array; read it again to see later results.
   */
  readonly results: readonly AgentResult[];
  /**
   * Forgets a settled agent: drops its retained result and final dialogue. Returns whether
   * anything was retained. Throws a RuntimeError (`invalid_arguments`) for a live agent.
   *
   * @example
   * ```ts
   * const result = await runtime.result('/root/research');
   * store(result);
   * runtime.release('/root/research'); // a long-lived host keeps memory flat
   * ```
   */
  release(path: string): boolean;
  /** Resolves when no agent is working (all idle or finished). */
  whenQuiet(): Promise<void>;
  /** Subscribes to runtime events; returns the unsubscribe function. */
  on<K extends keyof RuntimeEvents>(type: K, listener: (event: RuntimeEvents[K]) => void): () => void;
  /**
   * Every event of the tree (or of `path`, and with `subtree` of its subagents too) as an
   * async iterable: text and reasoning deltas, tool calls started and finished, subagents
   * spawned and settled, state changes, usage updates, turn ends, retries. Events arrive in
   * the order they happened; each names its agent in `path`.
   *
   * - Subscribed at the call: nothing that happens after it is missed.
   * - Model requests stream deltas only while some iterator takes their agent's events; an
   *   adapter that does not stream yields its reply's text as one delta when it arrives.
   * - `break` (or `return()`) and an aborted `signal` unsubscribe and end the loop.
   * - The iteration ends by itself after `session-ended` (the session stopped) or `halted`,
   *   and, with `path`, after that agent's `subagent-settled`.
   * - Each iterator buffers at most `bufferSize` unread events (default 10,000); past that the
   *   oldest are dropped and a `lagged` event says how many, so a consumer that stops reading
   *   never grows the runtime's memory without bound.
   *
   * Throws a RuntimeError (`invalid_arguments`) for malformed options.
   *
   * @example
   * ```ts
   * const watching = new AbortController();
   * void (async () => {
   *   for await (const event of runtime.events({ signal: watching.signal })) {
   *     if (event.type === 'text-delta') process.stdout.write(event.text);
   *     if (event.type === 'tool-call-started') console.log(`\n${event.path} calls ${event.toolName}`);
   *   }
   * })();
   * await runtime.prompt('Why do nested blocks break?');
   * watching.abort();
   * ```
   */
  events(options?: EventsOptions): AsyncIterableIterator<RuntimeStreamEvent>;
  /**
   * The session's total usage so far: every agent's replies, retries, background generation
   * and compactions, cancelled agents included; with `cost` when `prices` covers them.
   *
   * @example
   * ```ts
   * await runtime.whenQuiet();
   * const { inputTokens, requests, cost } = runtime.usage();
   * ```
   */
  usage(): Usage;
  /**
   * What a live agent may still spend, per dimension its subtree is capped in (its own cap,
   * or the nearest ancestor's); undefined for an agent that is not live. See docs/governance.md.
   *
   * @example
   * ```ts
   * const left = runtime.budgetOf('/root'); // { tokens: 412000, spawns: 37 }
   * ```
   */
  budgetOf(path: string): BudgetRemaining | undefined;
  /** Slots held by live subagents (reserved or running). */
  readonly slotsInUse: number;
  /** Stops the whole session (cancels the root's subtree). */
  stop(reason?: string): CancelReport;
}

/** Usage of one turn: the prompted agent's own, and its whole subtree's (itself included). */
export interface TurnUsage {
  readonly own: Usage;
  readonly subtree: Usage;
}

/**
 * What `await runtime.prompt(...)` gives: how the turn that answered the prompt ended.
 *
 * - `status` `completed`: the model gave its final answer.
 * - `max_steps`: the step cap ended the turn; `text` is what the turn had said so far.
 * - `failed`: a model request still failed after its retries (`error` says why); the agent
 *   is idle again and takes the next prompt.
 * - `cancelled`: the prompt's signal aborted (or the agent was stopped); `cancelled` lists
 *   every agent stopped, children first.
 */
export interface TurnOutcome {
  readonly path: string;
  /** Zero-based number of the turn that answered the prompt. */
  readonly turn: number;
  readonly text: string;
  readonly status: TurnStatus;
  readonly stopReason: StopReason;
  readonly error?: string;
  readonly usage: TurnUsage;
  /** Results of the agent's subagents (at any depth) that settled during the turn, in order. */
  readonly subagents: readonly AgentResult[];
  /** What the abort stopped, when the prompt's signal cancelled the turn. */
  readonly cancelled?: CancelReport;
}
