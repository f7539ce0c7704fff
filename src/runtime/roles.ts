/**
 * The runtime's view of agent definitions ("roles"): lookup with a clear error.
 */
import type { AgentDefinition } from '../policy/definition.js';
import { RuntimeError } from './errors.js';

/** The fields of an agent definition the runtime reads; loaded definitions fit it. */
export type RoleDefinition = Pick<AgentDefinition, 'name'> &
  Partial<Pick<AgentDefinition, 'instructions' | 'description' | 'model' | 'effort' | 'tools' | 'disallowedTools' | 'context' | 'contexts' | 'delivery' | 'lifetime' | 'maxTurns'>>;

/** Resolves spawn `role` names. Without configured definitions, any valid name is a plain label. */
export class Roles {
  private readonly byName: ReadonlyMap<string, RoleDefinition> | undefined;

  constructor(options: { readonly roles?: Iterable<RoleDefinition> }) {
    this.byName = options.roles ? new Map([...options.roles].map((r) => [r.name, r])) : undefined;
  }

  /** The definition for `name`, a plain label when none are configured, or undefined without a role. */
  resolve(name: string | undefined): RoleDefinition | undefined {
    if (name === undefined) return undefined;
    if (!this.byName) return { name };
    const found = this.byName.get(name);
    if (found) return found;
    const known = [...this.byName.keys()].sort();
    throw new RuntimeError(
      'unknown_role',
      `unknown role "${name}": known roles are ${known.length ? known.map((k) => `"${k}"`).join(', ') : '(none defined)'}`,
    );
  }

  /** Known role names, sorted. */
  names(): string[] {
    return this.byName ? [...this.byName.keys()].sort() : [];
  }
}
