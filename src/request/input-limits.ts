/**
 * Limits on what a model (or a role file) can make the runtime hold or compute: how deep and
 * how large tool-call arguments, structured answers and output schemas may be. The host sets
 * them with the runtime's `limits` option, beside the spawn limits.
 */
import type { JsonBounds } from './json-bounds.js';

/** Depth and size bounds for the JSON values models and role files hand the runtime. */
export interface InputLimits {
  /** Deepest nesting of one tool call's arguments (objects and arrays). Default 64. */
  readonly maxArgumentDepth: number;
  /** Largest tool call's arguments, in UTF-8 bytes of JSON. Default 1 MiB (1,048,576). */
  readonly maxArgumentBytes: number;
  /** Deepest nesting of a structured answer (an agent with an output schema). Default 64. */
  readonly maxAnswerDepth: number;
  /** Largest structured answer, in UTF-8 bytes of its text. Default 1 MiB. */
  readonly maxAnswerBytes: number;
  /** Deepest nesting of an output schema. Default 64. */
  readonly maxSchemaDepth: number;
  /** Largest output schema, in UTF-8 bytes of JSON. Default 1 MiB. */
  readonly maxSchemaBytes: number;
}

/** The defaults of {@link InputLimits}: 64 levels and 1 MiB for each kind of value. */
export const DEFAULT_INPUT_LIMITS: InputLimits = Object.freeze({
  maxArgumentDepth: 64,
  maxArgumentBytes: 1_048_576,
  maxAnswerDepth: 64,
  maxAnswerBytes: 1_048_576,
  maxSchemaDepth: 64,
  maxSchemaBytes: 1_048_576,
});

/**
 * The deepest nesting any depth limit may allow. Serializing, freezing and validating a value
 * recurse once per level; past a few thousand levels that overflows the stack, so a host
 * cannot raise a depth limit beyond this.
 */
export const MAX_NESTING_LIMIT = 1_000;

/** The bounds for a tool call's arguments. */
export const argumentBounds = (limits: InputLimits): JsonBounds => ({ maxDepth: limits.maxArgumentDepth, maxBytes: limits.maxArgumentBytes });
/** The bounds for a structured answer. */
export const answerBounds = (limits: InputLimits): JsonBounds => ({ maxDepth: limits.maxAnswerDepth, maxBytes: limits.maxAnswerBytes });
/** The bounds for an output schema. */
export const schemaBounds = (limits: InputLimits): JsonBounds => ({ maxDepth: limits.maxSchemaDepth, maxBytes: limits.maxSchemaBytes });
