/**
 * Bounded JSON: whether a value a model or host handed in is plain JSON of bounded depth and
 * size, checked without recursion, so a value nested many thousands of levels deep is refused
 * with a located message instead of overflowing the stack in whatever reads it next (canonical
 * serialization, freezing, schema validation).
 */

/** How deep and how large one JSON value may be. */
export interface JsonBounds {
  /** Deepest nesting of objects and arrays: `1` is `{}` or `[]`, a scalar has depth 0. */
  readonly maxDepth: number;
  /** Largest size, in UTF-8 bytes of the value's JSON text. */
  readonly maxBytes: number;
}

/** What is wrong with a value: where (`$`, `$.a[2]`) and what. */
export interface JsonProblem {
  /** JSONPath-like location, `$` being the value itself. */
  readonly path: string;
  /** What is wrong there, in words a model can act on. */
  readonly problem: string;
  /** Which bound it broke, when it broke one. */
  readonly bound?: 'maxDepth' | 'maxBytes';
}

/** A node still to visit: its value, its location and its depth (0 for the value itself). */
interface Pending {
  readonly value: unknown;
  readonly parent: Pending | null;
  readonly key: string | number | undefined;
  readonly depth: number;
}

/** Keys of a location shown in full; a deeper one shows its first and last few keys. */
const SHOWN_KEYS = 12;

function pathOf(node: Pending): string {
  const keys: Array<string | number> = [];
  for (let at: Pending | null = node; at !== null && at.key !== undefined; at = at.parent) keys.push(at.key);
  keys.reverse();
  const part = (key: string | number): string =>
    typeof key === 'number' ? `[${key}]` : /^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key.slice(0, 40))}]`;
  if (keys.length <= SHOWN_KEYS) return `$${keys.map(part).join('')}`;
  const head = keys.slice(0, SHOWN_KEYS / 2).map(part).join('');
  const tail = keys.slice(-SHOWN_KEYS / 2).map(part).join('');
  return `$${head}…(${keys.length - SHOWN_KEYS} more)…${tail}`;
}

/** Strings up to this length are scanned for characters that need escaping or more than a byte. */
const SCANNED_LENGTH = 256;

/** UTF-8 bytes of a string's JSON form, without building it when no character needs escaping. */
function jsonStringBytes(text: string): number {
  if (text.length <= SCANNED_LENGTH) {
    let plain = true;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c < 0x20 || c === 0x22 || c === 0x5c || c >= 0x80) {
        plain = false;
        break;
      }
    }
    // Printable ASCII: one byte each, plus the quotes.
    if (plain) return text.length + 2;
  }
  return Buffer.byteLength(JSON.stringify(text), 'utf8');
}

/** Length of a finite number's JSON text (`String(value)`), without building it for a safe integer. */
function jsonNumberBytes(value: number): number {
  if (!Number.isSafeInteger(value)) return String(value).length;
  let n = value < 0 ? 2 : 1;
  for (let rest = Math.abs(value); rest >= 10; rest = Math.floor(rest / 10)) n++;
  return n;
}

/** Deepest nesting the quick check recurses into; a deeper value is left to the iterative walk. */
const QUICK_DEPTH = 128;

/**
 * Whether `value` is plain JSON within `bounds`, as {@link jsonProblem} decides it, checked by a
 * recursion (at most {@link QUICK_DEPTH} deep) that allocates no node per value: every tool
 * call's arguments go through it, and nearly all of them pass. False on anything it does not
 * pass, a throwing read included; the iterative walk then finds and locates the problem.
 */
function quickPass(value: unknown, bounds: JsonBounds): boolean {
  try {
    return quickBytes(value, 0, bounds, 0) >= 0;
  } catch {
    return false;
  }
}

/** `bytes` plus the JSON bytes of `value` at `depth`, or -1 when it is not plain JSON within the bounds. */
function quickBytes(value: unknown, depth: number, bounds: JsonBounds, bytes: number): number {
  switch (typeof value) {
    case 'string':
      bytes += jsonStringBytes(value);
      break;
    case 'boolean':
      bytes += value ? 4 : 5;
      break;
    case 'number':
      if (!Number.isFinite(value)) return -1;
      bytes += jsonNumberBytes(value);
      break;
    case 'object': {
      if (value === null) {
        bytes += 4;
        break;
      }
      if (depth >= bounds.maxDepth || depth >= QUICK_DEPTH) return -1;
      if (Array.isArray(value)) {
        const items = value as unknown[];
        bytes += 2 + Math.max(0, items.length - 1);
        for (let i = 0; i < items.length; i++) {
          if (bytes > bounds.maxBytes || !Object.hasOwn(items, i)) return -1;
          bytes = quickBytes(items[i], depth + 1, bounds, bytes);
          if (bytes < 0) return -1;
        }
        break;
      }
      const proto: unknown = Object.getPrototypeOf(value);
      if (proto !== Object.prototype && proto !== null) return -1;
      const record = value as Record<string, unknown>;
      const keys = Object.keys(record);
      bytes += 2 + Math.max(0, keys.length - 1);
      for (let i = 0; i < keys.length; i++) {
        const key = keys[i] as string;
        bytes += jsonStringBytes(key) + 1;
        if (bytes > bounds.maxBytes) return -1;
        bytes = quickBytes(record[key], depth + 1, bounds, bytes);
        if (bytes < 0) return -1;
      }
      break;
    }
    default:
      return -1;
  }
  return bytes > bounds.maxBytes ? -1 : bytes;
}

/**
 * The first problem of `value` as JSON within `bounds`, or `undefined` when it is plain JSON
 * within them. Plain JSON is: `null`, booleans, strings, finite numbers, arrays (no holes, no
 * `undefined` items) and objects whose prototype is `Object.prototype` or `null` with no
 * `undefined` property. A cycle is reported as too deep. Reading a property that throws (a
 * getter, a Proxy) is a problem at that property, never an exception.
 *
 * @example
 * ```ts
 * jsonProblem({ n: Number.NaN }, { maxDepth: 64, maxBytes: 1 << 20 });
 * // { path: '$.n', problem: 'NaN is not a finite number' }
 * ```
 */
export function jsonProblem(value: unknown, bounds: JsonBounds): JsonProblem | undefined {
  if (quickPass(value, bounds)) return undefined;
  const stack: Pending[] = [{ value, parent: null, key: undefined, depth: 0 }];
  let bytes = 0;
  const tooLarge = (node: Pending): JsonProblem => ({
    path: pathOf(node),
    problem: `the value is larger than ${bounds.maxBytes} bytes of JSON`,
    bound: 'maxBytes',
  });
  while (stack.length > 0) {
    const node = stack.pop()!;
    const v = node.value;
    switch (typeof v) {
      case 'string':
        bytes += jsonStringBytes(v);
        break;
      case 'boolean':
        bytes += v ? 4 : 5;
        break;
      case 'number':
        if (!Number.isFinite(v)) return { path: pathOf(node), problem: `${String(v)} is not a finite number` };
        bytes += jsonNumberBytes(v);
        break;
      case 'undefined':
        return { path: pathOf(node), problem: 'undefined is not JSON' };
      case 'object': {
        if (v === null) {
          bytes += 4;
          break;
        }
        if (node.depth >= bounds.maxDepth) {
          return { path: pathOf(node), problem: `the value is nested deeper than ${bounds.maxDepth} levels`, bound: 'maxDepth' };
        }
        const problem = pushChildren(v, node, stack);
        if (problem !== undefined) return problem;
        break;
      }
      default:
        return { path: pathOf(node), problem: `a ${typeof v} is not JSON` };
    }
    if (bytes > bounds.maxBytes) return tooLarge(node);
  }
  return undefined;

  /** Pushes an object's or array's members (last first, so they are visited in order) and counts its punctuation. */
  function pushChildren(v: object, node: Pending, pending: Pending[]): JsonProblem | undefined {
    const depth = node.depth + 1;
    try {
      if (Array.isArray(v)) {
        const items = v as unknown[];
        bytes += 2 + Math.max(0, items.length - 1);
        if (bytes > bounds.maxBytes) return tooLarge(node);
        for (let i = items.length - 1; i >= 0; i--) {
          if (!Object.hasOwn(items, i)) return { path: pathOf({ value: undefined, parent: node, key: i, depth }), problem: 'an array hole is not JSON' };
          pending.push({ value: items[i], parent: node, key: i, depth });
        }
        return undefined;
      }
      const proto: unknown = Object.getPrototypeOf(v);
      if (proto !== Object.prototype && proto !== null) return { path: pathOf(node), problem: 'an object that is not a plain object is not JSON' };
      const keys = Object.keys(v);
      bytes += 2 + Math.max(0, keys.length - 1);
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i]!;
        bytes += jsonStringBytes(key) + 1;
        if (bytes > bounds.maxBytes) return tooLarge(node);
        pending.push({ value: (v as Record<string, unknown>)[key], parent: node, key, depth });
      }
      return undefined;
    } catch (error) {
      return { path: pathOf(node), problem: `reading it failed (${error instanceof Error ? error.message : typeof error})` };
    }
  }
}

/** A problem as one sentence: `$.a[2]: NaN is not a finite number`. */
export function describeJsonProblem(found: JsonProblem): string {
  return `${found.path}: ${found.problem}`;
}

/**
 * The nesting depth of a JSON text, read without parsing it (strings are skipped, escapes
 * honoured), stopping as soon as it passes `maxDepth`: a text ten thousand brackets deep costs
 * one linear scan, never a deep recursion. Returns the depth, or `maxDepth + 1` when deeper.
 *
 * @example
 * ```ts
 * jsonTextDepth('{"a":[1,"]"]}', 64); // 2
 * ```
 */
export function jsonTextDepth(text: string, maxDepth: number): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
      continue;
    }
    if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      depth++;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > maxDepth) return deepest;
      }
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return deepest;
}
