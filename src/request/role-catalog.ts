/**
 * The role catalog: the roles (agent definitions) the `Agent` tool's description shows the
 * model, so it can pick a role without first making a failed call.
 *
 * The catalog lives in the `Agent` tool's description, not in the system prompt. Every agent
 * of a runtime is registered with the same tool schemas, so a fork still shares its parent's
 * head byte for byte, and an agent without the `Agent` tool loses the catalog together with
 * the tool. It is computed once, when the runtime starts: the same roles always give the same
 * bytes, whatever order they come in.
 *
 * Every role stays reachable by name within a byte budget (`maxBytes`, UTF-8):
 * 1. Roles are ordered by the host's `rank` (higher first), then by name (code point order).
 * 2. `described`: when every role fits with its description (one line, clipped to
 *    `descriptionLength` characters), that is the catalog.
 * 3. `names`: otherwise, when every name fits, all names are listed, and the best-ranked
 *    roles keep their descriptions while the rest still fit on one `More roles:` line.
 * 4. `search`: otherwise, the best-ranked names that fit are listed, and a closing line points
 *    to the `find_roles` tool, which searches every role's name and description. A runtime
 *    registers that tool only for this mode.
 */
import { AGENT_TOOL_WITH_BUDGET, BUILTIN_TOOLS } from './tools.js';
import type { ToolSchema } from './types.js';

/** What a catalog entry shows of a role. */
export interface CatalogRole {
  readonly name: string;
  readonly description?: string | undefined;
}

/** The budget and order of a catalog; see the module documentation for the rule. */
export interface RoleCatalogLimits {
  /** Bytes (UTF-8) of the whole catalog text. Default 12,288. */
  readonly maxBytes?: number;
  /** Characters of one description, after collapsing whitespace. Default 200. */
  readonly descriptionLength?: number;
  /**
   * The host's ranking: roles with a higher number are described and listed first (ties by
   * name). Must be pure, so the catalog stays the same bytes. Default: every role ranks 0.
   */
  readonly rank?: (role: CatalogRole) => number;
}

/** The defaults of {@link RoleCatalogLimits}. */
export const DEFAULT_ROLE_CATALOG_LIMITS = Object.freeze({ maxBytes: 12_288, descriptionLength: 200 });

/** How much of each role a catalog shows (see the module documentation). */
export type RoleCatalogMode = 'described' | 'names' | 'search';

/** A catalog: its text and what it reaches. */
export interface RoleCatalog {
  /** The text appended to the `Agent` tool's description; `''` without roles. */
  readonly text: string;
  readonly mode: RoleCatalogMode;
  /** Names the text lists, in catalog order. */
  readonly listed: readonly string[];
  /** Names shown with their description. */
  readonly described: readonly string[];
  /** Whether some roles are reachable only through `find_roles` (mode `search`). */
  readonly searchable: boolean;
}

/** The search tool's name, registered only when a catalog needs it. */
export const FIND_ROLES_TOOL = 'find_roles';

const HEADING = "Roles: pass one as role to run the subagent with that role's instructions and tools.";
const MORE = 'More roles: ';
const EMPTY: RoleCatalog = Object.freeze({ text: '', mode: 'described', listed: Object.freeze([]), described: Object.freeze([]), searchable: false });

/**
 * The catalog for `roles`. Pure: the same roles and limits give the same text.
 *
 * @throws TypeError when a limit is not a positive integer, `rank` returns a non-finite
 *   number, or `maxBytes` cannot hold even the catalog's fixed lines.
 * @example
 * ```ts
 * roleCatalog([{ name: 'reviewer', description: 'Reviews a change.' }]).text;
 * // "Roles: pass one as role …\n- reviewer: Reviews a change."
 * ```
 */
export function roleCatalog(roles: Iterable<CatalogRole>, limits: RoleCatalogLimits = {}): RoleCatalog {
  const maxBytes = positiveInteger(limits.maxBytes ?? DEFAULT_ROLE_CATALOG_LIMITS.maxBytes, 'maxBytes');
  const descriptionLength = positiveInteger(limits.descriptionLength ?? DEFAULT_ROLE_CATALOG_LIMITS.descriptionLength, 'descriptionLength');
  const ordered = rankOrder([...roles], limits.rank);
  if (ordered.length === 0) return EMPTY;
  const names = ordered.map((role) => role.name);
  const lines = ordered.map((role) => {
    const description = clip(oneLine(role.description ?? ''), descriptionLength);
    return description === '' ? `- ${role.name}` : `- ${role.name}: ${description}`;
  });

  const full = [HEADING, ...lines].join('\n');
  if (utf8Length(full) <= maxBytes) return catalog(full, 'described', names, names);

  // Every name on the `More roles:` line, then describe the best-ranked while the rest fit.
  const nameBytes = names.map((name) => utf8Length(name));
  let namesLine = utf8Length(MORE) + nameBytes.reduce((sum, n) => sum + n, 0) + 2 * (names.length - 1);
  let size = utf8Length(HEADING) + 1 + namesLine;
  if (size <= maxBytes) {
    let describedCount = 0;
    for (; describedCount < names.length; describedCount++) {
      const lineBytes = utf8Length(lines[describedCount] as string) + 1;
      // Moving the name off the line also drops its separator (or the whole line, for the last).
      const rest = names.length - describedCount - 1;
      const nextNamesLine = rest === 0 ? -1 : namesLine - (nameBytes[describedCount] as number) - 2;
      const next = size - namesLine + nextNamesLine + lineBytes;
      if (next > maxBytes) break;
      size = next;
      namesLine = nextNamesLine;
    }
    const text = [HEADING, ...lines.slice(0, describedCount), `${MORE}${names.slice(describedCount).join(', ')}`].join('\n');
    return catalog(text, 'names', names, names.slice(0, describedCount));
  }

  // Not even every name fits: the best-ranked names that do, then the search tool.
  const closing = (hidden: number) => `${hidden} more ${hidden === 1 ? 'role is' : 'roles are'} not listed: ${FIND_ROLES_TOOL} searches every role's name and description.`;
  const fixed = utf8Length(HEADING) + 1 + utf8Length(closing(names.length));
  if (fixed > maxBytes) throw new TypeError(`roleCatalog.maxBytes ${maxBytes} cannot hold the catalog's fixed lines (${fixed} bytes)`);
  const shown: string[] = [];
  let used = 0;
  for (const [index, name] of names.entries()) {
    const added = (shown.length === 0 ? utf8Length(MORE) + 1 : 2) + (nameBytes[index] as number);
    if (utf8Length(HEADING) + 1 + used + added + utf8Length(closing(names.length - shown.length - 1)) > maxBytes) break;
    shown.push(name);
    used += added;
  }
  const text = [HEADING, ...(shown.length > 0 ? [`${MORE}${shown.join(', ')}`] : []), closing(names.length - shown.length)].join('\n');
  return Object.freeze({ text, mode: 'search', listed: Object.freeze(shown), described: Object.freeze([]), searchable: true });
}

/**
 * The `Agent` tool's schema with `catalog` appended to its description; the built-in schema
 * itself when the catalog is empty.
 */
export function agentToolSchema(catalog: string, withBudget = false): ToolSchema {
  const base = withBudget ? AGENT_TOOL_WITH_BUDGET.schema : BUILTIN_TOOLS.Agent.schema;
  if (catalog === '') return base;
  return Object.freeze({ ...base, description: `${base.description}\n\n${catalog}` });
}

/** Roles by the host's rank (higher first), then by name; throws for a non-finite rank. */
export function rankOrder<R extends CatalogRole>(roles: readonly R[], rank: RoleCatalogLimits['rank']): R[] {
  const ranks = new Map<R, number>();
  for (const role of roles) {
    const value = rank === undefined ? 0 : rank(role);
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      throw new TypeError(`roleCatalog.rank must return a finite number, got ${String(value)} for role "${role.name}"`);
    }
    ranks.set(role, value);
  }
  return [...roles].sort((a, b) => (ranks.get(b) as number) - (ranks.get(a) as number) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

function catalog(text: string, mode: RoleCatalogMode, listed: readonly string[], described: readonly string[]): RoleCatalog {
  return Object.freeze({ text, mode, listed: Object.freeze([...listed]), described: Object.freeze([...described]), searchable: false });
}

function positiveInteger(value: unknown, key: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0) {
    throw new TypeError(`roleCatalog.${key} must be a positive integer, got ${String(value)}`);
  }
  return value;
}

const encoder = new TextEncoder();

/** Bytes of `text` in UTF-8, the unit the budget is in. */
export function utf8Length(text: string): number {
  return encoder.encode(text).length;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** At most `max` characters (code points, so no surrogate pair is split), ending in `…` when cut. */
export function clip(text: string, max: number): string {
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  return `${chars.slice(0, Math.max(0, max - 1)).join('').trimEnd()}…`;
}
