/**
 * Deep freezing, so values shared between a parent, its snapshots and its subagents can
 * never be changed through any of them.
 */

/** Nesting depth after which the walk starts tracking visited objects (only cycles get that deep). */
const TRACK_AFTER_DEPTH = 64;

/**
 * Freezes `value` and everything reachable from it through own enumerable properties.
 * Unlike a check-the-top shortcut it always walks the whole value: a shallowly frozen
 * object with mutable insides would otherwise slip through. It runs on every append, so
 * the common (shallow, acyclic) case allocates nothing; cycles are still tolerated.
 */
export function deepFreeze<T>(value: T): T {
  walk(value, 0, undefined);
  return value;
}

function walk(value: unknown, depth: number, seen: Set<object> | undefined): void {
  if (value === null || typeof value !== 'object') return;
  if (seen !== undefined) {
    if (seen.has(value)) return;
    seen.add(value);
  }
  if (!Object.isFrozen(value)) Object.freeze(value);
  const next = depth + 1;
  const track = seen ?? (next > TRACK_AFTER_DEPTH ? new Set<object>() : undefined);
  // Indexed loops: for-of makes an iterator per object wherever this is not optimized yet.
  if (Array.isArray(value)) {
    const items = value as readonly unknown[];
    for (let i = 0; i < items.length; i++) walk(items[i], next, track);
  } else {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record);
    for (let i = 0; i < keys.length; i++) walk(record[keys[i] as string], next, track);
  }
}

/**
 * Freezes a value this code just built, deeply, taking any part that is already frozen as
 * frozen throughout (it was frozen the same way). Cheaper than {@link deepFreeze} when most of
 * a value is shared, already frozen data; not for values a caller handed in.
 */
export function freezeBuilt<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) freezeBuilt((value as Record<string, unknown>)[key]);
  }
  return value;
}
