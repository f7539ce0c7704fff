/**
 * Validating a host tool's arguments against its schema, whatever library made it: a Standard
 * Schema through `~standard.validate`, a plain JSON Schema through Ajv. Both report issues in
 * one library-neutral shape that the argument-error wording reads.
 */
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import type { StandardSchemaV1 } from '@standard-schema/spec';
import { jsonSchemaAjv } from './json-schema-validator.js';
import type { AiSdkSchema, AiSdkValidationResult } from './tool-input.js';

/** One problem found in a call's arguments, in library-neutral terms. */
export interface InputIssue {
  /** Where in the arguments (`['attachments', 0, 'name']`). */
  readonly path: ReadonlyArray<string | number>;
  /** The library's own message, used when nothing better can be said. */
  readonly message: string;
  /** Keys the object at `path` does not accept, when that is the problem. */
  readonly unknownKeys?: readonly string[];
  /** The raw issue when it came from zod 4, whose issue data words expectations precisely. */
  readonly zod4?: unknown;
}

/** The outcome of validating arguments: the (possibly transformed) value, or issues. */
export type InputOutcome<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly issues: readonly InputIssue[] }
  /** The validator itself threw (a host refinement that throws, say). */
  | { readonly ok: false; readonly thrown: string };

/** Validates raw arguments; synchronous when the schema is. Never throws or rejects. */
export type InputValidator<T> = (args: unknown) => InputOutcome<T> | Promise<InputOutcome<T>>;

/** A validator over a Standard Schema's `~standard.validate`. */
export function standardValidator<T>(schema: StandardSchemaV1<unknown, T>): InputValidator<T> {
  const zod4 = schema['~standard'].vendor === 'zod' && '_zod' in schema;
  const read = (result: StandardSchemaV1.Result<T>): InputOutcome<T> =>
    result.issues === undefined ? { ok: true, value: result.value } : { ok: false, issues: result.issues.map((issue) => fromStandardIssue(issue, zod4)) };
  return (args) => {
    let result: StandardSchemaV1.Result<T> | Promise<StandardSchemaV1.Result<T>>;
    try {
      result = schema['~standard'].validate(args);
    } catch (error) {
      return { ok: false, thrown: reasonOf(error) };
    }
    return result instanceof Promise ? result.then(read, (error: unknown) => ({ ok: false, thrown: reasonOf(error) })) : read(result);
  };
}

/**
 * A validator over an AI SDK schema's `validate`, or `fallback` (its JSON Schema through Ajv)
 * when it has none. A failure's issues are read from the error when it carries them (a
 * ZodError does); otherwise its message speaks for the whole call.
 */
export function aiSdkValidator<T>(schema: AiSdkSchema<T>, fallback: () => InputValidator<T>): InputValidator<T> {
  const check = schema.validate;
  if (check === undefined) return fallback();
  const read = (result: AiSdkValidationResult<T>): InputOutcome<T> => {
    if (result.success) return { ok: true, value: result.value };
    const carried = (result.error as { issues?: unknown }).issues;
    if (Array.isArray(carried) && carried.length > 0) return { ok: false, issues: (carried as StandardSchemaV1.Issue[]).map((issue) => fromStandardIssue(issue, false)) };
    return { ok: false, issues: [{ path: [], message: result.error.message }] };
  };
  return (args) => {
    let result: AiSdkValidationResult<T> | PromiseLike<AiSdkValidationResult<T>>;
    try {
      result = check(args);
    } catch (error) {
      return { ok: false, thrown: reasonOf(error) };
    }
    if (typeof (result as { then?: unknown }).then !== 'function') return read(result as AiSdkValidationResult<T>);
    return Promise.resolve(result).then(read, (error: unknown) => ({ ok: false, thrown: reasonOf(error) }));
  };
}

function fromStandardIssue(issue: StandardSchemaV1.Issue, zod4: boolean): InputIssue {
  const path = (issue.path ?? []).map((part) => (typeof part === 'object' ? part.key : part)).filter((p): p is string | number => typeof p !== 'symbol');
  // zod 3 and 4 report unknown keys (strict objects) as one issue on the object itself.
  const raw = issue as { readonly code?: unknown; readonly keys?: unknown };
  const unknownKeys = raw.code === 'unrecognized_keys' && Array.isArray(raw.keys) ? (raw.keys as unknown[]).map(String) : undefined;
  return { path, message: issue.message, ...(unknownKeys ? { unknownKeys } : {}), ...(zod4 ? { zod4: issue } : {}) };
}

/**
 * A validator over a plain JSON Schema (draft 2020-12; the common draft-07 keywords read the
 * same). Throws a `TypeError` naming `tool` when Ajv cannot compile the schema.
 */
export function jsonSchemaValidator<T>(tool: string, schema: Record<string, unknown>): InputValidator<T> {
  let validate: ValidateFunction;
  try {
    validate = jsonSchemaAjv().compile(schema);
  } catch (error) {
    throw new TypeError(`Tool ${tool}: its arguments schema is not valid JSON Schema (${reasonOf(error)})`, { cause: error });
  }
  return (args) => {
    if (validate(args)) return { ok: true, value: args as T };
    return { ok: false, issues: (validate.errors ?? []).map(fromAjvError) };
  };
}

function fromAjvError(error: ErrorObject): InputIssue {
  const path = error.instancePath
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((part) => (/^(0|[1-9]\d*)$/.test(part) ? Number(part) : part));
  const message = error.message ?? error.keyword;
  if (error.keyword === 'required') return { path: [...path, String((error.params as { missingProperty: string }).missingProperty)], message };
  if (error.keyword === 'additionalProperties') return { path, message, unknownKeys: [String((error.params as { additionalProperty: string }).additionalProperty)] };
  return { path, message };
}

const reasonOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));
