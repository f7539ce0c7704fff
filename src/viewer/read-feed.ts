/**
 * Opens a file for replay: a session journal (JSON Lines, a `session` header first) or a
 * `--record` trace (JSON Lines of inspection records), told apart by their first line.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import type { TraceRecord } from '../inspect/recorder.js';
import { readJournal } from '../store/jsonl.js';
import { ViewerError } from './errors.js';
import { journalEvents } from './from-journal.js';
import { traceEvents } from './from-trace.js';
import type { UnstampedEvent } from './model/events.js';

/** What a replayed file holds. */
export interface ReplayFeed {
  readonly kind: 'journal' | 'trace';
  readonly events: readonly UnstampedEvent[];
}

const TRACE_KINDS: ReadonlySet<string> = new Set(['actor', 'event', 'snapshot']);

function isTraceRecord(value: unknown): value is TraceRecord {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return typeof record['t'] === 'number' && typeof record['actor'] === 'string' && typeof record['kind'] === 'string' && TRACE_KINDS.has(record['kind']);
}

/**
 * Reads `file` as a journal or a trace. Throws a {@link ViewerError}: `unreadable_file` when
 * it cannot be read or is not JSON Lines, `unknown_format` when its lines are neither.
 */
export function readFeed(file: string): ReplayFeed {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ViewerError('unreadable_file', `cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  if (lines.length === 0) throw new ViewerError('unknown_format', `${file} is empty: expected a session journal or a --record trace (JSON Lines)`);
  let first: unknown;
  try {
    first = JSON.parse(lines[0]!);
  } catch {
    throw new ViewerError('unreadable_file', `${file}:1 is not JSON: expected a session journal or a --record trace (JSON Lines)`);
  }
  const label = basename(file);
  if (typeof first === 'object' && first !== null && (first as { type?: unknown }).type === 'session') {
    try {
      // A last line a crash cut short is left out; a broken line before it is an error.
      return { kind: 'journal', events: journalEvents(readJournal(file, false).records, label) };
    } catch (error) {
      throw new ViewerError('unreadable_file', `${file}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
  }
  if (isTraceRecord(first)) {
    const records: TraceRecord[] = [];
    lines.forEach((line, i) => {
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        throw new ViewerError('unreadable_file', `${file}:${i + 1} is not JSON (a trace holds one JSON record per line)`);
      }
      if (!isTraceRecord(value)) throw new ViewerError('unknown_format', `${file}:${i + 1} is not a trace record (t, kind, actor)`);
      records.push(value);
    });
    return { kind: 'trace', events: traceEvents(records, label) };
  }
  throw new ViewerError('unknown_format', `${file}: the first line is neither a journal's session header nor a trace record; the viewer opens session journals (--journal) and traces (--record)`);
}
