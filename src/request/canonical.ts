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

/** How deep {@link canonicalJsonBytes} counts before it leaves a value to the writer (plain data is shallow; a cycle runs into it). */
const COUNT_DEPTH = 64;

/**
 * The UTF-8 byte length of {@link canonicalJson}'s text for `value`, counted without building
 * the text (key order does not change a length, so nothing is sorted either). What it cannot
 * count as plain data (a value the writer refuses, a cycle, a value nested deeper than 64) is
 * measured on the writer's text, so the writer's errors are thrown unchanged.
 *
 * @example
 * ```ts
 * canonicalJsonBytes({ b: 'é', a: [1, null] }); // 23, as Buffer.byteLength(canonicalJson(...)) gives
 * ```
 */
export function canonicalJsonBytes(value: JsonValue | object): number {
  const counted = countBytes(value, 0);
  return counted >= 0 ? counted : Buffer.byteLength(canonicalJson(value), 'utf8');
}

/** Bytes of plain data's canonical text, or -1 for anything else. */
function countBytes(value: unknown, depth: number): number {
  switch (typeof value) {
    case 'string':
      return jsonStringBytes(value);
    case 'boolean':
      return value ? 4 : 5;
    case 'number':
      // A finite number's JSON is ASCII.
      return Number.isFinite(value) ? JSON.stringify(value).length : -1;
    case 'object': {
      if (value === null) return 4;
      if (depth >= COUNT_DEPTH) return -1;
      if (Array.isArray(value)) {
        const items: readonly unknown[] = value;
        // Brackets, and a comma between items.
        let n = items.length === 0 ? 2 : items.length + 1;
        for (let i = 0; i < items.length; i++) {
          const item = countBytes(items[i], depth + 1);
          if (item < 0) return -1;
          n += item;
        }
        return n;
      }
      const proto: unknown = Object.getPrototypeOf(value);
      if (proto !== Object.prototype && proto !== null) return -1;
      const record = value as Record<string, unknown>;
      const keys = Object.keys(record);
      // Braces, a comma between members, and a colon in each.
      let n = keys.length === 0 ? 2 : 2 * keys.length + 1;
      for (let i = 0; i < keys.length; i++) {
        const k = keys[i] as string;
        const item = countBytes(record[k], depth + 1);
        if (item < 0) return -1;
        n += jsonStringBytes(k) + item;
      }
      return n;
    }
    default:
      return -1;
  }
}

/**
 * UTF-8 bytes of `JSON.stringify(text)`: the quotes, two bytes for `"`, `\\` and the five
 * short escapes, six for any other control character and for an unpaired surrogate (written
 * `\uXXXX`), and each other code point's UTF-8 length.
 */
function jsonStringBytes(text: string): number {
  let n = 2;
  const length = text.length;
  for (let i = 0; i < length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) {
      if (c >= 0x20) n += c === 0x22 || c === 0x5c ? 2 : 1;
      else n += c === 0x08 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d ? 2 : 6;
    } else if (c < 0x800) {
      n += 2;
    } else if (c >= 0xd800 && c <= 0xdfff) {
      const next = i + 1 < length ? text.charCodeAt(i + 1) : 0;
      if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        n += 4;
        i++;
      } else {
        n += 6;
      }
    } else {
      n += 3;
    }
  }
  return n;
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
