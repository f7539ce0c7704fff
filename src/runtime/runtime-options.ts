/**
 * What `createRuntime` takes: its options, and the host-run root.
 */
import type { InspectionEvent, Observer } from 'xstate';
import type { Delivery, InboxItem, Lifetime } from '../../machines/agent.types.js';
import type { ResultMetadata } from '../../machines/subagent-reports.js';
import type { ContextSpec } from '../context/types.js';
import type { DialogueView } from '../dialogue/types.js';
import type { ModelAdapter } from '../model/adapter.js';
import type { Clock } from '../model/clock.js';
import type { PriceTable } from '../model/prices.js';
import type { Summarizer } from '../model/summarizer.js';
import type { TelemetryOptions } from '../otel/types.js';
import type { Budget } from '../policy/budget.js';
import type { AccessCapability, CapabilityCatalog } from '../policy/capabilities.js';
import type { ConfirmCallback } from '../policy/confirmation.js';
import type { Limits } from '../policy/limits.js';
import type { MessagingPolicy } from '../policy/messaging.js';
import type { ModelTable } from '../policy/model-alias.js';
import type { RetryPolicy } from '../policy/retry-policy.js';
import type { ToolNameMap } from '../policy/tool-mapping.js';
import type { PresetCatalog } from '../request/preset.js';
import type { RoleCatalogLimits } from '../request/role-catalog.js';
import type { SessionStore } from '../store/types.js';
import type { RetentionPolicy } from './retention.js';
import type { RoleDefinition, RoleWarning } from './roles.js';
import type { RuntimeEvents } from './runtime-events.js';
import type { SpawnPolicyDecision, SpawnPolicyInput } from './spawn-types.js';
import type { TaskHook } from './task-hooks.js';
import type { ApprovalCallback, ApprovalRules, RuntimeTool } from './tool-types.js';

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
  /**
   * Asks the host before a subagent gets a risky capability its parent lacks. Without it, a
   * model costlier than the parent's (by the catalog, the models table or `prices`) is
   * refused, or replaced by the parent's when a role asked for it (see docs/governance.md).
   */
  readonly confirm?: ConfirmCallback;
  /** What tools and models grant; confirmation is only asked when it is set. */
  readonly capabilities?: CapabilityCatalog;
  /** Capabilities the root holds without asking (beyond its own tools'). */
  readonly rootGrants?: readonly AccessCapability[];
  /**
   * Approves calls that need it (`needsApproval`, or one of `approvalRules`), for every agent
   * of the session. A callback is asked each request; `'queue'` asks nobody: requests wait
   * for `runtime.answerApproval` (list them with `runtime.approvals()`, watch the
   * `approval-requested` event). Either way the host may answer through `answerApproval`
   * first, and each request is answered once. A denial is a tool error the model reads,
   * naming the rule; without `approve` such calls are denied at once. See docs/governance.md.
   *
   * @example
   * ```ts
   * createRuntime({ model, tools: [deploy], approve: ({ path, toolName, args }) => askPerson(`${path} wants ${toolName}`, args) });
   * ```
   */
  readonly approve?: ApprovalCallback | 'queue';
  /** Calls that ask for approval besides those of `needsApproval` tools (see {@link ApprovalRules}). */
  readonly approvalRules?: ApprovalRules;
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
   * Whether reaching a budget's soft limit (`Budget.softLimit`, default 80%) also tells the
   * agents concerned, besides the `budget-warning` event: the agent whose cap it is and the
   * agent whose spending reached it each get one notice in their next model request, a user
   * entry (origin `notice`, from the cap's agent) naming the dimension, what is used and what
   * remains. It is written into the agent's dialogue there, exactly once per soft limit
   * reached, so later requests, the journal and a resume hold it like any other entry. A
   * request that fails without a reply leaves the notice for the next one. Default false:
   * requests carry nothing the host did not ask for. See docs/governance.md.
   *
   * @example
   * ```ts
   * createRuntime({ model, budget: { tokens: 200_000, softLimit: 0.75 }, budgetNotice: true });
   * // After 150,000 tokens, the next request of the agent ends with a user entry like:
   * // Budget notice from the runtime:
   * // - your tokens budget (you and every agent under you spend from it) reached 75%: 150000 tokens used of 200000 tokens, 50000 tokens left.
   * // A model request that could cross a budget is not sent: finish within what is left.
   * ```
   */
  readonly budgetNotice?: boolean;
  /**
   * What the parent model sees with each subagent result besides the answer: a list of fields
   * (default `DEFAULT_RESULT_METADATA`: agent id, role when there is one, context, elapsed
   * milliseconds from `now`, status, stop reason, the subagent's own session id, and the error
   * when there is one), or a function that builds the object. A parent-delivery receipt shows
   * the listed fields known at the start. Hosts always get the full `AgentResult`. An unknown
   * field name throws a `TypeError`.
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
