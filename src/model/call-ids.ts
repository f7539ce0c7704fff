/**
 * Deterministic tool-call ids for scripted replies, so snapshots and assertions are stable
 * across runs (the runtime's own ids are random).
 */

/** FNV-1a 32-bit hash of `text` as 8 hex digits: short, stable, dependency-free. */
export function pathHash(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
}

/**
 * The id of call `index` of `step` in `turn` of `agentPath`: `call_<hash>_<turn>_<step>_<index>`.
 * Unique within one agent's dialogue; the path hash keeps a forked subagent's ids apart from the
 * ids it inherited from its parent.
 */
export function scriptedCallId(agentPath: string, turn: number, step: number, index: number): string {
  return `call_${pathHash(agentPath)}_${turn}_${step}_${index}`;
}
