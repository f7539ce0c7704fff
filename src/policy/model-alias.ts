/**
 * Model names in definitions and spawns, resolved through the host's models table.
 *
 * Claude Code files say `model: sonnet`, `opus`, `haiku` or `inherit`. A host maps those (and
 * any names of its own) to the model ids its adapter takes, in a table ordered from the
 * cheapest model to the costliest, for example
 * `{ haiku: 'claude-haiku-4-5', sonnet: 'claude-sonnet-4-5', opus: 'claude-opus-4-1' }`.
 *
 * - `inherit` is the delegating agent's model.
 * - With a table, a name is a key of it (resolved to its value) or one of its values (an id
 *   used as is); anything else is unknown.
 * - Without a table, `sonnet`, `opus` and `haiku` are unknown (nothing says which model they
 *   mean) and any other name is taken as a model id.
 * - An unknown name is a warning when the runtime starts and an error when a spawn uses it,
 *   never passed on silently.
 */

/** Alias or host name → model id, ordered from the cheapest model to the costliest. */
export type ModelTable = Readonly<Record<string, string>>;

/** The name that means "the delegating agent's model". */
export const INHERIT_MODEL = 'inherit';

/** Claude Code's model aliases, which need a table entry to mean anything. */
export const CLAUDE_MODEL_ALIASES: readonly string[] = Object.freeze(['haiku', 'sonnet', 'opus']);

/** A resolved model id, or why the name means nothing here. */
export type ModelResolution = { readonly ok: true; readonly model: string } | { readonly ok: false; readonly reason: string };

/**
 * Resolves `name` to a model id.
 *
 * @example
 * ```ts
 * resolveModelName('sonnet', { sonnet: 'claude-sonnet-4-5' }, 'm0'); // { ok: true, model: 'claude-sonnet-4-5' }
 * resolveModelName('inherit', undefined, 'm0');                     // { ok: true, model: 'm0' }
 * ```
 */
export function resolveModelName(name: string, table: ModelTable | undefined, inherited: string): ModelResolution {
  if (name === INHERIT_MODEL) return { ok: true, model: inherited };
  if (table === undefined) {
    if (CLAUDE_MODEL_ALIASES.includes(name)) {
      return { ok: false, reason: `model "${name}" is an alias, and this runtime has no models table to say which model it means` };
    }
    return { ok: true, model: name };
  }
  if (Object.hasOwn(table, name)) return { ok: true, model: table[name] as string };
  if (Object.values(table).includes(name)) return { ok: true, model: name };
  return { ok: false, reason: `model "${name}" is not in the runtime's models table (known: ${knownNames(table)})` };
}

/** How many table names an unknown-model message lists before it counts the rest. */
const SHOWN_NAMES = 20;

/** `inherit` and the table's names; a large table (a host's whole model list) shows its aliases and a count. */
function knownNames(table: ModelTable): string {
  const names = [INHERIT_MODEL, ...Object.keys(table)];
  if (names.length <= SHOWN_NAMES) return names.join(', ');
  // Names that are neither ids of the table nor `provider/id` are the host's aliases.
  const values = new Set(Object.values(table));
  const own = names.filter((key) => !values.has(key) && !key.includes('/'));
  const aliases = [...own.filter((key) => key === INHERIT_MODEL || CLAUDE_MODEL_ALIASES.includes(key)), ...own.filter((key) => key !== INHERIT_MODEL && !CLAUDE_MODEL_ALIASES.includes(key))].slice(0, SHOWN_NAMES);
  return `${aliases.join(', ')} and ${names.length - aliases.length} more`;
}

/**
 * The position of model id `model` in the table's cost order (0 = cheapest), or undefined
 * when the table does not list it. An id several aliases map to takes its first position.
 */
export function modelCostRank(model: string, table: ModelTable | undefined): number | undefined {
  if (table === undefined) return undefined;
  const index = Object.values(table).indexOf(model);
  return index < 0 ? undefined : index;
}
