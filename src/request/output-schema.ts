/**
 * Structured output: the JSON Schema a subagent's final answer must satisfy, how the answer is
 * read from the reply's text, and what the model is told when it does not satisfy it.
 *
 * Validation uses Ajv (JSON Schema draft 2020-12, which also reads the common draft-07
 * keywords), with `allErrors` so one repair request can name every problem at once. Unknown
 * keywords are allowed: schemas come from role files written for other tools.
 */
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import type { JsonValue } from '../dialogue/entry.js';
import { canonicalJson } from './canonical.js';
import { jsonSchemaAjv } from './json-schema-validator.js';
import type { JsonObject } from './types.js';
import { freezeBuilt } from '../dialogue/freeze.js';
import { describeJsonProblem, jsonProblem, jsonTextDepth } from './json-bounds.js';
import { DEFAULT_INPUT_LIMITS, schemaBounds, type InputLimits } from './input-limits.js';

/** A schema that cannot be compiled, with where it came from. */
export class OutputSchemaError extends Error {
  override readonly name = 'OutputSchemaError';
  readonly code = 'invalid_output_schema';
}

/** The outcome of checking a final answer. */
export type OutputCheck = { readonly valid: true; readonly value: JsonValue } | { readonly valid: false; readonly errors: string };

/** One compiled schema: its frozen canonical form (what agents hold) and its validator. */
interface Compiled {
  readonly schema: JsonObject;
  readonly validate: ValidateFunction;
}

/**
 * Distinct schema contents kept compiled. Ajv keeps every schema it compiled until it is
 * removed, so the cache is bounded: past this many contents the least recently used is
 * removed from Ajv (agents that hold its schema keep their validator, below).
 */
export const MAX_COMPILED_SCHEMAS = 256;

/** Compiled schemas by canonical JSON, least recently used first. */
const byContent = new Map<string, Compiled>();
/** The compiled schema of each frozen schema this module handed out. */
const byFrozen = new WeakMap<object, Compiled>();

const LIMIT_NAMES = { maxDepth: 'maxSchemaDepth', maxBytes: 'maxSchemaBytes' } as const;

/**
 * Checks that `schema` is a JSON Schema object Ajv can compile, within `maxSchemaDepth` and
 * `maxSchemaBytes`; returns it deeply frozen (canonical key order). Schemas are compiled once
 * per content: every spawn with an equal schema (whatever its key order) gets the same frozen
 * object and validator, so a schema with `$id` works for each of them.
 *
 * @throws OutputSchemaError naming `source` when it is not a schema, too deep or too large.
 *
 * @example
 * ```ts
 * const schema = checkOutputSchema({ type: 'object', required: ['file'] }, 'spawn output');
 * checkOutputSchema({ required: ['file'], type: 'object' }, 'role output') === schema; // true
 * ```
 */
export function checkOutputSchema(schema: unknown, source: string, limits: InputLimits = DEFAULT_INPUT_LIMITS): JsonObject {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) {
    throw new OutputSchemaError(`${source}: an output schema must be a JSON Schema object, e.g. { "type": "object", "properties": { ... } }`);
  }
  // Bounded before anything recursive (canonical JSON, freezing, Ajv) walks it.
  const problem = jsonProblem(schema, schemaBounds(limits));
  if (problem !== undefined) {
    const limit = problem.bound === undefined ? '' : ` (limit ${LIMIT_NAMES[problem.bound]})`;
    throw new OutputSchemaError(`${source}: the output schema is invalid: ${describeJsonProblem(problem)}${limit}`);
  }
  const known = byFrozen.get(schema);
  if (known !== undefined) return known.schema;
  return compiledOf(canonicalJson(schema), source).schema;
}

/** The compiled schema for a canonical JSON text, compiling it on first sight. */
function compiledOf(key: string, source: string): Compiled {
  const hit = byContent.get(key);
  if (hit !== undefined) {
    byContent.delete(key);
    byContent.set(key, hit);
    return hit;
  }
  const schema = freezeBuilt(JSON.parse(key) as JsonObject);
  let validate: ValidateFunction;
  try {
    validate = jsonSchemaAjv().compile(schema);
  } catch (error) {
    throw new OutputSchemaError(`${source}: the output schema is not valid JSON Schema (${error instanceof Error ? error.message : String(error)})`);
  }
  const entry: Compiled = { schema, validate };
  byContent.set(key, entry);
  byFrozen.set(schema, entry);
  if (byContent.size > MAX_COMPILED_SCHEMAS) {
    const [oldestKey, oldest] = byContent.entries().next().value!;
    byContent.delete(oldestKey);
    jsonSchemaAjv().removeSchema(oldest.schema);
  }
  return entry;
}

/** The validator of a schema: the one compiled for it, else (a schema built elsewhere) the one for its content. */
function validatorOf(schema: JsonObject): ValidateFunction {
  return byFrozen.get(schema)?.validate ?? compiledOf(canonicalJson(schema), 'output schema').validate;
}

/** Schema problems named in one repair request at most; the rest are counted. */
const SHOWN_ERRORS = 20;

/**
 * Reads the final answer as JSON (a ```json fence around it is accepted) and validates it.
 * Never throws: a reply that is not JSON or does not match is an ordinary outcome. Before it
 * is parsed, the answer is held to `maxAnswerBytes` and `maxAnswerDepth` (read from the text
 * without recursion): a value thousands of levels deep would overflow the stack of whatever
 * walks it next (validation, freezing, the parent's canonical JSON).
 *
 * @example
 * ```ts
 * checkOutput('{"a":'.repeat(8000) + '1' + '}'.repeat(8000), { type: 'object' });
 * // { valid: false, errors: 'the final answer is nested deeper than 64 levels (limit maxAnswerDepth)' }
 * ```
 */
export function checkOutput(text: string, schema: JsonObject, limits: InputLimits = DEFAULT_INPUT_LIMITS): OutputCheck {
  const body = unfence(text.trim());
  const bounded = answerProblem(body, limits);
  if (bounded !== undefined) return { valid: false, errors: bounded };
  let value: JsonValue;
  try {
    value = JSON.parse(body) as JsonValue;
  } catch (error) {
    return { valid: false, errors: `the final answer is not JSON (${error instanceof Error ? error.message : String(error)})` };
  }
  const validate = validatorOf(schema);
  if (validate(value)) return { valid: true, value: freezeBuilt(value) };
  const errors = validate.errors ?? [];
  const shown = errors.slice(0, SHOWN_ERRORS).map(describeError);
  if (errors.length > SHOWN_ERRORS) shown.push(`and ${errors.length - SHOWN_ERRORS} more problems`);
  return { valid: false, errors: shown.join('; ') };
}

/** Why the answer's text is too large or too deep for the limits, or `undefined`. */
function answerProblem(body: string, limits: InputLimits): string | undefined {
  // UTF-16 length bounds UTF-8 bytes from below (1 unit ≥ 1 byte) and from above (3 bytes a unit).
  if (body.length > limits.maxAnswerBytes || (body.length * 3 > limits.maxAnswerBytes && Buffer.byteLength(body, 'utf8') > limits.maxAnswerBytes)) {
    return `the final answer is larger than ${limits.maxAnswerBytes} bytes (limit maxAnswerBytes)`;
  }
  if (jsonTextDepth(body, limits.maxAnswerDepth) > limits.maxAnswerDepth) {
    return `the final answer is nested deeper than ${limits.maxAnswerDepth} levels (limit maxAnswerDepth)`;
  }
  return undefined;
}

function unfence(text: string): string {
  const fence = /^```[a-zA-Z]*\s*\n([\s\S]*?)\n?```$/.exec(text);
  return fence ? fence[1]!.trim() : text;
}

function describeError(error: ErrorObject): string {
  const at = error.instancePath === '' ? 'the answer' : error.instancePath;
  const extra = error.keyword === 'additionalProperties' ? ` (${String((error.params as { additionalProperty?: string }).additionalProperty)})` : '';
  return `${at} ${error.message ?? 'is invalid'}${extra}`;
}

/** What the subagent is told about its answer's shape (appended to its task, after any inherited dialogue). */
export function outputInstruction(schema: JsonObject): string {
  return [
    '<output_format>',
    'Finish with a final answer that is only a JSON value matching this JSON Schema (no prose around it):',
    canonicalJson(schema),
    '</output_format>',
  ].join('\n');
}

/** The one repair request a subagent gets when its final answer did not match. */
export function repairInstruction(errors: string): string {
  return [
    'Your final answer does not match the required output schema:',
    errors,
    'Reply again with only the corrected JSON value.',
  ].join('\n');
}

