/**
 * The models table the Pi extension gives its runtime: Claude Code's aliases (`sonnet`,
 * `opus`, `haiku`) and every model of Pi's model registry, so a role's `model:` means a model
 * the Pi session can reach. `inherit` (and no `model:`) stays the delegating agent's model.
 */
import type { Model } from '@earendil-works/pi-ai';
import type { ModelTable } from '../policy/model-alias.js';

/**
 * The default alias table: each of Claude Code's aliases names the newest model of its family
 * in Pi 1.6's catalogue, as Claude Code's aliases mean the newest. The Pi setting
 * `subagents.models` (settings.json, global or project) changes entries, and so does the
 * extension's `models` option; the setting wins.
 */
export const PI_DEFAULT_MODELS: ModelTable = Object.freeze({
  haiku: 'anthropic/claude-haiku-5-5',
  sonnet: 'anthropic/claude-sonnet-5-5',
  opus: 'anthropic/claude-opus-5-5',
});

/** The minimum a table needs of a registry model. */
export type RegistryModel = Pick<Model<string>, 'provider' | 'id' | 'cost'>;

/** Input of {@link piModelTable}. */
export interface PiModelTableInput {
  /** Alias → model (`provider/id`, or an id Pi's registry has), in order of precedence: later wins. */
  readonly aliases: readonly (ModelTable | undefined)[];
  /** Every model of Pi's registry (`ctx.modelRegistry.getAll()`). */
  readonly registry: readonly RegistryModel[];
  /** Models with working credentials, preferred when a bare id is offered by several providers. */
  readonly available?: readonly RegistryModel[];
  /** The id the runtime gives the Pi session's own model, and that model when known. */
  readonly session: { readonly id: string; readonly model: RegistryModel | undefined };
}

/** The table, and the alias entries that named no model of the registry. */
export interface PiModelTable {
  readonly table: ModelTable;
  /** One sentence per alias whose model Pi's registry does not have (left out of the table). */
  readonly problems: readonly string[];
}

const keyOf = (model: RegistryModel): string => `${model.provider}/${model.id}`;
const costOf = (model: RegistryModel | undefined): number => (model === undefined ? Number.POSITIVE_INFINITY : model.cost.input + model.cost.output);

/**
 * Builds the runtime's models table. Keys are the aliases, each registry model's `provider/id`
 * and its bare id (the provider with credentials first, then the registry's order); values are
 * `provider/id`. Entries are ordered by the model's price (input plus output per token), so the
 * runtime's "costlier model" rule compares real prices; the session's own model takes the place
 * of its model at the time the table is built.
 *
 * @example
 * ```ts
 * const { table, problems } = piModelTable({
 *   aliases: [PI_DEFAULT_MODELS, settings.subagents?.models],
 *   registry: ctx.modelRegistry.getAll(),
 *   session: { id: 'session', model: ctx.model },
 * });
 * table.sonnet; // 'anthropic/claude-sonnet-5-5'
 * ```
 */
export function piModelTable(input: PiModelTableInput): PiModelTable {
  const byKey = new Map<string, RegistryModel>();
  for (const model of input.registry) if (!byKey.has(keyOf(model))) byKey.set(keyOf(model), model);
  const byId = new Map<string, RegistryModel>();
  for (const model of [...(input.available ?? []), ...input.registry]) if (!byId.has(model.id)) byId.set(model.id, model);
  const find = (name: string): RegistryModel | undefined => byKey.get(name) ?? byId.get(name);

  const entries: Array<{ readonly key: string; readonly model: string; readonly cost: number }> = [];
  const problems: string[] = [];
  const aliases: Record<string, string> = {};
  for (const layer of input.aliases) for (const [alias, target] of Object.entries(layer ?? {})) aliases[alias] = target;
  for (const [alias, target] of Object.entries(aliases)) {
    const model = find(target);
    if (model === undefined) {
      problems.push(`model alias "${alias}" names "${target}", which is not a model of Pi's registry (/model lists them; set subagents.models in Pi's settings to change it)`);
      continue;
    }
    entries.push({ key: alias, model: keyOf(model), cost: costOf(model) });
  }
  for (const model of byKey.values()) entries.push({ key: keyOf(model), model: keyOf(model), cost: costOf(model) });
  for (const [id, model] of byId) if (!byKey.has(id)) entries.push({ key: id, model: keyOf(model), cost: costOf(model) });
  entries.push({ key: input.session.id, model: input.session.id, cost: costOf(input.session.model) });

  const table: Record<string, string> = {};
  // A stable sort: equal prices keep aliases first, then the registry's order.
  for (const entry of entries.sort((a, b) => a.cost - b.cost)) if (!Object.hasOwn(table, entry.key)) table[entry.key] = entry.model;
  return { table: Object.freeze(table), problems: Object.freeze(problems) };
}

/** The `subagents.models` table of Pi's settings, if it is one (an object of strings). */
export function modelsSetting(settings: unknown): ModelTable | undefined {
  const subagents = (settings as { subagents?: unknown } | undefined)?.subagents;
  const models = (subagents as { models?: unknown } | undefined)?.models;
  if (models === null || typeof models !== 'object' || Array.isArray(models)) return undefined;
  const table: Record<string, string> = {};
  for (const [alias, target] of Object.entries(models)) if (typeof target === 'string') table[alias] = target;
  return table;
}
