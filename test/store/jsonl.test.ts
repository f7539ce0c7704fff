import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createJsonlStore, openJsonlStore, readJournal } from '../../src/store/jsonl.js';
import { JOURNAL_FORMAT } from '../../src/store/format.js';
import { StoreError } from '../../src/store/types.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'journal-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

// Blob records: the store checks what records say about agents, and blobs name none.
const rec = (n: number) => ({ type: 'blob', hash: `h${n}`, n });

function storeError(fn: () => unknown): StoreError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(StoreError);
    return error as StoreError;
  }
  throw new Error('expected a StoreError');
}

describe('JSON Lines session store', () => {
  it('writes a header, then records in order, and reads them back after close', async () => {
    const store = createJsonlStore({ dir, sessionId: 's1', now: () => 7 });
    for (let i = 0; i < 5; i++) store.append(rec(i));
    await store.flush();
    await store.close();
    const lines = readFileSync(join(dir, 's1.jsonl'), 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l));
    // Each line is sealed: its checksum first, then its place in the journal, then the record.
    expect(lines[0]).toEqual({ sum: expect.stringMatching(/^[0-9a-f]{8}$/), seq: 0, type: 'session', format: JOURNAL_FORMAT, sessionId: 's1', createdAt: 7 });
    expect(Object.keys(lines[1]).slice(0, 2)).toEqual(['sum', 'seq']);
    expect(lines.slice(1).map((l) => [l.seq, l.n])).toEqual([[1, 0], [2, 1], [3, 2], [4, 3], [5, 4]]);
    const reopened = openJsonlStore({ dir });
    expect(reopened.sessionId).toBe('s1');
    expect(reopened.loaded.slice(1)).toEqual([0, 1, 2, 3, 4].map(rec));
    reopened.append(rec(5));
    await reopened.close();
    expect(openJsonlStore({ dir, sessionId: 's1' }).loaded.at(-1)).toEqual(rec(5));
  });

  it('writes queued records at the end of the event-loop turn, without flush', async () => {
    const store = createJsonlStore({ dir, sessionId: 's', fsync: 'never' });
    store.append(rec(1));
    const file = join(dir, 's.jsonl');
    const before = readFileSync(file, 'utf8').split('\n').length;
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(readFileSync(file, 'utf8').split('\n').length).toBe(before + 1);
    await store.close();
  });

  it('drops a torn last line and truncates the file to the last whole line', async () => {
    const store = createJsonlStore({ dir, sessionId: 's' });
    store.append(rec(1));
    await store.close();
    const file = join(dir, 's.jsonl');
    const whole = statSync(file).size;
    appendFileSync(file, '{"type":"advance","path":"/ro');
    const reopened = openJsonlStore({ dir });
    expect(reopened.loaded).toHaveLength(2);
    expect(statSync(file).size).toBe(whole);
    reopened.append(rec(2));
    await reopened.close();
    expect(readJournal(file, false).records.at(-1)).toEqual(rec(2));
  });

  it('refuses a corrupt line with the file and line number, appending nothing, until the host repairs', async () => {
    const store = createJsonlStore({ dir, sessionId: 's' });
    store.append(rec(1));
    store.append(rec(2));
    await store.close();
    const file = join(dir, 's.jsonl');
    const lines = readFileSync(file, 'utf8').split('\n');
    lines[2] = 'garbage';
    writeFileSync(file, lines.join('\n'));
    const size = statSync(file).size;
    const error = storeError(() => openJsonlStore({ dir }));
    expect(error.code).toBe('corrupt_journal');
    expect(error.message).toContain(`${file}:3`);
    expect(statSync(file).size).toBe(size);
    expect(existsSync(`${file}.lock`)).toBe(false);
    const repaired = openJsonlStore({ dir, repair: true });
    expect(repaired.loaded).toEqual([expect.objectContaining({ type: 'session' }), rec(1)]);
    await repaired.close();
  });

  it('refuses foreign records: unknown types, a missing header, a second header, a wrong session', async () => {
    const file = join(dir, 's.jsonl');
    const header = JSON.stringify({ type: 'session', format: 1, sessionId: 's', createdAt: 0 });
    writeFileSync(file, `${header}\n{"type":"mystery"}\n`);
    expect(storeError(() => openJsonlStore({ dir })).message).toMatch(/s\.jsonl:2: foreign record type "mystery"/);
    writeFileSync(file, `${JSON.stringify(rec(1))}\n`);
    expect(storeError(() => openJsonlStore({ dir })).message).toMatch(/:1: the first record must be the session header/);
    writeFileSync(file, `${header}\n${header}\n`);
    expect(storeError(() => openJsonlStore({ dir })).message).toMatch(/:2: a second session header/);
    writeFileSync(file, `[1]\n`);
    expect(storeError(() => openJsonlStore({ dir })).message).toMatch(/:1: not a journal record/);
    writeFileSync(file, '');
    expect(storeError(() => openJsonlStore({ dir })).message).toMatch(/no session header/);
    writeFileSync(file, `${JSON.stringify({ type: 'session', format: 1, sessionId: 'other', createdAt: 0 })}\n`);
    expect(storeError(() => openJsonlStore({ dir })).message).toMatch(/names session "other", not s/);
    writeFileSync(file, `${JSON.stringify({ type: 'session', format: 0, sessionId: 's' })}\n`);
    expect(storeError(() => openJsonlStore({ dir })).message).toMatch(/no valid format version/);
    writeFileSync(file, `${JSON.stringify({ type: 'session', format: 1 })}\n`);
    expect(storeError(() => openJsonlStore({ dir })).message).toMatch(/no sessionId/);
  });

  it('refuses a journal written by a newer format version, even when asked to repair', () => {
    writeFileSync(join(dir, 's.jsonl'), `${JSON.stringify({ type: 'session', format: JOURNAL_FORMAT + 1, sessionId: 's', createdAt: 0 })}\n`);
    const error = storeError(() => openJsonlStore({ dir, repair: true }));
    expect(error.code).toBe('newer_format');
    expect(error.message).toContain(`newer format version (${JOURNAL_FORMAT + 1})`);
  });

  it('opens a journal of the first format (written before cancel records existed)', async () => {
    writeFileSync(join(dir, 's.jsonl'), `${JSON.stringify({ type: 'session', format: 1, sessionId: 's', createdAt: 0 })}\n`);
    const store = openJsonlStore({ dir });
    expect(store.loaded).toEqual([{ type: 'session', format: 1, sessionId: 's', createdAt: 0 }]);
    await store.close();
  });

  it('refuses a second runtime on the same journal through the lock file, and frees it on close', async () => {
    const store = createJsonlStore({ dir, sessionId: 's' });
    expect(storeError(() => openJsonlStore({ dir, sessionId: 's' })).code).toBe('locked');
    expect(storeError(() => createJsonlStore({ dir, sessionId: 's' })).code).toBe('locked');
    await store.close();
    expect(storeError(() => createJsonlStore({ dir, sessionId: 's' })).code).toBe('session_exists');
    const again = openJsonlStore({ dir });
    await again.close();
  });

  it('takes over the lock of a process that no longer runs (a crash)', async () => {
    const store = createJsonlStore({ dir, sessionId: 's' });
    await store.close();
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString();
    const file = join(dir, 's.jsonl');
    writeFileSync(`${file}.lock`, JSON.stringify({ pid: Number(dead), host: (await import('node:os')).hostname() }));
    const reopened = openJsonlStore({ dir });
    expect(JSON.parse(readFileSync(`${file}.lock`, 'utf8')).pid).toBe(process.pid);
    await reopened.close();
    writeFileSync(`${file}.lock`, 'not json');
    expect(storeError(() => openJsonlStore({ dir })).message).toMatch(/locked by an unreadable lock file/);
  });

  it('names the session to open when a directory holds several or none', async () => {
    expect(storeError(() => openJsonlStore({ dir })).code).toBe('unknown_session');
    expect(storeError(() => openJsonlStore({ dir: join(dir, 'missing') })).code).toBe('unknown_session');
    expect(storeError(() => openJsonlStore({ dir, sessionId: 'nope' })).code).toBe('unknown_session');
    await createJsonlStore({ dir, sessionId: 'a' }).close();
    await createJsonlStore({ dir, sessionId: 'b' }).close();
    expect(storeError(() => openJsonlStore({ dir })).message).toMatch(/holds 2 journals \(a\.jsonl, b\.jsonl\)/);
  });

  it('fsyncs under every policy and refuses appends after close', async () => {
    for (const fsync of ['always', 'interval', 'never'] as const) {
      const store = createJsonlStore({ dir, sessionId: fsync, fsync, fsyncIntervalMs: 1 });
      store.append(rec(1));
      await store.flush();
      await store.close();
      await store.close();
      expect(storeError(() => store.append(rec(2))).code).toBe('closed');
      expect(readJournal(join(dir, `${fsync}.jsonl`), false).records).toHaveLength(2);
    }
  });

  it('stops and reports when a write fails; nothing written before is lost', async () => {
    const store = createJsonlStore({ dir, sessionId: 's', fsync: 'never' });
    store.append(rec(1));
    await store.flush();
    const failures: StoreError[] = [];
    store.onFailure((e) => failures.push(e));
    // Break the descriptor under the store: the next write fails.
    const handle = store as unknown as { fd: number };
    const fd = handle.fd;
    handle.fd = 987654;
    store.append(rec(2));
    await expect(store.flush()).rejects.toMatchObject({ code: 'store_failed' });
    expect(failures).toHaveLength(1);
    expect(storeError(() => store.append(rec(3))).code).toBe('store_failed');
    const late: StoreError[] = [];
    store.onFailure((e) => late.push(e));
    expect(late).toEqual(failures);
    handle.fd = fd;
    await expect(store.close()).rejects.toMatchObject({ code: 'store_failed' });
    expect(existsSync(join(dir, 's.jsonl.lock'))).toBe(false);
    expect(readJournal(join(dir, 's.jsonl'), false).records.at(-1)).toEqual(rec(1));
  });
});
