/**
 * `find_roles`: the search a model uses when the role catalog cannot list every role (catalog
 * mode `search`). It matches the words of a query against every role's name and description.
 *
 * Scoring, per query word (lowercased, split at anything but letters and digits): a word equal
 * to a part of the name (`python` in `python-pro`) scores 3, a word found inside the name 2,
 * a word found in the description 1. Roles are returned by score, then by the host's rank,
 * then by name, so the same query always gives the same answer.
 */
import { canonicalJson } from './canonical.js';
import { clip, rankOrder, type CatalogRole, type RoleCatalogLimits } from './role-catalog.js';
import type { JsonObject, ToolSchema } from './types.js';

/** Roles one search returns at most. */
export const FIND_ROLES_LIMIT = 20;

/** The `find_roles` tool as the model sees it. */
export const FIND_ROLES_SCHEMA: ToolSchema = Object.freeze({
  name: 'find_roles',
  description:
    'Searches the roles the Agent tool can run (its description lists only some of them) by name and description. Returns the best matches, each with its name and description; pass a name as Agent\'s role.',
  inputSchema: Object.freeze({
    type: 'object',
    properties: Object.freeze({ query: Object.freeze({ type: 'string', minLength: 1, description: 'Words to look for, such as "python tests" or "security review".' }) }),
    required: Object.freeze(['query']),
    additionalProperties: false,
  }) as unknown as JsonObject,
});

/** One match of a search. */
export interface RoleMatch {
  readonly name: string;
  readonly description: string;
  readonly score: number;
}

function words(text: string): string[] {
  return text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((word) => word !== '');
}

/**
 * The roles matching `query`, best first, at most `limit`.
 *
 * @example
 * ```ts
 * searchRoles([{ name: 'python-pro', description: 'Writes Python.' }], 'python')[0]?.name; // 'python-pro'
 * ```
 */
export function searchRoles(roles: readonly CatalogRole[], query: string, options: { readonly limit?: number; readonly rank?: RoleCatalogLimits['rank'] } = {}): RoleMatch[] {
  const wanted = [...new Set(words(query))];
  if (wanted.length === 0) return [];
  const scored: RoleMatch[] = [];
  for (const role of rankOrder(roles, options.rank)) {
    const nameParts = words(role.name);
    const name = role.name.toLowerCase();
    const description = (role.description ?? '').toLowerCase();
    let score = 0;
    for (const word of wanted) {
      if (nameParts.includes(word)) score += 3;
      else if (name.includes(word)) score += 2;
      else if (description.includes(word)) score += 1;
    }
    if (score > 0) scored.push({ name: role.name, description: role.description ?? '', score });
  }
  // A stable sort keeps rank order (then name order) among equal scores.
  return scored.sort((a, b) => b.score - a.score).slice(0, options.limit ?? FIND_ROLES_LIMIT);
}

/** Characters of a description in a search result. */
const RESULT_DESCRIPTION_LENGTH = 300;

/** The tool result a search gives the model: canonical JSON of the matches, descriptions clipped. */
export function findRolesContent(matches: readonly RoleMatch[], query: string): string {
  return canonicalJson({ query, roles: matches.map((m) => ({ name: m.name, description: clip(m.description.replace(/\s+/g, ' ').trim(), RESULT_DESCRIPTION_LENGTH) })) });
}
