/**
 * What cannot be a journal gets a typed error: a directory where the journal file should be
 * (or a file where its directory should be), a journal past `maxJournalBytes` (refused before
 * it is written, so the journal stays resumable), a line past `maxLineBytes` (when written and
 * when read). The limits are injected small; the defaults (2 GiB less a byte, about 512 MiB)
 * are the largest file Node reads at once and the longest string V8 holds.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createJsonlStore, createRuntime, openJsonlStore, resumeRuntime, StoreError, ZERO_USAGE, type ModelAdapter, type SessionStore } from '../../src/index.js';
import { DEFAULT_MAX_JOURNAL_BYTES, readJournal } from '../../src/store/jsonl.js';
import { DEFAULT_MAX_LINE_BYTES } from '../../src/store/format.js';
import { createPostgresStore, openPostgresStore } from '../../src/store/postgres.js';
import { dropSchemas, PG_URL, postgresAvailable, uniqueSchema } from './pg-helpers.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'journal-limits-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

// Blob records: the store checks what records say about agents, and blobs name none.
const rec = (n: number, pad = 0) => ({ type: 'blob', hash: `h${n}`, n, pad: 'x'.repeat(pad) });

function storeError(fn: () => unknown): StoreError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(StoreError);
    return error as StoreError;
  }
  throw new Error('expected a StoreError');
}

function failureOf(store: SessionStore): Promise<StoreError> {
  return new Promise((resolve) => store.onFailure(resolve));
}

describe('JSON Lines: what cannot be a journal', () => {
  it('refuses a directory where the journal file should be, on create and on open', () => {
    mkdirSync(join(dir, 's.jsonl'));
    const opened = storeError(() => openJsonlStore({ dir, sessionId: 's' }));
    expect(opened.code).toBe('not_a_journal');
    expect(opened.message).toContain(`${join(dir, 's.jsonl')} is a directory`);
    const created = storeError(() => createJsonlStore({ dir, sessionId: 's' }));
    expect(created.code).toBe('not_a_journal');
    // The only ".jsonl" entry being a directory is refused the same way when no session is named.
    expect(storeError(() => openJsonlStore({ dir })).code).toBe('not_a_journal');
  });

  it('refuses a file where the journal directory should be', () => {
    const file = join(dir, 'plain');
    writeFileSync(file, 'not a directory');
    expect(storeError(() => createJsonlStore({ dir: file, sessionId: 's' })).code).toBe('not_a_journal');
    expect(storeError(() => openJsonlStore({ dir: file, sessionId: 's' })).code).toBe('not_a_journal');
    expect(storeError(() => openJsonlStore({ dir: file })).code).toBe('not_a_journal');
  });

  it('defaults to the largest file Node reads at once and the longest string V8 holds', () => {
    expect(DEFAULT_MAX_JOURNAL_BYTES).toBe(2 ** 31 - 1);
    expect(DEFAULT_MAX_LINE_BYTES).toBe(0x1fffffe8);
    // V8 really cannot hold a longer string: a line past the default could never be decoded.
    expect(() => 'x'.repeat(DEFAULT_MAX_LINE_BYTES + 1)).toThrow(RangeError);
    expect(() => createJsonlStore({ dir, maxJournalBytes: 0 })).toThrow(TypeError);
    expect(() => createJsonlStore({ dir, maxLineBytes: 1.5 })).toThrow(TypeError);
  });
});

describe('JSON Lines: the journal size limit', () => {
  it('refuses the record that would pass maxJournalBytes, keeps everything before it, and the journal opens again', async () => {
    const maxJournalBytes = 4096;
    const store = createJsonlStore({ dir, sessionId: 's', fsync: 'never', maxJournalBytes });
    const failed = failureOf(store);
    for (let i = 0; i < 100; i++) store.append(rec(i, 50));
    const error = await failed;
    expect(error.code).toBe('journal_too_large');
    expect(error.message).toContain('maxJournalBytes');
    expect(() => store.append(rec(999))).toThrow(StoreError);
    await expect(store.close()).rejects.toBe(error);
    const file = join(dir, 's.jsonl');
    expect(statSync(file).size).toBeLessThanOrEqual(maxJournalBytes);
    // Every record before the refused one is there, in order, and nothing after it.
    const reopened = openJsonlStore({ dir, sessionId: 's', maxJournalBytes });
    const ns = reopened.loaded.slice(1).map((r) => r['n']);
    expect(ns.length).toBeGreaterThan(10);
    expect(ns).toEqual([...Array(ns.length).keys()]);
    await reopened.close();
  });

  it('refuses to open a journal past maxJournalBytes with a typed error, reading nothing', async () => {
    const store = createJsonlStore({ dir, sessionId: 's', fsync: 'never' });
    for (let i = 0; i < 20; i++) store.append(rec(i, 100));
    await store.close();
    const size = statSync(join(dir, 's.jsonl')).size;
    const error = storeError(() => openJsonlStore({ dir, sessionId: 's', maxJournalBytes: size - 1 }));
    expect(error.code).toBe('journal_too_large');
    expect(error.message).toContain(`holds ${size} bytes`);
    expect(storeError(() => readJournal(join(dir, 's.jsonl'), true, { maxJournalBytes: size - 1 })).code).toBe('journal_too_large');
    // Nothing was cut: with room, it opens whole.
    const reopened = openJsonlStore({ dir, sessionId: 's', maxJournalBytes: size });
    expect(reopened.loaded).toHaveLength(21);
    await reopened.close();
  });

  it('a runtime whose journal reaches the limit halts with journal_too_large and resumes from what was written', async () => {
    // Each reply comes a macrotask later, so the journal is written while the turn is in flight.
    const model: ModelAdapter = {
      name: 'slow',
      sample: async () => {
        await new Promise<void>((resolve) => setImmediate(resolve));
        return { text: 'a'.repeat(600), toolCalls: [], usage: ZERO_USAGE };
      },
    };
    const store = createJsonlStore({ dir, sessionId: 's', fsync: 'never', maxJournalBytes: 9000 });
    const runtime = createRuntime({ model, store });
    const halted = new Promise<StoreError>((resolve) => runtime.on('halted', (e) => resolve(e.error)));
    let rejected: unknown;
    for (let turn = 0; turn < 50 && rejected === undefined; turn++) {
      await runtime.prompt(`turn ${turn} ${'p'.repeat(400)}`).catch((e: unknown) => (rejected = e));
    }
    const error = await halted;
    expect(error.code).toBe('journal_too_large');
    // The prompt in flight when the limit was reached rejects with that error.
    expect(rejected).toBe(error);
    await store.close().catch(() => {});
    expect(statSync(join(dir, 's.jsonl')).size).toBeLessThanOrEqual(9000);
    const reopened = openJsonlStore({ dir, sessionId: 's' });
    const resumed = resumeRuntime({ model, store: reopened });
    // It was cut mid-turn: the resumed root asks again and finishes that turn.
    await resumed.whenQuiet();
    expect(resumed.stateOf('/root')).toBe('running.idle');
    expect(resumed.transcript('/root')!.length).toBeGreaterThan(4);
    resumed.stop();
    await reopened.close();
  });
});

describe('JSON Lines: the line size limit', () => {
  it('refuses a record past maxLineBytes, writing the records queued before it', async () => {
    const store = createJsonlStore({ dir, sessionId: 's', fsync: 'never', maxLineBytes: 200 });
    const failed = failureOf(store);
    store.append(rec(1));
    store.append(rec(2, 500));
    store.append(rec(3));
    const error = await failed;
    expect(error.code).toBe('journal_too_large');
    expect(error.message).toMatch(/"blob" record of \d+ bytes passes the line limit \(maxLineBytes 200\)/);
    await expect(store.flush()).rejects.toBe(error);
    await store.close().catch(() => {});
    const lines = readFileSync(join(dir, 's.jsonl'), 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as { n?: number });
    expect(lines.slice(1).map((l) => l.n)).toEqual([1]);
  });

  it('refuses a line past maxLineBytes on open, naming its line; repair drops it and what follows', async () => {
    const store = createJsonlStore({ dir, sessionId: 's', fsync: 'never' });
    store.append(rec(1));
    store.append(rec(2, 500));
    store.append(rec(3));
    await store.close();
    const error = storeError(() => openJsonlStore({ dir, sessionId: 's', maxLineBytes: 200 }));
    expect(error.code).toBe('journal_too_large');
    expect(error.message).toContain(`${join(dir, 's.jsonl')}:3: a line of`);
    const repaired = openJsonlStore({ dir, sessionId: 's', maxLineBytes: 200, repair: true });
    expect(repaired.loaded.slice(1).map((r) => r['n'])).toEqual([1]);
    await repaired.close();
  });
});

const pgAvailable = await postgresAvailable();
const schemas: string[] = [];
afterAll(() => dropSchemas(schemas));

describe.skipIf(!pgAvailable)('Postgres: the line size limit', () => {
  it('refuses a record past maxLineBytes, keeping the records before it', async () => {
    const schema = uniqueSchema();
    schemas.push(schema);
    const store = await createPostgresStore({ connectionString: PG_URL, schema, sessionId: 'a', maxLineBytes: 200 });
    const failed = failureOf(store);
    store.append(rec(1));
    store.append(rec(2, 500));
    store.append(rec(3));
    const error = await failed;
    expect(error.code).toBe('journal_too_large');
    await store.close().catch(() => {});
    const reopened = await openPostgresStore({ connectionString: PG_URL, schema, sessionId: 'a' });
    expect(reopened.loaded.slice(1).map((r) => r['n'])).toEqual([1]);
    await reopened.close();
  });
});
