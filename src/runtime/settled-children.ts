/**
 * A subagent's result as the runtime completed it (subtree usage, elapsed time), held on its
 * parent's record from the subagent settling until the parent's wording of the report reads
 * it: the report carries the result as the subagent's machine took it. Read once; what the
 * parent never reads goes with the parent's record.
 */
import type { AgentRecord, Registry } from './registry.js';
import type { AgentResult } from './types.js';

/** Holds `completed`, the completed form of `reported`, on the parent's record of `record`. */
export function holdSettled(registry: Registry, record: AgentRecord, reported: AgentResult, completed: AgentResult): void {
  const parent = record.parentPath === null ? undefined : registry.get(record.parentPath);
  if (parent) (parent.settledChildren ??= new Map()).set(record.path, { reported, completed });
}

/** Removes and returns the completed form of `reported` its parent's record holds. */
export function takeSettled(registry: Registry, reported: AgentResult): AgentResult | undefined {
  const cut = reported.path.lastIndexOf('/');
  const held = cut > 0 ? registry.get(reported.path.slice(0, cut))?.settledChildren : undefined;
  const entry = held?.get(reported.path);
  if (!held || !entry || entry.reported !== reported) return undefined;
  held.delete(reported.path);
  return entry.completed;
}
