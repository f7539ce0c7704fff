/**
 * The role catalog: the list of roles (agent definitions) the `Agent` tool's description shows
 * the model, so it can pick a role without first making a failed call.
 *
 * The catalog lives in the `Agent` tool's description, not in the system prompt. Every agent
 * of a runtime is registered with the same tool schemas, so a fork still shares its parent's
 * head byte for byte, and a role without the `Agent` tool loses the catalog together with the
 * tool. The text is computed once, when the runtime starts, from the roles sorted by name: the
 * same roles always give the same bytes.
 *
 * The cap, in order:
 * 1. Roles are sorted by name (code point order).
 * 2. Each description is collapsed to one line and clipped to `descriptionLength` characters
 *    (default 200), cut at a whole character and ended with `…`.
 * 3. The first `maxDescribed` roles (default 50) are listed as `- name: description`.
 * 4. The rest are listed by name only, on one `More roles:` line, while the whole catalog
 *    stays within `maxChars` characters (default 8,000).
 * 5. Roles that still do not fit are counted in one closing line (beyond `maxChars`); an
 *    unknown role name in a call returns every name, so the model can still reach them.
 */
import { BUILTIN_TOOLS } from './tools.js';
import type { ToolSchema } from './types.js';

/** What a catalog entry shows of a role. */
export interface CatalogRole {
  readonly name: string;
  readonly description?: string | undefined;
}

/** The cap on a catalog's size; see the module documentation for the rule. */
export interface RoleCatalogLimits {
  /** Roles listed with their description. Default 50. */
  readonly maxDescribed?: number;
  /** Characters of one description, after collapsing whitespace. Default 200. */
  readonly descriptionLength?: number;
  /** Characters of the whole catalog. Default 8,000. */
  readonly maxChars?: number;
}

/** The defaults of {@link RoleCatalogLimits}. */
export const DEFAULT_ROLE_CATALOG_LIMITS: Readonly<Required<RoleCatalogLimits>> = Object.freeze({
  maxDescribed: 50,
  descriptionLength: 200,
  maxChars: 8000,
});

const HEADING = 'Roles: pass one as role to run the subagent with that role\'s instructions and tools.';

/**
 * The catalog text for `roles`, or `''` when there are none. Pure: the same roles and limits
 * give the same text, whatever order the roles come in.
 *
 * @example
 * ```ts
 * roleCatalogText([{ name: 'reviewer', description: 'Reviews a change.' }]);
 * // "Roles: pass one as role …\n- reviewer: Reviews a change."
 * ```
 */
export function roleCatalogText(roles: Iterable<CatalogRole>, limits: RoleCatalogLimits = {}): string {
  const { maxDescribed, descriptionLength, maxChars } = { ...DEFAULT_ROLE_CATALOG_LIMITS, ...limits };
  const sorted = [...roles].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  if (sorted.length === 0) return '';
  const lines = [HEADING];
  let size = HEADING.length;
  let index = 0;
  for (; index < sorted.length && index < maxDescribed; index++) {
    const role = sorted[index] as CatalogRole;
    const description = clip(oneLine(role.description ?? ''), descriptionLength);
    const line = description === '' ? `- ${role.name}` : `- ${role.name}: ${description}`;
    if (size + 1 + line.length > maxChars) break;
    lines.push(line);
    size += 1 + line.length;
  }
  const names: string[] = [];
  let namesSize = '\nMore roles: '.length;
  for (; index < sorted.length; index++) {
    const name = (sorted[index] as CatalogRole).name;
    const added = (names.length === 0 ? 0 : 2) + name.length;
    if (size + namesSize + added > maxChars) break;
    names.push(name);
    namesSize += added;
  }
  if (names.length > 0) lines.push(`More roles: ${names.join(', ')}`);
  const hidden = sorted.length - index;
  if (hidden > 0) lines.push(`(${hidden} more ${hidden === 1 ? 'role' : 'roles'} not listed; naming an unknown role lists them all)`);
  return lines.join('\n');
}

/**
 * The `Agent` tool's schema with `catalog` appended to its description; the built-in schema
 * itself when the catalog is empty.
 */
export function agentToolSchema(catalog: string): ToolSchema {
  const base = BUILTIN_TOOLS.Agent.schema;
  if (catalog === '') return base;
  return Object.freeze({ ...base, description: `${base.description}\n\n${catalog}` });
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** At most `max` characters (code points, so no surrogate pair is split), ending in `…` when cut. */
function clip(text: string, max: number): string {
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  return `${chars.slice(0, Math.max(0, max - 1)).join('').trimEnd()}…`;
}
