/**
 * The journal's line format: a header record first, then one JSON record per line. Both
 * stores read and check records here, so a JSONL file and a Postgres table hold the same thing.
 */
import { StoreError, type JournalRecord } from './types.js';

/**
 * The journal format this version writes. Journals of a newer format are refused; older ones
 * are read (format 2 added `cancel` records, which a format-1 journal simply has none of).
 */
export const JOURNAL_FORMAT = 2;

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
]);

/** The header record of a new session. */
export function sessionHeader(sessionId: string, createdAt: number): SessionHeader {
  return { type: 'session', format: JOURNAL_FORMAT, sessionId, createdAt };
}

/**
 * Parses one stored line. `where` names its place (`file:line`) for the error, which is
 * `corrupt_journal` for text that is not a record and `newer_format` for a newer header.
 */
export function parseRecord(text: string, where: string, first: boolean): JournalRecord {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new StoreError('corrupt_journal', `${where}: not a JSON record (${error instanceof Error ? error.message : String(error)}); nothing is appended to this journal until it is repaired`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value) || typeof (value as { type?: unknown }).type !== 'string') {
    throw new StoreError('corrupt_journal', `${where}: not a journal record (no "type"); nothing is appended to this journal until it is repaired`);
  }
  const record = value as JournalRecord;
  if (!RECORD_TYPES.has(record.type)) {
    throw new StoreError('corrupt_journal', `${where}: foreign record type ${JSON.stringify(record.type)}; nothing is appended to this journal until it is repaired`);
  }
  if (first !== (record.type === 'session')) {
    throw new StoreError('corrupt_journal', `${where}: ${first ? 'the first record must be the session header' : 'a second session header'}; nothing is appended to this journal until it is repaired`);
  }
  if (first) checkHeader(record, where);
  return record;
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
