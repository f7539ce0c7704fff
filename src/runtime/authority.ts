/**
 * An agent's authority beyond its request head: the tool lists that govern its calls (its
 * parent's, its role's, the host's), its permission mode, and what the host granted it at
 * spawn (external directories, extension inheritance). Set once at spawn, journaled with its
 * descriptor, and restored as it was on resume, so neither a follow-up turn nor a resume
 * widens what a narrowed subagent may do.
 */
import type { SpawnRecord } from '../store/records.js';
import type { AgentRecord } from './registry.js';

/** What the journal keeps of an agent's authority (absent for the root: it holds all). */
export type JournaledAuthority = NonNullable<SpawnRecord['authority']>;

/** The authority of a just-spawned agent, as its descriptor journals it. */
export function authorityOf(record: AgentRecord | undefined): JournaledAuthority | undefined {
  if (!record || record.parentPath === null) return undefined;
  return {
    permissions: record.permissions.map((layer) => ({ ...layer })),
    ...(record.permissionMode !== undefined ? { permissionMode: record.permissionMode } : {}),
    ...(record.grants ? { grants: { externalDirectories: [...record.grants.externalDirectories], inheritsExtensions: record.grants.inheritsExtensions } } : {}),
  };
}

/**
 * Gives a resumed agent the authority its descriptor journaled. A journal written before
 * authority was journaled has none: its subagent gets its parent's tool lists (it is never
 * left with fewer layers than its parent) and no grants.
 */
export function restoreAuthority(record: AgentRecord, journaled: JournaledAuthority | undefined, parent: AgentRecord | undefined): void {
  if (!journaled) {
    record.permissions = parent?.permissions ?? [];
    record.grants = Object.freeze({ externalDirectories: Object.freeze([]), inheritsExtensions: false });
    return;
  }
  record.permissions = Object.freeze(journaled.permissions.map((layer) => Object.freeze({ ...layer })));
  record.permissionMode = journaled.permissionMode;
  const grants = journaled.grants;
  record.grants = Object.freeze({ externalDirectories: Object.freeze([...(grants?.externalDirectories ?? [])]), inheritsExtensions: grants?.inheritsExtensions === true });
}
