/**
 * State values as readable strings, for traces, test keys and diagrams.
 */

/**
 * `running.working.sampling` for `{ running: { working: 'sampling' } }`; regions of a
 * parallel state are listed in braces: `a.{b, c.d}`.
 */
export function stateValueString(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === null || typeof value !== 'object') return String(value);
  // The common case, one active child per level (`{ running: { working: 'sampling' } }`),
  // without allocating entry arrays: the runtime reads every snapshot's state this way.
  let path = '';
  let node: unknown = value;
  while (typeof node === 'object' && node !== null) {
    let only: string | undefined;
    let count = 0;
    for (const key in node) {
      only = key;
      if (++count > 1) break;
    }
    if (count === 0 && path !== '') return path;
    if (count !== 1) return general(value);
    path = path === '' ? only! : `${path}.${only!}`;
    node = (node as Record<string, unknown>)[only!];
  }
  return typeof node === 'string' && node !== '' ? `${path}.${node}` : path;
}

function general(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === null || typeof value !== 'object') return String(value);
  const parts = Object.entries(value).map(([key, inner]) => {
    const rest = stateValueString(inner);
    return rest === '' || (typeof inner === 'object' && inner !== null && Object.keys(inner).length === 0) ? key : `${key}.${rest}`;
  });
  return parts.length === 1 ? parts[0]! : `{${parts.join(', ')}}`;
}
