/**
 * Host tools: tools an embedding application registers next to the built-in ones.
 *
 * They are defined exactly like the built-ins (zod schema → canonical, frozen JSON Schema, and
 * a validator with model-actionable errors) so a host tool in a preset's list is serialized and
 * validated the same way, and a head built from it is just as stable.
 */
import type { z } from 'zod';
import { BUILTIN_TOOL_NAMES } from './tool-names.js';
import { defineTool, type DefinedTool, type FieldHints } from './tool-args.js';

/** A host-defined tool: schema, validator, and the capabilities policy may ask to confirm. */
export interface HostTool<T> extends DefinedTool<T> {
  /**
   * Capabilities the tool exercises (`write`, `shell`, `network`, ...). Policy reads them to
   * decide whether giving the tool to a subagent needs the host's confirmation.
   */
  readonly capabilities: readonly string[];
}

/**
 * Defines a host tool from a zod object schema. `hints` optionally words what each field
 * expects in argument errors (see {@link FieldHints}). Throws a `TypeError` when the name is
 * malformed or taken by a built-in tool (the built-ins are registered for every agent, so a
 * clash would make two tools with one name), or when the schema has no JSON Schema form.
 */
export function defineHostTool<S extends z.ZodObject>(def: {
  readonly name: string;
  readonly description: string;
  readonly schema: S;
  readonly capabilities?: readonly string[];
  readonly hints?: FieldHints;
}): HostTool<z.output<S>> {
  if ((BUILTIN_TOOL_NAMES as readonly string[]).includes(def.name)) {
    throw new TypeError(`Tool name ${def.name} is reserved for a built-in tool`);
  }
  const tool = defineTool({ name: def.name, description: def.description, schema: def.schema, ...(def.hints ? { hints: def.hints } : {}) });
  return Object.freeze({ ...tool, capabilities: Object.freeze([...(def.capabilities ?? [])]) });
}
