/**
 * `Agent` entries of a role's tool lists, as Claude Code reads them.
 *
 * - `Agent(worker, researcher)` keeps the `Agent` tool but lets the agent start only those
 *   roles; `Agent` alone (or `Agent()`, `Agent(*)`) lets it start any.
 * - `Task(…)` is Claude Code's older name of the same tool and means the same.
 * - In `disallowedTools`, `Agent(worker)` takes away only the `worker` role.
 *
 * Spawns are checked against every layer of the delegating agent (its role, the roles above
 * it and the host's spawn policy), like the calls of any other tool.
 */
import type { CallVerdict, PermissionLayer } from './tool-permissions.js';
import { parseToolEntry, toolNameMatches } from './tool-name.js';

/** The spawn tool's name. */
export const AGENT_TOOL = 'Agent';

/** Claude Code's older name of the spawn tool, still accepted in definition files. */
export const LEGACY_AGENT_TOOL = 'Task';

/**
 * The entry with Claude Code's old `Task` name replaced by `Agent`, its pattern kept.
 *
 * @example
 * ```ts
 * normalizeAgentEntry('Task(worker, researcher)'); // 'Agent(worker, researcher)'
 * normalizeAgentEntry('Read');                     // 'Read'
 * ```
 */
export function normalizeAgentEntry(entry: string): string {
  const { tool, pattern } = parseToolEntry(entry);
  if (tool.toLowerCase() !== LEGACY_AGENT_TOOL.toLowerCase()) return entry;
  return pattern === undefined ? AGENT_TOOL : `${AGENT_TOOL}(${pattern})`;
}

/** The role names an `Agent(a, b)` pattern lists. */
export function rolesOfPattern(pattern: string): string[] {
  return pattern
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
}

const ALLOWED: CallVerdict = Object.freeze({ ok: true });

/**
 * Whether an agent governed by `layers` may start a subagent of `role` (undefined: a spawn
 * without a role). The first layer that refuses gives the reason, naming the roles it allows.
 *
 * @example
 * ```ts
 * const layers = [{ label: 'role "lead"', allow: ['Read', 'Agent(worker)'] }];
 * checkSpawnRole(layers, 'worker');   // { ok: true }
 * checkSpawnRole(layers, 'reviewer'); // { ok: false, reason: 'role "lead" may start only the roles worker; …' }
 * ```
 */
export function checkSpawnRole(layers: readonly PermissionLayer[], role: string | undefined): CallVerdict {
  for (const layer of layers) {
    const allowed = (layer.allow ?? []).filter((entry) => toolNameMatches(entry, AGENT_TOOL)).map(parseToolEntry);
    // Without an Agent entry the agent has no Agent tool, which the head already enforces.
    if (allowed.length > 0 && allowed.every((entry) => entry.pattern !== undefined)) {
      const roles = [...new Set(allowed.flatMap((entry) => rolesOfPattern(entry.pattern as string)))];
      if (role === undefined || !roles.includes(role)) {
        const asked = role === undefined ? 'a subagent without a role' : `role "${role}"`;
        return { ok: false, reason: `${layer.label} may start only the roles ${roles.join(', ')}; pass one of them as role (not ${asked})` };
      }
    }
    for (const entry of (layer.deny ?? []).filter((spec) => toolNameMatches(spec, AGENT_TOOL)).map(parseToolEntry)) {
      if (entry.pattern === undefined) return { ok: false, reason: `${layer.label} denies the tool ${AGENT_TOOL}` };
      if (role !== undefined && rolesOfPattern(entry.pattern).includes(role)) {
        return { ok: false, reason: `${layer.label} may not start role "${role}" (disallowedTools ${entry.text})` };
      }
    }
  }
  return ALLOWED;
}
