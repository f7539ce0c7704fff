/**
 * Inspection without transcripts: what the inspector receives carries entry counts and the
 * last entry, never a whole dialogue or snapshot (large contexts make inspectors slow, and a
 * transcript is not the inspector's to copy).
 */
import type { InspectionEvent } from 'xstate';
import type { Entry } from '../dialogue/entry.js';

interface SeqLike {
  readonly length: number;
  at(index: number): Entry | undefined;
}

function isSeqLike(value: unknown): value is SeqLike {
  return typeof value === 'object' && value !== null && 'length' in value && typeof (value as { at?: unknown }).at === 'function';
}

const MAX_TEXT = 200;

function clip(text: string): string {
  return text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}… (${text.length} chars)` : text;
}

/** A short, transcript-free description of one entry. */
export function describeEntry(entry: Entry | undefined): Record<string, unknown> | null {
  if (!entry) return null;
  switch (entry.kind) {
    case 'user':
      return { kind: 'user', origin: entry.origin.kind, text: clip(entry.text) };
    case 'assistant':
      return { kind: 'assistant', text: clip(entry.text), toolCalls: entry.toolCalls.map((c) => c.name) };
    case 'tool_result':
      return { kind: 'tool_result', tool: entry.toolName, isError: entry.isError, content: clip(entry.content) };
    case 'compaction':
      return { kind: 'compaction', summary: clip(entry.summary) };
  }
}

function summarizeSeq(seq: SeqLike): Record<string, unknown> {
  return { entries: seq.length, last: describeEntry(seq.at(seq.length - 1)) };
}

/** Replaces dialogues, snapshots and heads in an agent context with compact summaries. */
export function sanitizeContext(context: unknown): unknown {
  if (typeof context !== 'object' || context === null) return context;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(context)) {
    if (key === 'dialogue' && isSeqLike(value)) out[key] = summarizeSeq(value);
    else if (key === 'snapshot' && typeof value === 'object' && value !== null && 'entries' in value) {
      const snap = value as { mode: string; entries: SeqLike; summarizerInput: SeqLike };
      out[key] = { mode: snap.mode, entries: snap.entries.length, summarizerInput: snap.summarizerInput.length };
    } else if (key === 'system' && typeof value === 'object' && value !== null && 'tools' in value) {
      const head = value as { preset: string; tools: ReadonlyArray<{ name: string }> };
      out[key] = { preset: head.preset, tools: head.tools.map((t) => t.name) };
    } else if (key === 'background' && typeof value === 'string') out[key] = clip(value);
    else out[key] = value;
  }
  return out;
}

function sanitizeEvent(event: unknown): unknown {
  if (typeof event !== 'object' || event === null) return event;
  const e = event as Record<string, unknown>;
  if (e.type === 'tool.result' && typeof e.content === 'string') return { ...e, content: clip(e.content) };
  if (e.type === 'inbox' && typeof e.item === 'object' && e.item !== null) {
    const item = e.item as { text: string; origin: unknown };
    return { ...e, item: { ...item, text: clip(item.text) } };
  }
  if (typeof e.type === 'string' && e.type.startsWith('xstate.done.actor') && typeof e.output === 'object' && e.output !== null) {
    const output = e.output as Record<string, unknown>;
    if ('response' in output) return { ...e, output: { response: '(model reply)', compaction: Boolean(output.compaction) } };
  }
  if (e.type === 'xstate.init' && 'input' in e) return { ...e, input: sanitizeContext(e.input) };
  return event;
}

/** A copy of an inspection event with dialogues and long texts summarized. */
export function sanitizeInspectionEvent(event: InspectionEvent): InspectionEvent {
  switch (event.type) {
    case '@xstate.snapshot': {
      const snapshot = event.snapshot as unknown as Record<string, unknown>;
      const sanitized = 'context' in snapshot ? { ...snapshot, context: sanitizeContext(snapshot.context) } : snapshot;
      return { ...event, snapshot: sanitized as unknown as typeof event.snapshot, event: sanitizeEvent(event.event) as typeof event.event };
    }
    case '@xstate.event':
      return { ...event, event: sanitizeEvent(event.event) as typeof event.event };
    default:
      return event;
  }
}
