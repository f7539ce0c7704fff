/**
 * The `find_roles` tool a runtime registers when its role catalog cannot list every role
 * (catalog mode `search`): a host tool like any other, so it is filtered, journaled and
 * checked like one, and an agent keeps it exactly when it keeps `Agent` (see `heads.ts`).
 */
import { defineHostTool } from '../request/host-tool.js';
import { findRolesContent, FIND_ROLES_SCHEMA, searchRoles } from '../request/role-search.js';
import type { CatalogRole, RoleCatalogLimits } from '../request/role-catalog.js';
import type { JsonSchemaObject } from '../request/tool-input.js';
import type { RuntimeTool } from './types.js';

/** The `find_roles` tool over `roles`, ranked as the catalog ranks them. */
export function findRolesTool(roles: readonly CatalogRole[], rank: RoleCatalogLimits['rank']): RuntimeTool {
  const tool = defineHostTool({
    name: FIND_ROLES_SCHEMA.name,
    description: FIND_ROLES_SCHEMA.description,
    schema: FIND_ROLES_SCHEMA.inputSchema as JsonSchemaObject,
  });
  return Object.freeze({
    ...tool,
    // The schema requires a non-empty string `query`, checked by `parse` before this runs.
    execute: (args: unknown) => {
      const { query } = args as { readonly query: string };
      return findRolesContent(searchRoles(roles, query, { rank }), query);
    },
  });
}
