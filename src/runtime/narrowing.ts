/**
 * Warnings about authority a role asks for and its parent lacks. A subagent never gets more
 * than its parent: a role that lists a tool its parent does not have, or a model costlier than
 * its parent's that nobody can confirm, runs without it, and the host hears about it once per
 * role and tool (or model) in `runtime.warnings` and `onWarning`.
 */
import { toolNameMatches } from '../policy/tool-name.js';
import type { SystemConfiguration } from '../request/types.js';
import { roleLabel, type RoleDefinition, type RoleWarning } from './roles.js';

/** The warnings found while spawning, each once. */
export class NarrowingWarnings {
  private readonly found: RoleWarning[] = [];
  private readonly keys = new Set<string>();

  constructor(private readonly onWarning: ((warning: RoleWarning) => void) | undefined) {}

  /** Every warning so far, in the order found. */
  get list(): readonly RoleWarning[] {
    return this.found;
  }

  /**
   * Warns about each tool `role` lists that the runtime has (`known`) but the parent's head
   * lacks: the subagent, whose tools are its parent's narrowed, runs without it.
   */
  missingTools(role: RoleDefinition, parentPath: string, parent: SystemConfiguration, known: readonly string[]): void {
    if (role.tools === undefined) return;
    for (const name of known) {
      if (!role.tools.some((entry) => toolNameMatches(entry, name))) continue;
      if (parent.tools.some((t) => t.name === name)) continue;
      this.add(role, 'tools', name, `${roleLabel(role)} lists the tool ${name}, which ${parentPath} (the agent starting it) does not have; a subagent gets at most its parent's tools, so it runs without ${name}`);
    }
  }

  /** Warns that the role's model costs more than the parent's and runs on the parent's instead. */
  costlierModel(role: RoleDefinition, parentPath: string, model: string, parentModel: string): void {
    this.add(role, 'model', model, `${roleLabel(role)} asks for model ${model}, which costs more than the model ${parentModel} of ${parentPath}, and there is no confirm callback to ask; it runs on ${parentModel}`);
  }

  private add(role: RoleDefinition, key: string, subject: string, message: string): void {
    const id = `${role.name}\n${key}\n${subject}`;
    if (this.keys.has(id)) return;
    this.keys.add(id);
    const warning: RoleWarning = Object.freeze({ role: role.name, file: role.source?.file, key, message });
    this.found.push(warning);
    this.onWarning?.(warning);
  }
}
