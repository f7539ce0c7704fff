/**
 * Tool registries: tool schemas by name, from which presets pick their tools.
 */
import type { ToolRegistry } from './system.js';
import { BUILTIN_TOOL_SCHEMAS } from './tools.js';
import type { ToolSchema } from './types.js';

/**
 * Builds a registry from the built-in tools followed by `tools` (schemas, or defined tools
 * carrying one). Throws a `TypeError` when two tools share a name: a head with two schemas of
 * one name is invalid for providers and ambiguous for the model.
 *
 * `builtins` replaces the built-in schemas, for a runtime whose `Agent` tool carries its role
 * catalog (see `role-catalog.ts`); it must keep their names and order.
 */
export function createToolRegistry(
  tools: Iterable<ToolSchema | { readonly schema: ToolSchema }> = [],
  builtins: readonly ToolSchema[] = BUILTIN_TOOL_SCHEMAS,
): ToolRegistry {
  const registry = new Map<string, ToolSchema>();
  for (const item of [...builtins, ...tools]) {
    const schema = 'schema' in item ? item.schema : item;
    if (registry.has(schema.name)) throw new TypeError(`Two tools are named ${schema.name}`);
    registry.set(schema.name, schema);
  }
  return registry;
}
