/**
 * Tool filtering: a role's allow list, then its deny list, over the tools a runtime offers.
 */
import { hasSpecifier, toolNameMatches } from './tool-name.js';

/** A role's tool restrictions, as `tools` and `disallowedTools` in its definition. */
export interface ToolFilter {
  /** Only these tools; absent means every available tool, `[]` means none. */
  readonly allow?: readonly string[];
  /** Never these tools, applied after `allow`. */
  readonly deny?: readonly string[];
}

/** The outcome of applying a filter to the available tools. */
export interface EffectiveTools {
  /** The surviving tool names, in the order `available` lists them (request heads depend on it). */
  readonly tools: readonly string[];
  /** Allow entries that name no available tool: likely typos or tools this host lacks. */
  readonly unknownAllowed: readonly string[];
  /** Deny entries that name no available tool (harmless, but worth a warning). */
  readonly unknownDenied: readonly string[];
  /**
   * Entries with an argument specifier (`Bash(git:*)`) that were applied to the whole tool,
   * because this library does not enforce argument patterns. In `allow` this grants more than
   * the file asked for, so hosts should warn.
   */
  readonly broadened: readonly string[];
}

/**
 * Applies `allow` then `deny` to `available`. Names match ignoring case, and by base name
 * when they carry a specifier (see `tool-name.ts`), so Claude Code files (`Read, Grep`)
 * work against hosts with lowercase tools.
 */
export function effectiveToolNames(input: { readonly available: readonly string[] } & ToolFilter): EffectiveTools {
  const { available, allow, deny } = input;
  const unknownAllowed: string[] = [];
  const unknownDenied: string[] = [];
  const broadened = [...(allow ?? []), ...(deny ?? [])].filter(hasSpecifier);

  const resolveAll = (specs: readonly string[], unknown: string[]): Set<string> => {
    const names = new Set<string>();
    for (const spec of specs) {
      const matches = available.filter((name) => toolNameMatches(spec, name));
      if (matches.length === 0) unknown.push(spec);
      for (const name of matches) names.add(name);
    }
    return names;
  };
  const allowed = allow === undefined ? undefined : resolveAll(allow, unknownAllowed);
  const denied = resolveAll(deny ?? [], unknownDenied);

  const tools = available.filter((name) => (allowed === undefined || allowed.has(name)) && !denied.has(name));
  return { tools: [...new Set(tools)], unknownAllowed, unknownDenied, broadened };
}

/**
 * Whether a call to tool `name` passes the filter, checked again at execution time so a
 * model that calls a tool it was never shown (or a stale schema) is refused.
 */
export function isToolAllowed(filter: ToolFilter, name: string): boolean {
  const refersTo = (spec: string): boolean => toolNameMatches(spec, name);
  if (filter.allow !== undefined && !filter.allow.some(refersTo)) return false;
  return !(filter.deny ?? []).some(refersTo);
}
