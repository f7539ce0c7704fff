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
  return write(value, null, undefined, new Set());
}

/**
 * Where a value sits, as the chain of keys that lead to it; the `$.a[1]` form is built only
 * when an error names it, so a value that serializes allocates no path strings.
 */
interface PathLink {
  readonly parent: PathLink | null;
  readonly key: string | number | undefined;
}

function pathOf(parent: PathLink | null, key: string | number | undefined): string {
  const keys: (string | number | undefined)[] = [key];
  for (let link = parent; link !== null; link = link.parent) keys.push(link.key);
  let path = '';
  for (let i = keys.length - 1; i >= 0; i--) {
    const k = keys[i];
    path += k === undefined ? '$' : typeof k === 'number' ? `[${k}]` : `.${k}`;
  }
  return path;
}

/** Writes `value`, found under `key` of the object at `parent` (the root: no parent, no key). */
function write(value: unknown, parent: PathLink | null, key: string | number | undefined, ancestors: Set<object>): string {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (!Number.isFinite(value)) throw new CanonicalJsonError(pathOf(parent, key), `${String(value)} is not a finite number`);
      return JSON.stringify(value);
    case 'object':
      if (value === null) return 'null';
      return writeObject(value, { parent, key }, ancestors);
    case 'undefined':
      throw new CanonicalJsonError(pathOf(parent, key), 'undefined is not JSON (leave optional fields out instead)');
    default:
      // function, symbol, bigint
      throw new CanonicalJsonError(pathOf(parent, key), `a ${typeof value} is not JSON`);
  }
}

function writeObject(value: object, at: PathLink, ancestors: Set<object>): string {
  if (ancestors.has(value)) throw new CanonicalJsonError(pathOf(at.parent, at.key), 'the value contains a cycle');
  ancestors.add(value);
  try {
    if (Array.isArray(value)) {
      let out = '[';
      for (let i = 0; i < value.length; i++) out += (i === 0 ? '' : ',') + write(value[i], at, i, ancestors);
      return `${out}]`;
    }
    const proto: unknown = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) {
      const kind = (value as { constructor?: { name?: unknown } }).constructor?.name;
      throw new CanonicalJsonError(pathOf(at.parent, at.key), `a ${typeof kind === 'string' ? kind : 'non-plain'} object is not JSON`);
    }
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record).sort();
    let out = '{';
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i]!;
      out += `${i === 0 ? '' : ','}${JSON.stringify(k)}:${write(record[k], at, k, ancestors)}`;
    }
    return `${out}}`;
  } finally {
    // Only ancestors count: the same object may appear twice side by side (a shared, frozen
    // sub-value), which is not a cycle.
    ancestors.delete(value);
  }
}
