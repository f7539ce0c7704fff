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
  const parts = Object.entries(value).map(([key, inner]) => {
    const rest = stateValueString(inner);
    return rest === '' || (typeof inner === 'object' && inner !== null && Object.keys(inner).length === 0) ? key : `${key}.${rest}`;
  });
  return parts.length === 1 ? parts[0]! : `{${parts.join(', ')}}`;
}
