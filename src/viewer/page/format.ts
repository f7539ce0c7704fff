/** How numbers, usage and states read on the page. */
import type { ViewerPrefix, ViewerUsage } from '../model/events.js';

const integer = new Intl.NumberFormat('en-US');

/** `1,234`. */
export const n = (value: number): string => integer.format(value);

/** `input 1,979 · output 10 · cache read 1,687 · cache write 292 · 1 request`, with the cost when known. */
export function usageLine(usage: ViewerUsage | undefined): string {
  if (!usage) return 'none yet';
  const parts = [`input ${n(usage.inputTokens)}`, `output ${n(usage.outputTokens)}`, `cache read ${n(usage.cacheReadTokens)}`, `cache write ${n(usage.cacheWriteTokens)}`, `${n(usage.requests)} request${usage.requests === 1 ? '' : 's'}`];
  if (usage.cost !== undefined) parts.push(`cost ${usage.cost.toFixed(4)}`);
  return parts.join(' · ');
}

/** `5,506 bytes (~1,376 tokens), 75% of its input; less than inherited: turns_window`. */
export function prefixLine(prefix: ViewerPrefix | undefined): string {
  if (!prefix || prefix.sharedBytes === undefined) return 'not measured yet (known once its first request is made)';
  const parts = [`${n(prefix.sharedBytes)} bytes${prefix.sharedTokens !== undefined ? ` (~${n(prefix.sharedTokens)} tokens)` : ''} shared with its parent's request`];
  if (prefix.sharedRatio !== undefined) parts.push(`${Math.round(prefix.sharedRatio * 100)}% of its input`);
  if (prefix.inheritedBytes !== undefined) parts.push(prefix.sharedBytes >= prefix.inheritedBytes ? 'all it inherited' : `less than the ${n(prefix.inheritedBytes)} bytes inherited`);
  if (prefix.reasons.length > 0) parts.push(`because: ${prefix.reasons.join(', ')}`);
  return parts.join('; ');
}

/** The CSS class of a state's badge: working, idle, settled, cancelled, or none. */
export function stateClass(state: string): string {
  if (state.startsWith('running.working') || state.startsWith('preparing') || state.startsWith('reserved')) return 'working';
  if (state.startsWith('running.idle')) return 'idle';
  if (state === 'settled' || state === 'cancelled') return state;
  return '';
}

/** The last segment of a path (`/root/research` → `research`). */
export const leaf = (path: string): string => path.slice(path.lastIndexOf('/') + 1) || path;
