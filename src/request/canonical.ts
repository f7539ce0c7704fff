/**
 * Canonical JSON: one byte sequence per value, whatever order its objects were built in.
 *
 * Request heads are compared byte for byte (a provider reuses a cached prefix only when the
 * leading bytes match), so two configurations that are equal as values must serialize to
 * equal strings. `JSON.stringify` follows insertion order and silently drops or rewrites
 * values it cannot represent; this module sorts keys and refuses such values instead, so a
 * mistake surfaces as an error rather than as a silently different request.
 */
import type { JsonValue } from '../dialogue/entry.js';

/** Thrown when a value has no canonical JSON form. `path` locates the offending value. */
export class CanonicalJsonError extends TypeError {
  /** JSONPath-like location of the offending value, `$` being the root. */
  readonly path: string;

  constructor(path: string, problem: string) {
    super(`Cannot serialize ${path} as canonical JSON: ${problem}`);
    this.name = 'CanonicalJsonError';
    this.path = path;
  }
}

/**
 * Serializes `value` as canonical JSON: object keys sorted (by UTF-16 code units, as
 * `Array.prototype.sort` does) at every depth, arrays in order, no whitespace. Strings and
 * numbers use `JSON.stringify`'s representation, so any string round-trips through
 * `JSON.parse` and the output never contains a raw line break.
 *
 * Refuses, with a {@link CanonicalJsonError}: `undefined` (also as an object property: an
 * optional field must be left out, not set to `undefined`), functions, symbols, bigints,
 * non-finite numbers, cycles, and objects that are not plain objects or arrays (a `Date` or a
 * `Map` has no single obvious JSON form).
 *
 * Accepts `object` besides {@link JsonValue} so typed interfaces (tool schemas, entries)
 * can be passed without casting; their contents are checked at run time.
 */
export function canonicalJson(value: JsonValue | object): string {
  return write(value, '$', new Set());
}

function write(value: unknown, path: string, ancestors: Set<object>): string {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (!Number.isFinite(value)) throw new CanonicalJsonError(path, `${String(value)} is not a finite number`);
      return JSON.stringify(value);
    case 'object':
      if (value === null) return 'null';
      return writeObject(value, path, ancestors);
    case 'undefined':
      throw new CanonicalJsonError(path, 'undefined is not JSON (leave optional fields out instead)');
    default:
      // function, symbol, bigint
      throw new CanonicalJsonError(path, `a ${typeof value} is not JSON`);
  }
}

function writeObject(value: object, path: string, ancestors: Set<object>): string {
  if (ancestors.has(value)) throw new CanonicalJsonError(path, 'the value contains a cycle');
  ancestors.add(value);
  try {
    if (Array.isArray(value)) {
      const parts: string[] = [];
      for (let i = 0; i < value.length; i++) parts.push(write(value[i], `${path}[${i}]`, ancestors));
      return `[${parts.join(',')}]`;
    }
    const proto: unknown = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) {
      const kind = (value as { constructor?: { name?: unknown } }).constructor?.name;
      throw new CanonicalJsonError(path, `a ${typeof kind === 'string' ? kind : 'non-plain'} object is not JSON`);
    }
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record).sort();
    const parts: string[] = [];
    for (const key of keys) parts.push(`${JSON.stringify(key)}:${write(record[key], `${path}.${key}`, ancestors)}`);
    return `{${parts.join(',')}}`;
  } finally {
    // Only ancestors count: the same object may appear twice side by side (a shared, frozen
    // sub-value), which is not a cycle.
    ancestors.delete(value);
  }
}
