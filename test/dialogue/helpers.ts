/**
 * Small builders for dialogue tests: entries with readable, deterministic ids, and checks
 * shared by the dialogue and context suites.
 */
import { assistantEntry, compactionEntry, toolResultEntry, userEntry, type AssistantEntry, type CompactionEntry, type Entry, type ToolCall, type ToolResultEntry, type UserEntry } from '../../src/dialogue/entry.js';
import type { EntrySeq } from '../../src/dialogue/types.js';

/** A turn-opening user entry with id and text `id`. */
export const open = (id: string): UserEntry => userEntry({ id, text: id, opensTurn: true });
/** An injected (non-opening) user entry. */
export const inject = (id: string): UserEntry => userEntry({ id, text: id, opensTurn: false, origin: { kind: 'message', from: '/root/x' } });
/** A tool call named `tool` (or `Agent`). */
export const call = (id: string, name = 'tool'): ToolCall => ({ id, name, arguments: { id } });
/** An assistant entry with calls given by id. */
export const reply = (id: string, callIds: readonly string[] = [], text = id): AssistantEntry =>
  assistantEntry({ id, text, toolCalls: callIds.map((c) => call(c)) });
/** A result answering `callId`. */
export const result = (callId: string, id = `r_${callId}`): ToolResultEntry => toolResultEntry({ id, callId, toolName: 'tool', content: `out ${callId}` });
/** A compaction anchored at `anchorId`. */
export const compact = (id: string, anchorId: string | null): CompactionEntry => compactionEntry({ id, summary: `summary ${id}`, anchorId });

/** Entry ids of a sequence, for readable assertions. */
export const ids = (seq: Iterable<Entry>): string[] => [...seq].map((e) => e.id);

/**
 * Whether `value` and everything reachable through enumerable properties is frozen; entry
 * sequences are also walked entry by entry.
 */
export function isDeepFrozen(value: unknown, seen = new Set<object>()): boolean {
  if (value === null || typeof value !== 'object') return true;
  if (seen.has(value)) return true;
  seen.add(value);
  if (!Object.isFrozen(value)) return false;
  for (const key of Object.keys(value)) if (!isDeepFrozen((value as Record<string, unknown>)[key], seen)) return false;
  if (isEntrySeq(value)) for (const entry of value) if (!isDeepFrozen(entry, seen)) return false;
  return true;
}

function isEntrySeq(value: object): value is EntrySeq {
  return typeof (value as { at?: unknown }).at === 'function' && Symbol.iterator in value;
}
