/**
 * The journal's line format: a header record first, then one JSON record per line, each sealed
 * with its sequence number and a checksum (`envelope.ts`). Both stores write and read records
 * here, so a JSONL file and a Postgres table hold the same thing.
 */
import { AGENT_PHASES, type AgentPhase } from '../../machines/agent.meta.js';
import { sealLine, verifyLine } from './envelope.js';
import { StoreError, type JournalRecord } from './types.js';

/**
 * The journal format this version writes. Journals of a newer format are refused; older ones
 * are read: format 2 added `cancel` records, which a format-1 journal simply has none of;
 * format 3 seals every line with its sequence number and a checksum, which older journals have
 * only on the lines appended since this version resumed them; format 4 journals facts, not the
 * machine's context: an agent's phase instead of its state name, and its first report as a
 * fact of its own (`reported`), which older formats left to be inferred from its turns.
 */
export const JOURNAL_FORMAT = 4;

/** The first format whose every line is sealed. */
export const SEALED_FORMAT = 3;

/** The first format whose `advance` records name phases and record the first report. */
export const PHASES_FORMAT = 4;

/**
 * The state names formats 1 to 3 journaled, and the phase each one meant. Frozen: it
 * describes what those versions wrote, whatever the machine calls its states now.
 */
const FORMAT_3_STATES: Readonly<Record<string, AgentPhase>> = Object.freeze({
  reserved: 'reserved',
  'reserved.admitting': 'reserved',
  'reserved.runningHooks': 'reserved',
  preparingSummary: 'preparing_summary',
  'running.working.sampling': 'waiting_on_model',
  'running.working.acting': 'running_tools',
  'running.idle': 'idle',
  settled: 'settled',
  cancelled: 'settled',
});

/**
 * The phase an `advance` record names: its `phase` (format 4), or the phase the state name of an
 * older record meant. Anything else is `corrupt_journal` (`where` names the record).
 */
export function phaseOfRecord(record: { readonly phase?: unknown; readonly state?: unknown }, where: string): AgentPhase {
  if (typeof record.phase === 'string' && (AGENT_PHASES as readonly string[]).includes(record.phase)) return record.phase as AgentPhase;
  if (record.phase === undefined && typeof record.state === 'string' && Object.hasOwn(FORMAT_3_STATES, record.state)) return FORMAT_3_STATES[record.state]!;
  throw new StoreError('corrupt_journal', `${where}: an advance record names neither a phase nor a state of formats 1 to 3 (${JSON.stringify(record.phase ?? record.state)})`);
}

/**
 * The longest journal line read or written by default: V8's longest string (about 512 MiB,
 * `0x1fffffe8` UTF-16 units), since a line is decoded into one string. A UTF-8 line of at most
 * this many bytes always decodes.
 */
export const DEFAULT_MAX_LINE_BYTES = 0x1fffffe8;

/** Checks a host-set byte limit: a positive safe integer, or the default when unset. */
export function byteLimit(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value <= 0) throw new TypeError(`${name} must be a positive whole number of bytes (got ${String(value)})`);
  return value;
}

/**
 * One record as a stored line (sealed JSON, no newline) at place `seq` of the journal, and its
 * UTF-8 size. A record whose line would pass `maxLineBytes` (or that JSON cannot hold in one
 * string at all) is refused with `journal_too_large`: it could never be read back.
 */
export function encodeRecord(record: JournalRecord, seq: number, maxLineBytes: number, location: string): { readonly line: string; readonly bytes: number } {
  if (Object.hasOwn(record, 'seq') || Object.hasOwn(record, 'sum')) throw new TypeError(`a journal record cannot have its own "seq" or "sum" (a ${JSON.stringify(record.type)} record did)`);
  let line: string;
  try {
    line = sealLine(JSON.stringify(record), seq);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    throw new StoreError('journal_too_large', `${location}: a ${JSON.stringify(record.type)} record is too large to write as one line (${error.message}); nothing more is written, the journal stays resumable up to here`, { cause: error });
  }
  const bytes = Buffer.byteLength(line, 'utf8');
  if (bytes > maxLineBytes) {
    throw new StoreError('journal_too_large', `${location}: a ${JSON.stringify(record.type)} record of ${bytes} bytes passes the line limit (maxLineBytes ${maxLineBytes}); nothing more is written, the journal stays resumable up to here`);
  }
  return { line, bytes };
}

/** The first record of every journal. */
export interface SessionHeader extends JournalRecord {
  readonly type: 'session';
  readonly format: number;
  readonly sessionId: string;
  readonly createdAt: number;
}

/** The record types a journal may hold; anything else is a foreign line. */
export const RECORD_TYPES: ReadonlySet<string> = new Set([
  'session',
  'blob',
  'spawn',
  'advance',
  'hook',
  'background',
  'result',
  'release',
  'cancel',
  'approval',
  'approval-answer',
]);

/** The header record of a new session. */
export function sessionHeader(sessionId: string, createdAt: number): SessionHeader {
  return { type: 'session', format: JOURNAL_FORMAT, sessionId, createdAt };
}

/** One stored line, parsed: its record (without the envelope) and its sequence number if sealed. */
export interface ParsedLine {
  readonly record: JournalRecord;
  readonly sealed: boolean;
  readonly seq: unknown;
}

/**
 * Parses one stored line, with its checksum verified when it is sealed (`bytes`: the line as
 * stored, when at hand). `where` names its place (`file:line`) for the error, which is
 * `corrupt_journal` for text that is not a record and `newer_format` for a newer header.
 */
export function parseRecord(text: string, where: string, first: boolean, bytes?: Uint8Array): ParsedLine {
  const sealed = verifyLine(text, where, bytes);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new StoreError('corrupt_journal', `${where}: not a JSON record (${error instanceof Error ? error.message : String(error)}); nothing is appended to this journal until it is repaired`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value) || typeof (value as { type?: unknown }).type !== 'string') {
    throw new StoreError('corrupt_journal', `${where}: not a journal record (no "type"); nothing is appended to this journal until it is repaired`);
  }
  let record = value as Record<string, unknown> & JournalRecord;
  const seq = record['seq'];
  if (sealed) {
    // A fresh object without the envelope (deleting would leave a slow, dictionary-mode object).
    const { sum: _sum, seq: _seq, ...rest } = record;
    record = rest as typeof record;
  }
  if (!RECORD_TYPES.has(record.type)) {
    throw new StoreError('corrupt_journal', `${where}: foreign record type ${JSON.stringify(record.type)}; nothing is appended to this journal until it is repaired`);
  }
  if (first !== (record.type === 'session')) {
    throw new StoreError('corrupt_journal', `${where}: ${first ? 'the first record must be the session header' : 'a second session header'}; nothing is appended to this journal until it is repaired`);
  }
  if (first) checkHeader(record, where);
  return { record, sealed, seq };
}

function checkHeader(record: JournalRecord, where: string): void {
  const format = record['format'];
  if (typeof format !== 'number' || !Number.isInteger(format) || format < 1) {
    throw new StoreError('corrupt_journal', `${where}: the session header has no valid format version`);
  }
  if (format > JOURNAL_FORMAT) {
    throw new StoreError('newer_format', `${where}: this journal was written by a newer format version (${format}); this version of subagent-actors reads format ${JOURNAL_FORMAT} and older. Upgrade to resume it.`);
  }
  if (typeof record['sessionId'] !== 'string') throw new StoreError('corrupt_journal', `${where}: the session header has no sessionId`);
}
