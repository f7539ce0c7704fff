/**
 * Tool filtering: a role's allow list, then its deny list, over the tools a runtime offers.
 *
 * An entry may carry a permission pattern (`Bash(git diff *)`, see `permission-pattern.ts`).
 * Such an entry keeps the tool visible only when the tool declares a matcher, because then
 * every call is checked against the pattern where the tool runs (`tool-permissions.ts`). For
 * a tool without a matcher the pattern cannot be enforced, so the tool is removed: a pattern
 * never widens into the whole tool.
 */
import type { ToolFilter } from '../request/types.js';
import { hasSpecifier, toolNameMatches } from './tool-name.js';

/** The outcome of applying a filter to the available tools. */
export interface EffectiveTools {
  /** The surviving tool names, in the order `available` lists them (request heads depend on it). */
  readonly tools: readonly string[];
  /** Allow entries that name no available tool: likely typos or tools this host lacks. */
  readonly unknownAllowed: readonly string[];
  /** Deny entries that name no available tool (harmless, but worth a warning). */
  readonly unknownDenied: readonly string[];
  /**
   * Entries with a pattern (`Bash(git diff *)`) for a tool that declares no matcher. The
   * pattern cannot be checked, so the tool is left out (from an allow list) or removed (from
   * a deny list); hosts should warn.
   */
  readonly unenforceable: readonly string[];
}

/**
 * Applies `allow` then `deny` to `available`. Names match ignoring case, and by base name
 * when they carry a pattern (see `tool-name.ts`), so Claude Code files (`Read, Grep`) work
 * against hosts with lowercase tools. `hasMatcher` says which tools can check patterns;
 * without it, none can.
 */
export function effectiveToolNames(
  input: { readonly available: readonly string[]; readonly hasMatcher?: (tool: string) => boolean } & ToolFilter,
): EffectiveTools {
  const { available, allow, deny } = input;
  const hasMatcher = input.hasMatcher ?? (() => false);
  const unknownAllowed = (allow ?? []).filter((spec) => !available.some((name) => toolNameMatches(spec, name)));
  const unknownDenied = (deny ?? []).filter((spec) => !available.some((name) => toolNameMatches(spec, name)));
  const unenforceable = [...(allow ?? []), ...(deny ?? [])].filter(
    (spec) => hasSpecifier(spec) && available.some((name) => toolNameMatches(spec, name) && !hasMatcher(name)),
  );
  const tools = available.filter((name) => isToolAllowed({ ...(allow ? { allow } : {}), ...(deny ? { deny } : {}) }, name, hasMatcher(name)));
  return { tools: [...new Set(tools)], unknownAllowed, unknownDenied, unenforceable };
}

/**
 * Whether tool `name` may be offered and called at all under the filter, checked again at
 * execution time so a model that calls a tool it was never shown (or a stale schema) is
 * refused. With `hasMatcher`, an entry's pattern is checked per call (`checkToolCall`);
 * without it, a pattern-only allow entry does not allow the tool and a pattern deny entry
 * denies all of it.
 */
export function isToolAllowed(filter: ToolFilter, name: string, hasMatcher = false): boolean {
  const refersTo = (spec: string): boolean => toolNameMatches(spec, name);
  if (filter.allow !== undefined) {
    const entries = filter.allow.filter(refersTo);
    if (!entries.some((spec) => !hasSpecifier(spec) || hasMatcher)) return false;
  }
  return !(filter.deny ?? []).some((spec) => refersTo(spec) && (!hasSpecifier(spec) || !hasMatcher));
}
