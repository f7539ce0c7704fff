/**
 * What a JSON Schema node expects, in words a model can follow ("a string of at least 3
 * characters", "one of "a", "b""). Argument errors use it for issues from libraries whose issue
 * data the runtime cannot read, so every schema library's errors read alike.
 */
import type { JsonValue } from '../dialogue/entry.js';
import type { JsonObject } from './types.js';

/** The expectation `node` states, or `undefined` when it states nothing wordable. */
export function describeSchema(node: JsonValue | undefined): string | undefined {
  if (node === null || typeof node !== 'object' || Array.isArray(node)) return undefined;
  const schema = node as JsonObject;
  const choices = schema['enum'] ?? ('const' in schema ? [schema['const'] ?? null] : undefined);
  if (Array.isArray(choices)) return `one of ${choices.map((v) => JSON.stringify(v)).join(', ')}`;
  if (Array.isArray(schema['anyOf']) || Array.isArray(schema['oneOf'])) return 'a value of one of the accepted types';
  const type = schema['type'];
  const types = typeof type === 'string' ? [type] : Array.isArray(type) ? type.filter((t): t is string => typeof t === 'string') : [];
  if (types.length === 0) return undefined;
  return types.map((t) => describeType(t, schema)).join(' or ');
}

function describeType(type: string, schema: JsonObject): string {
  switch (type) {
    case 'string':
      return describeString(schema);
    case 'integer':
    case 'number':
      return describeNumber(type === 'integer' ? 'an integer' : 'a number', schema);
    case 'array':
      return withCount('a list', numberAt(schema, 'minItems'), numberAt(schema, 'maxItems'), 'item');
    case 'object': {
      const props = schema['properties'];
      const fields = props !== null && typeof props === 'object' && !Array.isArray(props) ? Object.keys(props) : [];
      return fields.length > 0 ? `an object with the fields ${fields.join(', ')}` : 'an object';
    }
    case 'boolean':
      return 'a boolean';
    case 'null':
      return 'null';
    default:
      return `a ${type}`;
  }
}

function describeString(schema: JsonObject): string {
  const pattern = schema['pattern'];
  if (typeof pattern === 'string') return `a string matching /${pattern}/`;
  const format = schema['format'];
  if (typeof format === 'string') return `a valid ${format}`;
  const min = numberAt(schema, 'minLength');
  const max = numberAt(schema, 'maxLength');
  if (min === 1 && max === undefined) return 'a non-empty string';
  return withCount('a string', min, max, 'character');
}

function withCount(noun: string, min: number | undefined, max: number | undefined, unit: string): string {
  const plural = (n: number): string => `${n} ${unit}${n === 1 ? '' : 's'}`;
  if (min !== undefined && max !== undefined) return min === max ? `${noun} of exactly ${plural(min)}` : `${noun} of ${min} to ${plural(max)}`;
  if (min !== undefined && min > 0) return `${noun} of at least ${plural(min)}`;
  if (max !== undefined) return `${noun} of at most ${plural(max)}`;
  return noun;
}

function describeNumber(noun: string, schema: JsonObject): string {
  const bounds: string[] = [];
  const min = numberAt(schema, 'minimum');
  const max = numberAt(schema, 'maximum');
  const gt = numberAt(schema, 'exclusiveMinimum');
  const lt = numberAt(schema, 'exclusiveMaximum');
  // zod 4 states the safe-integer range on every integer; that is no news to a model.
  if (gt !== undefined) bounds.push(`more than ${gt}`);
  else if (min !== undefined && min > Number.MIN_SAFE_INTEGER) bounds.push(`at least ${min}`);
  if (lt !== undefined) bounds.push(`less than ${lt}`);
  else if (max !== undefined && max < Number.MAX_SAFE_INTEGER) bounds.push(`at most ${max}`);
  const multiple = numberAt(schema, 'multipleOf');
  if (multiple !== undefined) return bounds.length === 0 ? `a multiple of ${multiple}` : `${noun} ${bounds.join(' and ')} and a multiple of ${multiple}`;
  return bounds.length === 0 ? noun : `${noun} ${bounds.join(' and ')}`;
}

function numberAt(schema: JsonObject, key: string): number | undefined {
  const value = schema[key];
  return typeof value === 'number' ? value : undefined;
}
