/**
 * The envelope of a stored journal line: each record carries a CRC-32 and its sequence number
 * (its place in the journal, the header being 0), written first:
 *
 *     {"sum":"1c291ca3","seq":7,"type":"advance",…}
 *
 * The checksum covers everything after `{"sum":"…",` (the sequence number and the record), as
 * the bytes were written, so a flipped byte that keeps the JSON valid is still caught; the
 * sequence number inside it catches a record that is duplicated, lost from the middle or moved.
 */
import { crc32 } from 'node:zlib';
import { StoreError } from './types.js';

const OPEN = '{"sum":"';
/** Length of `{"sum":"xxxxxxxx",` (ASCII, so as many bytes as characters): the checked part follows. */
const HEAD = OPEN.length + 8 + 2;

function hex(sum: number): string {
  return sum.toString(16).padStart(8, '0');
}

/**
 * The line of a record (without its newline), sealed with `seq` and its checksum. `json` is the
 * record's JSON: an object with at least one member, none named `seq` or `sum`.
 */
export function sealLine(json: string, seq: number): string {
  const checked = `"seq":${seq},${json.slice(1)}`;
  return `${OPEN}${hex(crc32(checked))}",${checked}`;
}

/**
 * Whether a stored line is sealed; if so, verifies its checksum (a mismatch is `corrupt_journal`
 * naming `where`). `bytes`, when given, are the line's UTF-8 bytes as stored (checked without
 * encoding the text again). Lines of journals written before checksums are not sealed.
 */
export function verifyLine(text: string, where: string, bytes?: Uint8Array): boolean {
  if (!text.startsWith(OPEN) || text.charCodeAt(HEAD - 2) !== 0x22 || text.charCodeAt(HEAD - 1) !== 0x2c) return false;
  const stored = text.slice(OPEN.length, OPEN.length + 8);
  const computed = hex(crc32(bytes ? bytes.subarray(HEAD) : text.slice(HEAD)));
  if (stored !== computed) {
    throw new StoreError('corrupt_journal', `${where}: checksum mismatch (stored ${stored}, computed ${computed}): the line was altered after it was written; nothing is appended to this journal until it is repaired`);
  }
  return true;
}
