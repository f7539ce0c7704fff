/**
 * Looking roles up by name, with an error that tells the model which names exist.
 */
import type { AgentDefinition } from './definition.js';

/**
 * A spawn named a role that no definition provides. The message lists the known roles
 * (sorted) because it is returned to the model as a tool error, and the model can only
 * correct itself if it sees the choices.
 */
export class UnknownRoleError extends Error {
  override readonly name = 'UnknownRoleError';
  readonly code = 'unknown_role';
  /** The name that was asked for. */
  readonly role: string;
  /** Every known role name, sorted. */
  readonly known: readonly string[];

  /**
   * `closest`, when given, replaces the full list in the message (a catalog too large to list,
   * whose `find_roles` tool searches the rest); `known` still holds every name.
   */
  constructor(role: string, known: readonly string[], closest?: { readonly names: readonly string[]; readonly searchTool: string }) {
    const choices =
      known.length === 0
        ? 'no roles are defined'
        : closest !== undefined
          ? `${known.length} roles are defined; ${closest.names.length > 0 ? `closest names: ${closest.names.join(', ')}; ` : ''}${closest.searchTool} searches them all by name and description`
          : `known roles: ${known.join(', ')}`;
    super(`unknown role "${role}"; ${choices}`);
    this.role = role;
    this.known = known;
  }
}

/** The roles a runtime offers, by name. An immutable view over loaded definitions. */
export class RoleRegistry<D extends { readonly name: string } = AgentDefinition> {
  private readonly byName: ReadonlyMap<string, D>;

  /** Takes a map such as `loadDefinitions().definitions`, or any list of definitions. */
  constructor(definitions: ReadonlyMap<string, D> | Iterable<D>) {
    const entries = definitions instanceof Map ? [...(definitions as ReadonlyMap<string, D>).values()] : [...(definitions as Iterable<D>)];
    // Copy so later changes to the caller's map cannot change what spawns resolve to.
    this.byName = new Map(entries.map((definition) => [definition.name, definition]));
  }

  /** The role named `name`. @throws UnknownRoleError listing the known names. */
  getRole(name: string): D {
    const definition = this.byName.get(name);
    if (definition === undefined) throw new UnknownRoleError(name, this.names());
    return definition;
  }

  /** The role named `name`, or undefined. */
  findRole(name: string): D | undefined {
    return this.byName.get(name);
  }

  /** Whether a role named `name` exists. */
  has(name: string): boolean {
    return this.byName.has(name);
  }

  /** Every role name, sorted. */
  names(): string[] {
    return [...this.byName.keys()].sort();
  }

  /** Every role, sorted by name; for listings such as the `Agent` tool's description. */
  list(): D[] {
    return this.names().map((name) => this.byName.get(name) as D);
  }
}
