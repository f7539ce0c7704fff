/**
 * Host tools: tools an embedding application registers next to the built-in ones.
 *
 * The schema is the host's own: any Standard Schema (zod 3 or 4, valibot, arktype, ...) or a
 * plain JSON Schema, so a host never has to share the runtime's copy of a schema library. Its
 * JSON Schema is canonicalized and frozen like the built-ins', so a host tool in a preset's
 * list is serialized alike and a head built from it is just as stable, and argument errors
 * read like the built-ins' (field, what it should hold, what it got).
 */
import { canonicalJson } from './canonical.js';
import { BUILTIN_TOOL_NAMES } from './tool-names.js';
import { refuseNonObject, toParseResult, TOOL_NAME_PATTERN, type FieldHints, type ParseContext, type ToolParseResult } from './tool-args.js';
import { isAiSdkSchema, isStandardSchema, toolJsonSchemaOf, type AiSdkSchema, type JsonSchemaObject, type ToolArgsOf, type ToolInputSchema } from './tool-input.js';
import { aiSdkValidator, jsonSchemaValidator, standardValidator, type InputOutcome, type InputValidator } from './tool-input-validate.js';
import type { JsonObject, ToolSchema } from './types.js';
import { freezeBuilt } from '../dialogue/freeze.js';

/** A host-defined tool: schema, validator, and the capabilities policy may ask to confirm. */
export interface HostTool<T> {
  readonly name: string;
  readonly schema: ToolSchema;
  /**
   * Validates raw arguments from a model. Never throws; synchronous unless the host's schema
   * validates asynchronously (async refinements, say).
   */
  parse(args: unknown): ToolParseResult<T> | Promise<ToolParseResult<T>>;
  /**
   * Capabilities the tool exercises (`write`, `shell`, `network`, ...). Policy reads them to
   * decide whether giving the tool to a subagent needs the host's confirmation.
   */
  readonly capabilities: readonly string[];
}

/** How a host tool is defined: its name, description and arguments schema, plus policy data. */
export interface HostToolDefinition<S extends ToolInputSchema> {
  readonly name: string;
  readonly description: string;
  /**
   * Any Standard Schema (zod 3 or 4, valibot, arktype, ...), an AI SDK schema
   * (`jsonSchema<T>(...)` from `ai`), or a plain JSON Schema object.
   */
  readonly schema: S;
  /**
   * The JSON Schema the model sees, for a schema library with no JSON Schema conversion of its
   * own (valibot without `toStandardJsonSchema`, say). Validation still uses `schema`.
   */
  readonly jsonSchema?: JsonSchemaObject;
  readonly capabilities?: readonly string[];
  /** What each field expects, worded for argument errors (see {@link FieldHints}). */
  readonly hints?: FieldHints;
}

/**
 * Defines a host tool. Throws a `TypeError` when the name is malformed or taken by a built-in
 * tool (the built-ins are registered for every agent, so a clash would make two tools with one
 * name), when the description is empty, or when the schema has no JSON Schema form for an
 * object.
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { toStandardJsonSchema } from '@valibot/to-json-schema';
 *
 * const readFile = defineHostTool({
 *   name: 'read_file',
 *   description: 'Reads a text file of the project.',
 *   schema: toStandardJsonSchema(v.object({ path: v.pipe(v.string(), v.minLength(1)) })),
 *   capabilities: ['read'],
 * });
 * ```
 */
export function defineHostTool<S extends ToolInputSchema>(def: HostToolDefinition<S>): HostTool<ToolArgsOf<S>> {
  if (!TOOL_NAME_PATTERN.test(def.name)) {
    throw new TypeError(`Tool name ${JSON.stringify(def.name)} must be 1-64 letters, digits, "_" or "-"`);
  }
  if ((BUILTIN_TOOL_NAMES as readonly string[]).includes(def.name)) {
    throw new TypeError(`Tool name ${def.name} is reserved for a built-in tool`);
  }
  if (typeof def.description !== 'string' || def.description.trim() === '') throw new TypeError(`Tool ${def.name} needs a description`);
  if (!isStandardSchema(def.schema) && (def.schema === null || typeof def.schema !== 'object' || Array.isArray(def.schema))) {
    throw new TypeError(`Tool ${def.name}: schema must be a Standard Schema (zod, valibot, arktype, ...) or a JSON Schema object`);
  }
  const generated = toolJsonSchemaOf(def.name, def.schema, def.jsonSchema);
  let declared: JsonObject;
  try {
    declared = freezeBuilt(JSON.parse(JSON.stringify(generated)) as JsonObject);
  } catch (error) {
    throw new TypeError(`Tool ${def.name}: its JSON Schema is not JSON (${error instanceof Error ? error.message : String(error)})`, { cause: error });
  }
  const inputSchema = freezeBuilt(JSON.parse(canonicalJson(declared)) as JsonObject);
  const schema: ToolSchema = Object.freeze({ name: def.name, description: def.description, inputSchema });
  const byJsonSchema = (): InputValidator<ToolArgsOf<S>> => jsonSchemaValidator(def.name, declared as Record<string, unknown>);
  const validate: InputValidator<ToolArgsOf<S>> = isStandardSchema(def.schema)
    ? standardValidator(def.schema as never)
    : isAiSdkSchema(def.schema)
      ? aiSdkValidator(def.schema as AiSdkSchema<ToolArgsOf<S>>, byJsonSchema)
      : byJsonSchema();
  const context: ParseContext = { name: def.name, declared, hints: def.hints ?? {} };
  const parse = (args: unknown): ToolParseResult<ToolArgsOf<S>> | Promise<ToolParseResult<ToolArgsOf<S>>> => {
    const refused = refuseNonObject(context, args);
    if (refused) return refused;
    const outcome = validate(args);
    const read = (done: InputOutcome<ToolArgsOf<S>>): ToolParseResult<ToolArgsOf<S>> => toParseResult(context, done, args);
    return outcome instanceof Promise ? outcome.then(read) : read(outcome);
  };
  return Object.freeze({ name: def.name, schema, parse, capabilities: Object.freeze([...(def.capabilities ?? [])]) });
}

