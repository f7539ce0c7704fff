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
import { jsonTextDepth } from './json-bounds.js';
import { DEFAULT_INPUT_LIMITS, type InputLimits } from './input-limits.js';

/** A schema that cannot be compiled, with where it came from. */
export class OutputSchemaError extends Error {
  override readonly name = 'OutputSchemaError';
  readonly code = 'invalid_output_schema';
}

/** The outcome of checking a final answer. */
export type OutputCheck = { readonly valid: true; readonly value: JsonValue } | { readonly valid: false; readonly errors: string };

const compiled = new WeakMap<object, ValidateFunction>();

/**
 * Checks that `schema` is a JSON Schema object Ajv can compile; returns it deeply frozen
 * (canonical key order). Throws {@link OutputSchemaError} naming `source` otherwise.
 */
export function checkOutputSchema(schema: unknown, source: string): JsonObject {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) {
    throw new OutputSchemaError(`${source}: an output schema must be a JSON Schema object, e.g. { "type": "object", "properties": { ... } }`);
  }
  let frozen: JsonObject;
  try {
    frozen = freezeBuilt(JSON.parse(canonicalJson(schema)) as JsonObject);
  } catch (error) {
    throw new OutputSchemaError(`${source}: the output schema is not JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  validatorOf(frozen, source);
  return frozen;
}

function validatorOf(schema: JsonObject, source = 'output schema'): ValidateFunction {
  const hit = compiled.get(schema);
  if (hit) return hit;
  let validate: ValidateFunction;
  try {
    validate = jsonSchemaAjv().compile(schema);
  } catch (error) {
    throw new OutputSchemaError(`${source}: the output schema is not valid JSON Schema (${error instanceof Error ? error.message : String(error)})`);
  }
  compiled.set(schema, validate);
  return validate;
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

