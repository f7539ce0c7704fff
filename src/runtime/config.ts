/**
 * A runtime's validated configuration, built once from the host's {@link RuntimeOptions}: the
 * checks run here (retry policy, request timeout, prices, result metadata, limits), the role
 * catalog, the agent heads, the summarizer and the host tools are prepared here, and the rest
 * of the runtime reads this object. Nothing else reads `RuntimeOptions`.
 */
import { homedir } from 'node:os';
import { resolve as resolvePath } from 'node:path';
import { nanoid } from 'nanoid';
import { resolveLimits, type Limits } from '../policy/limits.js';
import type { PathAnchors } from '../policy/permission-pattern.js';
import { toolCapabilities } from '../policy/capabilities.js';
import { resolveModelName } from '../policy/model-alias.js';
import { checkRequestTimeout, checkRetryPolicy } from '../policy/retry-policy.js';
import { capsAnything, checkBudget } from '../policy/budget.js';
import { checkPriceTable, type PriceTable } from '../model/prices.js';
import { systemClock, type Clock } from '../model/clock.js';
import type { Summarizer } from '../model/summarizer.js';
import { checkResultMetadata, type ResultMetadata } from '../../machines/subagent-reports.js';
import { Heads } from './heads.js';
import { knownToolsOf, Roles } from './roles.js';
import { Confirmer } from './confirm.js';
import { summarizerFor } from './summarizer-choice.js';
import type { RuntimeOptions, RuntimeTool } from './types.js';

/** The host's settings the runtime reads as given (each checked where it is used). */
export type HostSettings = Pick<
  RuntimeOptions,
  | 'model'
  | 'modelId'
  | 'models'
  | 'defaults'
  | 'spawnPolicy'
  | 'allowNesting'
  | 'projectContext'
  | 'capabilities'
  | 'approve'
  | 'taskHooks'
  | 'compaction'
  | 'inspect'
  | 'onListenerError'
  | 'messaging'
  | 'store'
  | 'idempotentTools'
  | 'retention'
  | 'hostRoot'
  | 'retry'
  | 'requestTimeoutMs'
  | 'telemetry'
  | 'budget'
  | 'maxOutputTokens'
  | 'budgetNotice'
  | 'onWarning'
  | 'confirm'
  | 'approvalRules'
>;

/** What a runtime is configured with: the host's settings, checked, and what is built from them. */
export interface RuntimeConfig extends Readonly<HostSettings> {
  /** The tree's id (the store's session id, the host's `sessionId`, or a new one). */
  readonly sessionId: string;
  readonly now: () => number;
  /** What request timeouts and retry waits sleep on. */
  readonly clock: Clock;
  readonly limits: Limits;
  /** Where relative permission patterns and call paths are anchored. */
  readonly anchors: PathAnchors;
  /** What parent models see with each result. */
  readonly resultMetadata: ResultMetadata;
  /** Whether the session has budgets at all (the root's caps something, or a role has one). */
  readonly budgetsEnabled: boolean;
  /** The checked price table, when the host priced its models. */
  readonly prices: PriceTable | undefined;
  readonly roles: Roles;
  readonly heads: Heads;
  readonly summarizer: Summarizer;
  /** Asks the host to confirm risky capabilities of a spawn. */
  readonly confirmer: Confirmer;
  /** The host's tools by name (`find_roles` included, when the catalog needs it). */
  readonly hostTools: ReadonlyMap<string, RuntimeTool>;
}

/**
 * Checks the host's options and builds the runtime's configuration. Throws a TypeError (or
 * the checking layer's error) for a bad setting, before anything runs.
 *
 * @example
 * ```ts
 * const config = configure({ model });
 * config.heads.root(); // the root agent's system configuration
 * ```
 */
export function configure(options: RuntimeOptions): RuntimeConfig {
  if (options.retry !== undefined) checkRetryPolicy(options.retry, 'RuntimeOptions.retry');
  if (options.requestTimeoutMs !== undefined) checkRequestTimeout(options.requestTimeoutMs, 'RuntimeOptions.requestTimeoutMs');
  const limits = resolveLimits(options.limits);
  const prices = options.prices === undefined ? undefined : checkPriceTable(options.prices);
  const resultMetadata = checkResultMetadata(options.resultMetadata);
  const roles = new Roles({ ...options, canConfirm: options.confirm !== undefined }, knownToolsOf(options));
  for (const warning of roles.warnings) options.onWarning?.(warning);
  // find_roles, when the catalog needs it, is a host tool of the runtime's own.
  const tools = roles.searchTool ? [...(options.tools ?? []), roles.searchTool] : options.tools;
  // Budgets are on when the root's budget caps anything or some role has one (the `Agent` tool then offers `budget`).
  const rootBudget = options.budget === undefined ? undefined : checkBudget(options.budget, 'RuntimeOptions.budget');
  const budgetsEnabled = capsAnything(rootBudget) || roles.haveBudgets;
  const heads = new Heads({ ...options, ...(tools ? { tools } : {}), roleCatalog: roles.catalog.text, roleSearch: roles.searchTool !== undefined, budgets: budgetsEnabled });
  return Object.freeze({
    model: options.model,
    modelId: options.modelId,
    models: options.models,
    defaults: options.defaults,
    spawnPolicy: options.spawnPolicy,
    allowNesting: options.allowNesting,
    projectContext: options.projectContext,
    capabilities: options.capabilities,
    approve: options.approve,
    taskHooks: options.taskHooks,
    compaction: options.compaction,
    inspect: options.inspect,
    onListenerError: options.onListenerError,
    messaging: options.messaging,
    store: options.store,
    idempotentTools: options.idempotentTools,
    retention: options.retention,
    hostRoot: options.hostRoot,
    retry: options.retry,
    requestTimeoutMs: options.requestTimeoutMs,
    telemetry: options.telemetry,
    budget: options.budget,
    budgetsEnabled,
    maxOutputTokens: options.maxOutputTokens,
    budgetNotice: options.budgetNotice,
    onWarning: options.onWarning,
    confirm: options.confirm,
    approvalRules: options.approvalRules,
    sessionId: options.store?.sessionId ?? options.sessionId ?? `session_${nanoid(12)}`,
    now: options.now ?? Date.now,
    clock: options.clock ?? systemClock,
    limits,
    anchors: Object.freeze({ root: resolvePath(options.workspace ?? process.cwd()), home: homedir() }),
    resultMetadata,
    prices,
    roles,
    heads,
    summarizer: summarizerFor(options),
    confirmer: new Confirmer(options),
    hostTools: new Map((tools ?? []).map((t) => [t.name, t])),
  });
}

/** The root's model id: `modelId` (or the root preset's default) through the models table. */
export function rootModelOf(config: Pick<RuntimeConfig, 'modelId' | 'models' | 'heads'>): string {
  const name = config.modelId ?? config.heads.presetOf(config.heads.root())?.defaults?.model ?? 'default';
  if (name === 'default' && config.modelId === undefined) return name;
  const resolved = resolveModelName(name, config.models, name);
  if (!resolved.ok) throw new TypeError(`modelId: ${resolved.reason}`);
  return resolved.model;
}

/**
 * The capabilities calling tool `name` exercises: what the host's capability catalog says
 * and what the tool itself declares. Used by permission modes (plan removes write/shell).
 */
export function toolGrants(config: Pick<RuntimeConfig, 'capabilities' | 'hostTools'>, name: string): ReadonlySet<string> {
  const grants = new Set<string>(config.capabilities ? toolCapabilities(config.capabilities, name) : []);
  for (const capability of config.hostTools.get(name)?.capabilities ?? []) grants.add(capability);
  return grants;
}
