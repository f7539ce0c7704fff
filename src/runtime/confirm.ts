/**
 * Capability confirmation (docs/architecture.md, "Spawning"): before a subagent gets a risky
 * capability its parent does not already hold, the host is asked once, and may refuse.
 */
import { requiredConfirmations, toolCapabilities, type AccessCapability, type CapabilityCatalog, type RequiredCapability } from '../policy/capabilities.js';
import type { ModelTable } from '../policy/model-alias.js';
import type { PriceTable } from '../model/prices.js';
import { PERMISSION_MODE_RULES, type PermissionMode } from '../policy/permission-mode.js';
import type { ConfirmCallback } from '../policy/confirmation.js';
import type { SystemConfiguration } from '../request/types.js';
import { RuntimeError } from './errors.js';
import { raceAbort } from '../model/abort.js';
import { errorText } from '../dialogue/error-text.js';
import { checkDecision } from './host-decision.js';

/** What one confirmation check needs. */
export interface ConfirmInput {
  readonly parentPath: string;
  readonly taskName: string;
  readonly role: string | undefined;
  readonly parentSystem: SystemConfiguration;
  readonly parentModel: string;
  readonly system: SystemConfiguration;
  readonly model: string;
  readonly signal: AbortSignal | undefined;
  readonly externalDirectories?: readonly string[] | undefined;
  readonly inheritsExtensions?: boolean | undefined;
  /** The role's permission mode (see `permission-mode.ts`). */
  readonly permissionMode?: PermissionMode | undefined;
}

const NO_CATALOG: CapabilityCatalog = Object.freeze({ tools: new Map(), models: new Map() });

/** Asks the host's callback when a spawn would widen what its parent may do. */
export class Confirmer {
  constructor(
    private readonly options: {
      readonly confirm?: ConfirmCallback;
      readonly capabilities?: CapabilityCatalog;
      /** What the root may do without asking (its own tools' capabilities are always granted). */
      readonly rootGrants?: readonly AccessCapability[];
      /** The models table: its order ranks models by cost when the catalog gives no tier. */
      readonly models?: ModelTable;
      /** Prices rank models by cost when neither the catalog nor the table ranks both. */
      readonly prices?: PriceTable;
    },
  ) {}

  /**
   * Whether `model` costs more than `parentModel`, as far as the runtime can tell: by the
   * catalog's tiers or the models table's order when they rank both, else by their prices
   * (input plus output per million tokens) when both are priced. Unranked models are not.
   */
  costlier(model: string, parentModel: string): boolean {
    if (model === parentModel) return false;
    const tiers = this.costTiers(this.options.capabilities ?? NO_CATALOG);
    const a = tiers.get(model);
    const b = tiers.get(parentModel);
    if (a !== undefined && b !== undefined) return a > b;
    const pa = priceOf(this.options.prices, model);
    const pb = priceOf(this.options.prices, parentModel);
    return pa !== undefined && pb !== undefined && pa > pb;
  }

  /**
   * Undefined when nothing needs asking; otherwise a promise that resolves when allowed and
   * rejects with a RuntimeError on denial, a failing callback, or abort.
   *
   * Questions are asked only with a `confirm` callback and something to judge by: a
   * capability catalog, a models table, or prices for costlier models. Without a callback,
   * a costlier model is refused and everything else the host granted stands. A role's permission mode
   * changes this (see `permission-mode.ts`): `acceptEdits` grants `write`, `dontAsk` refuses
   * instead of asking, `bypassPermissions` always asks and is refused without a callback.
   */
  confirm(input: ConfirmInput): Promise<void> | undefined {
    const { confirm, capabilities } = this.options;
    const mode = input.permissionMode === undefined ? undefined : PERMISSION_MODE_RULES[input.permissionMode];
    const bypass = mode?.confirmation === 'always';
    const who = `${input.parentPath}/${input.taskName}`;
    if (bypass && !confirm) {
      throw new RuntimeError(
        'confirmation_denied',
        `${input.role ? `role "${input.role}"` : who} runs with permissionMode bypassPermissions, which needs the host's confirmation, and this runtime has no confirm callback`,
      );
    }
    const ranked = this.costTiers(capabilities ?? NO_CATALOG);
    const costlier = this.costlier(input.model, input.parentModel);
    if (!confirm && mode?.confirmation !== 'never') {
      // The default without a confirm callback: a costlier model is refused; the same or a
      // cheaper one, and whatever else the host granted, is allowed.
      if (!costlier) return undefined;
      throw new RuntimeError(
        'confirmation_denied',
        `${who} would run on model ${input.model}, which costs more than its parent's model ${input.parentModel}; without a confirm callback to ask, a costlier model is refused (the same or a cheaper one is allowed)`,
      );
    }
    if (!capabilities && !this.options.models && !bypass) {
      // Only prices rank the models: a costlier one is still asked about.
      if (!costlier || !confirm) return undefined;
      return this.ask(confirm, input, [Object.freeze({ capability: 'cost_tier', subjects: Object.freeze([input.model]), reason: `model "${input.model}" costs more than its parent's model "${input.parentModel}" at the host's prices` })]);
    }
    const catalog: CapabilityCatalog = { tools: (capabilities ?? NO_CATALOG).tools, models: ranked };
    const granted = new Set<AccessCapability>(this.options.rootGrants ?? []);
    for (const tool of input.parentSystem.tools) for (const c of toolCapabilities(catalog, tool.name)) granted.add(c);
    for (const c of mode?.grants ?? []) granted.add(c);
    const parentTier = catalog.models.get(input.parentModel) ?? 0;
    // Without a catalog, only the models table is consulted: a model it does not rank is not asked about.
    const judgesModel = capabilities !== undefined || (ranked.has(input.model) && ranked.has(input.parentModel));
    const required = requiredConfirmations({
      parentGrants: { capabilities: granted, maxCostTier: parentTier },
      childTools: input.system.tools.map((t) => t.name),
      ...(input.model !== input.parentModel && judgesModel ? { childModel: input.model } : {}),
      ...(input.externalDirectories?.length ? { externalDirectories: input.externalDirectories } : {}),
      ...(input.inheritsExtensions ? { inheritsExtensions: true } : {}),
      ...(bypass ? { bypassPermissions: input.role ?? input.taskName } : {}),
      catalog,
    });
    if (required.length === 0) return undefined;
    if (mode?.confirmation === 'never' || !confirm) {
      throw new RuntimeError(
        'confirmation_denied',
        `${input.role ? `role "${input.role}"` : who} runs with permissionMode dontAsk, so ${who} was not started instead of asking (${required.map((r) => r.reason).join('; ')})`,
      );
    }
    return this.ask(confirm, input, required);
  }

  /**
   * Model cost tiers: the catalog's, then the models table's order (0 = cheapest) for ids and
   * aliases the catalog does not rank.
   */
  private costTiers(catalog: CapabilityCatalog): ReadonlyMap<string, number> {
    const table = this.options.models;
    if (table === undefined) return catalog.models;
    this.tableTiers ??= tableTiers(table);
    const tiers = new Map(catalog.models);
    for (const [name, rank] of this.tableTiers) if (!tiers.has(name)) tiers.set(name, rank);
    return tiers;
  }

  /** The table's ranks by id and alias, computed once (a host's table may list every model it has). */
  private tableTiers: ReadonlyMap<string, number> | undefined;

  private async ask(confirm: ConfirmCallback, input: ConfirmInput, required: RequiredCapability[]): Promise<void> {
    const signal = input.signal ?? new AbortController().signal;
    const who = `${input.parentPath}/${input.taskName}`;
    let decision;
    try {
      const request = { parentPath: input.parentPath, taskName: input.taskName, ...(input.role ? { role: input.role } : {}), capabilities: required };
      // Asked at once (a synchronous throw lands in the catch below), so the host sees an
      // abort of a question it was asked.
      decision = checkDecision(await raceAbort(Promise.resolve(confirm(request, signal)), signal), 'a confirmation decision');
    } catch (error) {
      if (signal.aborted) throw new RuntimeError('aborted', `the spawn of ${who} was cancelled while waiting for confirmation`);
      throw new RuntimeError('confirmation_failed', `asking the host to confirm ${who} failed: ${errorText(error)}`);
    }
    if (!decision.approved) {
      throw new RuntimeError(
        'confirmation_denied',
        `the host did not allow starting ${who} (${required.map((r) => r.reason).join('; ')})${decision.reason ? `: ${decision.reason}` : ''}`,
      );
    }
  }
}

/** What a model costs per million input plus output tokens, when it is priced. */
function priceOf(prices: PriceTable | undefined, model: string): number | undefined {
  if (!prices || !Object.hasOwn(prices, model)) return undefined;
  const price = prices[model];
  return price === undefined ? undefined : price.input + price.output;
}

/**
 * Each id's and alias's place in the table's cost order: an id's first position
 * (as `modelCostRank` gives it), in one pass over the table.
 */
function tableTiers(table: ModelTable): ReadonlyMap<string, number> {
  const first = new Map<string, number>();
  Object.values(table).forEach((id, index) => {
    if (!first.has(id)) first.set(id, index);
  });
  const tiers = new Map<string, number>();
  for (const [alias, id] of Object.entries(table)) {
    const rank = first.get(id);
    if (rank === undefined) continue;
    if (!tiers.has(id)) tiers.set(id, rank);
    if (!tiers.has(alias)) tiers.set(alias, rank);
  }
  return tiers;
}
