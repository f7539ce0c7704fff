/**
 * The library's dialogue entries and usage values as the viewer shows them: text, tool calls
 * and results, and where each user-role entry came from. Attachments and provider data stay
 * out; the viewer shows what a person reads, not what a provider gets back.
 */
import type { Entry } from '../dialogue/entry.js';
import type { ViewerEntry, ViewerPrefix, ViewerResult, ViewerUsage } from './model/events.js';

/** One dialogue entry for the transcript. */
export function viewerEntry(entry: Entry): ViewerEntry {
  switch (entry.kind) {
    case 'user':
      return { kind: 'user', id: entry.id, text: entry.text, origin: 'from' in entry.origin ? { kind: entry.origin.kind, from: entry.origin.from } : { kind: entry.origin.kind } };
    case 'assistant':
      return { kind: 'assistant', id: entry.id, text: entry.text, toolCalls: entry.toolCalls.map((c) => ({ id: c.id, name: c.name, arguments: c.arguments })) };
    case 'tool_result':
      return { kind: 'tool_result', id: entry.id, callId: entry.callId, toolName: entry.toolName, content: entry.content, isError: entry.isError };
    case 'compaction':
      return { kind: 'compaction', id: entry.id, text: entry.summary };
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const num = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);

/** A usage value read from a journal, a stream event or a result; undefined when it is not one. */
export function viewerUsage(value: unknown): ViewerUsage | undefined {
  if (!isRecord(value)) return undefined;
  const cost = num(value['cost']);
  return {
    inputTokens: num(value['inputTokens']) ?? 0,
    outputTokens: num(value['outputTokens']) ?? 0,
    cacheReadTokens: num(value['cacheReadTokens']) ?? 0,
    cacheWriteTokens: num(value['cacheWriteTokens']) ?? 0,
    requests: num(value['requests']) ?? 0,
    ...(cost !== undefined ? { cost } : {}),
  };
}

/** Prefix sharing read from a spawn's input or a result; undefined when it is not one. */
export function viewerPrefix(value: unknown): ViewerPrefix | undefined {
  if (!isRecord(value)) return undefined;
  const out: { -readonly [K in keyof ViewerPrefix]: ViewerPrefix[K] } = { reasons: Array.isArray(value['reasons']) ? value['reasons'].filter((r): r is string => typeof r === 'string') : [] };
  for (const key of ['sharedBytes', 'sharedTokens', 'sharedRatio', 'inheritedBytes', 'inputBytes'] as const) {
    const n = num(value[key]);
    if (n !== undefined) out[key] = n;
  }
  return out;
}

/** An agent's result as the viewer shows it. */
export function viewerResult(value: unknown): ViewerResult | undefined {
  if (!isRecord(value)) return undefined;
  const usage = viewerUsage(value['usage']);
  const subtreeUsage = viewerUsage(value['subtreeUsage']);
  const prefix = viewerPrefix(value['prefix']);
  const elapsedMs = num(value['elapsedMs']);
  return {
    status: typeof value['status'] === 'string' ? value['status'] : 'unknown',
    stopReason: typeof value['stopReason'] === 'string' ? value['stopReason'] : 'unknown',
    text: typeof value['text'] === 'string' ? value['text'] : '',
    ...(typeof value['error'] === 'string' ? { error: value['error'] } : {}),
    ...(elapsedMs !== undefined ? { elapsedMs } : {}),
    ...(usage ? { usage } : {}),
    ...(subtreeUsage ? { subtreeUsage } : {}),
    ...(prefix ? { prefix } : {}),
  };
}
