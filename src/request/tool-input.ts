/**
 * What a host tool's `schema` may be, and the JSON Schema the model sees for it.
 *
 * A host brings its own schema library, so the runtime only relies on the Standard Schema
 * interface (`~standard.validate`) for validation, and on whatever JSON Schema form the
 * library offers for the model: the Standard JSON Schema converter (`~standard.jsonSchema`,
 * zod 4.2+, arktype, valibot through `toStandardJsonSchema`), zod 4's `toJSONSchema`, or, for
 * zod 3, `zod-to-json-schema`. A plain JSON Schema object is accepted too, and an explicit
 * `jsonSchema` covers any library with no converter of its own.
 */
import { createRequire } from 'node:module';
import type { StandardJSONSchemaV1, StandardSchemaV1 } from '@standard-schema/spec';
import { z } from 'zod';
import type { JsonObject } from './types.js';

/** A JSON Schema document for a tool's arguments (`{ type: 'object', properties: ... }`). */
export type JsonSchemaObject = { readonly [key: string]: unknown };

/** What an AI SDK schema's `validate` returns. */
export type AiSdkValidationResult<T> = { readonly success: true; readonly value: T } | { readonly success: false; readonly error: Error };

/**
 * A schema made by the AI SDK's `jsonSchema()` or `zodSchema()` (`Schema<T>` of `ai`), so one
 * schema object serves an AI SDK `tool()` and a runtime tool alike.
 */
export interface AiSdkSchema<T = unknown> {
  /** The argument type (for inference only). */
  readonly _type: T;
  readonly jsonSchema: unknown;
  readonly validate?: (value: unknown) => AiSdkValidationResult<T> | PromiseLike<AiSdkValidationResult<T>>;
}

/**
 * A tool's argument schema: any Standard Schema (zod 3 or 4, valibot, arktype, ...), an AI SDK
 * schema (`jsonSchema<T>(...)`), or a plain JSON Schema object.
 */
export type ToolInputSchema = StandardSchemaV1 | AiSdkSchema | JsonSchemaObject;

/**
 * The validated arguments a tool's `execute` receives: the schema's output type, or a JSON
 * object for a plain JSON Schema.
 */
export type ToolArgsOf<S> = S extends StandardSchemaV1 ? StandardSchemaV1.InferOutput<S> : S extends AiSdkSchema<infer T> ? T : JsonObject;

/** The AI SDK marks its schemas with this registered symbol. */
const AI_SDK_SCHEMA = Symbol.for('vercel.ai.schema');

/** Whether `schema` is an AI SDK schema (`jsonSchema()`, `zodSchema()`). */
export function isAiSdkSchema(schema: unknown): schema is AiSdkSchema {
  return schema !== null && typeof schema === 'object' && (schema as Record<symbol, unknown>)[AI_SDK_SCHEMA] === true && 'jsonSchema' in schema;
}

/** Whether `schema` implements Standard Schema (rather than being a plain JSON Schema). */
export function isStandardSchema(schema: unknown): schema is StandardSchemaV1 {
  if (schema === null || (typeof schema !== 'object' && typeof schema !== 'function')) return false;
  const props = (schema as { '~standard'?: unknown })['~standard'];
  return props !== null && typeof props === 'object' && typeof (props as { validate?: unknown }).validate === 'function';
}

/**
 * The JSON Schema (input side, declaration order, no `$schema` marker) a model is shown for
 * `schema`; `explicit` wins when the host passes one. Throws a `TypeError` naming `tool` when
 * the schema's library offers no JSON Schema form, or when the result is not an object schema.
 */
export function toolJsonSchemaOf(tool: string, schema: ToolInputSchema, explicit?: JsonSchemaObject): Record<string, unknown> {
  let generated: Record<string, unknown>;
  if (explicit !== undefined) generated = { ...explicit };
  else if (isAiSdkSchema(schema)) generated = aiSdkJsonSchema(tool, schema);
  else if (!isStandardSchema(schema)) generated = { ...schema };
  else generated = convert(tool, schema);
  delete generated['$schema'];
  if (generated['type'] !== 'object') {
    throw new TypeError(`Tool ${tool}: its arguments schema must describe an object (JSON Schema type "object"), e.g. z.object({ ... })`);
  }
  return generated;
}

function aiSdkJsonSchema(tool: string, schema: AiSdkSchema): Record<string, unknown> {
  let value: unknown;
  try {
    value = schema.jsonSchema;
  } catch (error) {
    throw new TypeError(`Tool ${tool}: its arguments schema has no JSON Schema form (${error instanceof Error ? error.message : String(error)})`, { cause: error });
  }
  if (value === null || typeof value !== 'object' || typeof (value as { then?: unknown }).then === 'function') {
    throw new TypeError(`Tool ${tool}: its AI SDK schema's JSON Schema is not available synchronously; pass it as \`jsonSchema\``);
  }
  return { ...(value as Record<string, unknown>) };
}

function convert(tool: string, schema: StandardSchemaV1): Record<string, unknown> {
  const converter = (schema as unknown as { readonly '~standard': Partial<StandardJSONSchemaV1.Props> })['~standard'].jsonSchema;
  try {
    if (converter !== undefined) return converter.input({ target: 'draft-2020-12' });
    const vendor = schema['~standard'].vendor;
    // zod 4 before its Standard JSON Schema support still converts with toJSONSchema.
    if (vendor === 'zod' && '_zod' in schema) return z.toJSONSchema(schema as unknown as z.ZodType, { io: 'input' }) as Record<string, unknown>;
    if (vendor === 'zod') return zod3ToJsonSchema(schema);
  } catch (error) {
    throw new TypeError(`Tool ${tool}: its arguments schema has no JSON Schema form (${error instanceof Error ? error.message : String(error)})`, { cause: error });
  }
  throw new TypeError(
    `Tool ${tool}: a ${schema['~standard'].vendor} schema offers no JSON Schema conversion; pass the JSON Schema the model should see as \`jsonSchema\``,
  );
}

type ZodToJsonSchema = (schema: unknown, options: { readonly $refStrategy: 'none'; readonly target: 'jsonSchema7' }) => Record<string, unknown>;
let zod3Converter: ZodToJsonSchema | undefined;

/** zod 3 has no converter of its own; `zod-to-json-schema` is loaded the first time one is needed. */
function zod3ToJsonSchema(schema: unknown): Record<string, unknown> {
  zod3Converter ??= (createRequire(import.meta.url)('zod-to-json-schema') as { zodToJsonSchema: ZodToJsonSchema }).zodToJsonSchema;
  return zod3Converter(schema, { $refStrategy: 'none', target: 'jsonSchema7' });
}
