/**
 * The runtime's view of agent definitions ("roles"): lookup with a clear error.
 */
import type { AgentDefinition } from '../policy/definition.js';
import { RoleRegistry } from '../policy/registry.js';
import { roleCatalogText, type RoleCatalogLimits } from '../request/role-catalog.js';

/** The fields of an agent definition the runtime reads; loaded definitions fit it. */
export type RoleDefinition = Pick<AgentDefinition, 'name'> &
  Partial<Pick<AgentDefinition, 'instructions' | 'description' | 'model' | 'effort' | 'tools' | 'disallowedTools' | 'context' | 'contexts' | 'delivery' | 'lifetime' | 'maxTurns'>>;

/** Resolves spawn `role` names. Without configured definitions, any valid name is a plain label. */
export class Roles {
  private readonly registry: RoleRegistry<RoleDefinition> | undefined;

  constructor(options: { readonly roles?: Iterable<RoleDefinition>; readonly roleCatalog?: RoleCatalogLimits | false }) {
    this.registry = options.roles ? new RoleRegistry(options.roles) : undefined;
    this.catalog = options.roleCatalog === false || !this.registry ? '' : roleCatalogText(this.registry.list(), options.roleCatalog);
  }

  /**
   * The role catalog the `Agent` tool's description carries: computed once, here, so it is
   * fixed for the runtime's life (`''` without roles, or with `roleCatalog: false`).
   */
  readonly catalog: string;

  /**
   * The definition for `name`, a plain label when none are configured, or undefined without
   * a role. @throws UnknownRoleError (code `unknown_role`) listing the known roles.
   */
  resolve(name: string | undefined): RoleDefinition | undefined {
    if (name === undefined) return undefined;
    return this.registry ? this.registry.getRole(name) : { name };
  }
}
