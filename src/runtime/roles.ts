/**
 * The runtime's view of agent definitions ("roles"): prepared once when the runtime starts
 * (tool names mapped, models checked, warnings collected), then looked up by name.
 */
import type { AgentDefinition } from '../policy/definition.js';
import { resolveModelName, type ModelTable } from '../policy/model-alias.js';
import { RoleRegistry, UnknownRoleError } from '../policy/registry.js';
import { searchRoles } from '../request/role-search.js';
import { mapToolEntry, type ToolNameMap } from '../policy/tool-mapping.js';
import { hasSpecifier, parseToolEntry, toolNameMatches } from '../policy/tool-name.js';
import { FIND_ROLES_TOOL, roleCatalog, type RoleCatalog, type RoleCatalogLimits } from '../request/role-catalog.js';
import { findRolesTool } from './find-roles.js';
import type { RuntimeTool } from './types.js';
import { checkRequestTimeout, checkRetryPolicy } from '../policy/retry-policy.js';
import { AGENT_TOOL, normalizeAgentEntry } from '../policy/agent-entries.js';
import { toolCapabilities, type CapabilityCatalog } from '../policy/capabilities.js';
import { BUILTIN_TOOL_NAMES } from '../request/tool-names.js';
import { PERMISSION_MODE_RULES } from '../policy/permission-mode.js';
import { checkBudget } from '../policy/budget.js';

/** The fields of an agent definition the runtime reads; loaded definitions fit it. */
export type RoleDefinition = Pick<AgentDefinition, 'name'> &
  Partial<
    Pick<
      AgentDefinition,
      'instructions' | 'description' | 'model' | 'effort' | 'tools' | 'disallowedTools' | 'context' | 'contexts' | 'delivery' | 'lifetime' | 'maxSteps' | 'permissionMode' | 'source' | 'output' | 'retry' | 'requestTimeoutMs' | 'budget'
    >
  >;

/** Something about a role the host should fix, found when the runtime starts. */
export interface RoleWarning {
  readonly role: string;
  /** The definition's file, when it was loaded from one. */
  readonly file: string | undefined;
  /** The front matter key at fault: `tools`, `disallowedTools`, `model` or `permissionMode`. */
  readonly key: string;
  /** The whole sentence, naming the role and the file. */
  readonly message: string;
}

/** What the runtime knows about a tool when it prepares roles. */
export interface KnownTool {
  readonly name: string;
  /** Whether the tool declares a permission matcher, so `Tool(pattern)` entries can be enforced. */
  readonly hasMatcher: boolean;
  /** The capabilities calling it exercises (`write`, `shell`, …), for permission modes. */
  readonly grants?: readonly string[];
}

/**
 * The tools a runtime with these options has, as role checks see them: the built-ins (`Agent`
 * checks its own `Agent(role)` patterns) and the host's tools, with what each grants.
 */
export function knownToolsOf(options: { readonly tools?: readonly RuntimeTool[]; readonly capabilities?: CapabilityCatalog }): KnownTool[] {
  const grantsOf = (name: string, own: readonly string[] = []): readonly string[] => [
    ...new Set([...(options.capabilities ? toolCapabilities(options.capabilities, name) : []), ...own]),
  ];
  return [
    ...BUILTIN_TOOL_NAMES.map((name) => ({ name, hasMatcher: name === AGENT_TOOL, grants: grantsOf(name) })),
    ...(options.tools ?? []).map((t) => ({ name: t.name, hasMatcher: t.permission !== undefined, grants: grantsOf(t.name, t.capabilities) })),
  ];
}

/** Options of {@link Roles}. */
export interface RolesOptions {
  readonly roles?: Iterable<RoleDefinition>;
  readonly roleCatalog?: RoleCatalogLimits | false;
  readonly toolNames?: ToolNameMap;
  readonly models?: ModelTable;
  /** Whether the host can answer `bypassPermissions` questions. */
  readonly canConfirm?: boolean;
}

/** Resolves spawn `role` names. Without configured definitions, any valid name is a plain label. */
export class Roles {
  private readonly registry: RoleRegistry<RoleDefinition> | undefined;
  /**
   * The role catalog the `Agent` tool's description carries: computed once, here, so it is
   * fixed for the runtime's life (empty text without roles, or with `roleCatalog: false`).
   */
  readonly catalog: RoleCatalog;
  /** `find_roles`, when the catalog cannot list every role (mode `search`). */
  readonly searchTool: RuntimeTool | undefined;
  /** What preparing the roles found, in role name order. */
  readonly warnings: readonly RoleWarning[];
  /** Whether some role has a budget (the `Agent` tool then offers `budget`). */
  readonly haveBudgets: boolean;

  constructor(options: RolesOptions, tools: readonly KnownTool[] = []) {
    const warnings: RoleWarning[] = [];
    if (options.roles) {
      const prepared = [...options.roles].map((role) => prepareRole(role, options, tools));
      this.registry = new RoleRegistry(prepared);
      for (const role of this.registry.list()) warnings.push(...checkRole(role, options, tools));
    } else {
      this.registry = undefined;
    }
    this.warnings = Object.freeze(warnings);
    this.haveBudgets = this.registry !== undefined && this.registry.list().some((role) => role.budget !== undefined);
    const limits = options.roleCatalog === false ? undefined : options.roleCatalog;
    this.catalog = options.roleCatalog === false || !this.registry ? roleCatalog([]) : roleCatalog(this.registry.list(), limits);
    this.searchTool = this.catalog.searchable && this.registry ? findRolesTool(this.registry.list(), limits?.rank) : undefined;
  }

  /**
   * The definition for `name`, a plain label when none are configured, or undefined without
   * a role. @throws UnknownRoleError (code `unknown_role`) listing the known roles.
   */
  resolve(name: string | undefined): RoleDefinition | undefined {
    if (name === undefined) return undefined;
    if (!this.registry) return { name };
    if (this.searchTool === undefined || this.registry.has(name)) return this.registry.getRole(name);
    // Too many roles to list them all in an error: the closest, and the search tool.
    const closest = searchRoles(this.registry.list(), name, { limit: 10 }).map((match) => match.name);
    throw new UnknownRoleError(name, this.registry.names(), { names: closest, searchTool: FIND_ROLES_TOOL });
  }
}

/** How messages name a role: `role "reviewer" (.claude/agents/reviewer.md)`. */
export function roleLabel(role: RoleDefinition): string {
  return role.source ? `role "${role.name}" (${role.source.file})` : `role "${role.name}"`;
}

/** The role with its tool entries mapped to the host's names. */
function prepareRole(role: RoleDefinition, options: RolesOptions, tools: readonly KnownTool[]): RoleDefinition {
  // A host's own definition objects are not checked by the file parser: a bad value would
  // only surface at the first failed request.
  if (role.retry !== undefined) checkRetryPolicy(role.retry, `${roleLabel(role)} retry`);
  if (role.requestTimeoutMs !== undefined) checkRequestTimeout(role.requestTimeoutMs, `${roleLabel(role)} requestTimeoutMs`);
  if (role.budget !== undefined) role = { ...role, budget: checkBudget(role.budget, `${roleLabel(role)} budget`) };
  const legacy = (entry: string): string => (tools.some((tool) => toolNameMatches(entry, tool.name)) ? entry : normalizeAgentEntry(entry));
  const hasLegacy = [...(role.tools ?? []), ...(role.disallowedTools ?? [])].some((entry) => legacy(entry) !== entry);
  if (options.toolNames === undefined && !hasLegacy) return role;
  const map = (entries: readonly string[] | undefined) =>
    entries === undefined ? undefined : Object.freeze(entries.map((entry) => mapEntry(legacy(entry), options.toolNames, tools)));
  const mapped = { ...role, ...(role.tools ? { tools: map(role.tools) } : {}), ...(role.disallowedTools ? { disallowedTools: map(role.disallowedTools) } : {}) };
  return Object.freeze(mapped);
}

/** Maps an entry unless it already names a tool of the runtime (a host name wins). */
function mapEntry(entry: string, map: ToolNameMap | undefined, tools: readonly KnownTool[]): string {
  if (tools.some((tool) => toolNameMatches(entry, tool.name) && tool.name === parseToolEntry(entry).tool)) return entry;
  return mapToolEntry(entry, map);
}

function checkRole(role: RoleDefinition, options: RolesOptions, tools: readonly KnownTool[]): RoleWarning[] {
  const found: RoleWarning[] = [];
  const warn = (key: string, detail: string): void => {
    found.push(Object.freeze({ role: role.name, file: role.source?.file, key, message: `${roleLabel(role)}: ${detail}` }));
  };
  for (const key of ['tools', 'disallowedTools'] as const) {
    for (const entry of role[key] ?? []) {
      const matches = tools.filter((tool) => toolNameMatches(entry, tool.name));
      const { tool } = parseToolEntry(entry);
      if (matches.length === 0) {
        const hint = options.toolNames === undefined ? 'map it with the runtime\'s toolNames option' : 'add it to the runtime\'s toolNames option';
        warn(key, `${key} entry "${entry}" names no tool of this runtime (${tools.map((t) => t.name).join(', ')}); ${hint}, for example { ${JSON.stringify(tool)}: "your_tool" }`);
        continue;
      }
      const blind = matches.filter((t) => !t.hasMatcher);
      if (hasSpecifier(entry) && blind.length > 0) {
        const names = blind.map((t) => t.name).join(', ');
        const effect = key === 'tools' ? `the role does not get ${names}` : `the role loses all of ${names}`;
        warn(key, `${key} entry "${entry}" has a pattern, but ${names} declares no permission matcher to check it against, so ${effect}`);
      }
    }
  }
  found.push(...modeRemovals(role, tools));
  if (role.model !== undefined) {
    const resolved = resolveModelName(role.model, options.models, 'inherit');
    if (!resolved.ok) warn('model', `${resolved.reason}; spawning this role fails until the host maps it`);
  }
  if (role.permissionMode === 'bypassPermissions' && options.canConfirm !== true) {
    warn('permissionMode', 'permissionMode bypassPermissions needs the host\'s confirmation, and this runtime has no confirm callback, so spawning this role is refused');
  }
  return found;
}

/**
 * Entries of the role's `tools` that its permission mode takes away again (`plan` removes
 * tools that write or run commands): one warning per tool, naming the role, its file and the
 * tool, because the file asks for something the role will not get.
 */
function modeRemovals(role: RoleDefinition, tools: readonly KnownTool[]): RoleWarning[] {
  const mode = role.permissionMode;
  if (mode === undefined || role.tools === undefined) return [];
  const removes = PERMISSION_MODE_RULES[mode].removes;
  const warnings: RoleWarning[] = [];
  for (const tool of tools) {
    const entries = role.tools.filter((entry) => toolNameMatches(entry, tool.name));
    const removed = removes.filter((capability) => tool.grants?.includes(capability) === true);
    if (entries.length === 0 || removed.length === 0) continue;
    const message = `${roleLabel(role)}: permissionMode ${mode} removes the tool ${tool.name} (listed in tools as ${entries.map((e) => JSON.stringify(e)).join(', ')}), because it grants ${removed.join(' and ')}; the role does not get it`;
    warnings.push(Object.freeze({ role: role.name, file: role.source?.file, key: 'permissionMode', message }));
  }
  return warnings;
}
