/**
 * Reads a journal line by line and checks that each record can follow the ones before it:
 * its checksum and its place (sealed lines), and what it says about agents (a descriptor before
 * anything about its agent, one result per agent, nothing after it but its release, each dialogue
 * entry once). Every
 * refusal is a `corrupt_journal` error naming the line, so a host's `repair` can drop it and
 * what follows, like any other corrupt line.
 */
import { parseRecord, SEALED_FORMAT } from './format.js';
import { StoreError, type JournalRecord } from './types.js';

/** Where an agent is, as far as the records read so far go. */
type Phase = 'live' | 'settled' | 'released';

const fix = 'nothing is appended to this journal until it is repaired';

/** Checks and collects the records of one journal, in order. */
export class JournalReader {
  readonly records: JournalRecord[] = [];
  private sealedFormat = false;
  private readonly agents = new Map<string, Phase>();
  private readonly blobs = new Set<string>();
  /** Ids of the entries journaled for each live agent (dropped once it settled). */
  private readonly entryIds = new Map<string, Set<string>>();

  /** Reads the next stored line (`where` names it in errors; `bytes`: the line as stored) and keeps its record. */
  add(text: string, where: string, bytes?: Uint8Array): JournalRecord {
    const index = this.records.length;
    const { record, sealed, seq } = parseRecord(text, where, index === 0, bytes);
    if (index === 0) this.sealedFormat = (record['format'] as number) >= SEALED_FORMAT;
    if (sealed && seq !== index) {
      throw new StoreError('corrupt_journal', `${where}: the record carries sequence number ${JSON.stringify(seq)} where ${index} was expected: a record was duplicated, lost or moved; ${fix}`);
    }
    if (!sealed && this.sealedFormat) {
      throw new StoreError('corrupt_journal', `${where}: the line carries no checksum, but every line of a format ${SEALED_FORMAT} journal does; ${fix}`);
    }
    if (index > 0) this.follow(record, where);
    this.records.push(record);
    return record;
  }

  private follow(record: JournalRecord, where: string): void {
    const path = record['path'];
    const named = typeof path === 'string' ? path : JSON.stringify(path);
    const refuse = (why: string): never => {
      throw new StoreError('corrupt_journal', `${where}: a ${JSON.stringify(record.type)} record ${why}; ${fix}`);
    };
    const phase = typeof path === 'string' ? this.agents.get(path) : undefined;
    switch (record.type) {
      case 'blob':
        if (typeof record['hash'] !== 'string') refuse('has no hash');
        this.blobs.add(record['hash'] as string);
        return;
      case 'spawn': {
        if (typeof path !== 'string') refuse('has no path');
        if (phase !== undefined) refuse(`spawns ${named} a second time`);
        const parent = record['parent'];
        if (parent !== null && (typeof parent !== 'string' || !this.agents.has(parent))) refuse(`names the parent ${JSON.stringify(parent)}, which no earlier descriptor spawned`);
        if (typeof record['head'] !== 'string' || !this.blobs.has(record['head'])) refuse(`names the request head ${JSON.stringify(record['head'])}, which no earlier record holds`);
        this.agents.set(path as string, 'live');
        this.entryIds.set(path as string, new Set());
        return;
      }
      // A withdrawal may follow its agent's result (the cancellation that settled it withdrew it).
      case 'approval-answer':
      case 'cancel':
        if (phase === undefined) refuse(`names ${named}, which no earlier descriptor spawned`);
        return;
      default:
        if (phase === undefined) refuse(`names ${named}, which no earlier descriptor spawned`);
    }
    if (record.type === 'release') {
      if (phase !== 'settled') refuse(phase === 'released' ? `releases ${named} a second time` : `releases ${named} before its result`);
      this.agents.set(path as string, 'released');
      return;
    }
    if (phase !== 'live') refuse(record.type === 'result' ? `settles ${named} a second time` : `comes after ${named} settled`);
    const ids = this.entryIds.get(path as string)!;
    const entries = record['entries'];
    if (Array.isArray(entries)) {
      for (const entry of entries as unknown[]) {
        const id = (entry as { id?: unknown } | null)?.id;
        if (typeof id !== 'string') continue;
        if (ids.has(id)) refuse(`repeats the entry ${id} of ${named}: a record was duplicated`);
        ids.add(id);
      }
    }
    if (record.type === 'result') {
      this.agents.set(path as string, 'settled');
      this.entryIds.delete(path as string);
    }
  }
}
