/**
 * The role catalog at the size of the two largest public Claude Code agent collections:
 * - `roles.catalog.bytes_336`: UTF-8 bytes of the `Agent` tool's role catalog for 336
 *   generated roles under the default budget. The run fails unless every role's name appears
 *   in the catalog or `find_roles` finds it by that name.
 * - `roles.catalog.described_336`: how many of them the catalog shows with a description.
 */
import { DEFAULT_ROLE_CATALOG_LIMITS, roleCatalog, utf8Length, type CatalogRole } from '../src/request/role-catalog.js';
import { searchRoles } from '../src/request/role-search.js';
import type { BenchFigures } from './run.js';

const DOMAINS = ['python', 'typescript', 'rust', 'golang', 'java', 'kotlin', 'swift', 'ruby', 'php', 'csharp', 'cpp', 'elixir', 'scala', 'haskell',
  'sql', 'graphql', 'kubernetes', 'terraform', 'docker', 'aws', 'azure', 'gcp', 'react', 'vue', 'angular', 'django', 'rails', 'security'];
const KINDS = ['pro', 'reviewer', 'architect', 'debugger', 'test-automator', 'performance-engineer', 'migration-specialist', 'documentation-writer',
  'refactoring-expert', 'incident-responder', 'api-designer', 'build-engineer'];

/** 336 roles shaped like published ones: a compound name and a long "use this agent when" description. */
function generatedRoles(): CatalogRole[] {
  return DOMAINS.flatMap((domain) =>
    KINDS.map((kind) => ({
      name: `${domain}-${kind}`,
      description: `Use this agent when you need ${kind.replace(/-/g, ' ')} work on ${domain} code. Examples: <example>Context: the user changed a ${domain} module. user: "Can you look at this?" assistant: "I'll use the ${domain}-${kind} agent." <commentary>Specialised ${domain} knowledge is needed.</commentary></example> Use PROACTIVELY for ${domain} projects.`,
    })),
  );
}

export default async function (): Promise<BenchFigures> {
  const roles = generatedRoles();
  if (roles.length !== 336) throw new Error(`roles bench: expected 336 roles, made ${roles.length}`);
  const catalog = roleCatalog(roles);
  const shown = new Set(catalog.listed);
  for (const role of roles) {
    if (shown.has(role.name)) continue;
    if (!catalog.searchable || !searchRoles(roles, role.name).some((match) => match.name === role.name)) {
      throw new Error(`roles bench: role ${role.name} is neither in the catalog nor found by find_roles`);
    }
  }
  const bytes = utf8Length(catalog.text);
  if (bytes > DEFAULT_ROLE_CATALOG_LIMITS.maxBytes) throw new Error(`roles bench: the catalog takes ${bytes} bytes, over its budget`);
  return [
    ['roles.catalog.bytes_336', bytes],
    ['roles.catalog.described_336', catalog.described.length],
  ];
}
