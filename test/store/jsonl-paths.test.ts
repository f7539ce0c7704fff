/**
 * Where a JSON Lines journal may live: a session id is a file name inside `dir`, never a path
 * (`../x`, `a/b`, `a\b` are refused with `invalid_session_id` and nothing is created), and one
 * journal reached through a symbolic link (to the file, or to its directory) still has one
 * writer: the lock is taken on the journal's real path.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createJsonlStore, openJsonlStore } from '../../src/store/jsonl.js';
import { StoreError } from '../../src/store/types.js';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'jsonl-paths-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function storeError(fn: () => unknown): StoreError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(StoreError);
    return error as StoreError;
  }
  throw new Error('expected a StoreError');
}

describe('JSON Lines: session ids are file names, not paths', () => {
  const hostile = ['../escaped', '../../etc/x', 'a/b', 'a\\b', '/abs', '..', '.', '', 'nul\u0000byte', 'line\nbreak'];

  it.each(hostile)('refuses %j with invalid_session_id, creating nothing', (sessionId) => {
    const dir = join(root, 'sessions');
    mkdirSync(dir);
    const created = storeError(() => createJsonlStore({ dir, sessionId, fsync: 'never' }));
    expect(created.code).toBe('invalid_session_id');
    expect(created.message).toContain(JSON.stringify(sessionId));
    expect(storeError(() => openJsonlStore({ dir, sessionId })).code).toBe('invalid_session_id');
    expect(readdirSync(dir)).toEqual([]);
    expect(readdirSync(root)).toEqual(['sessions']);
    expect(existsSync(join(root, 'escaped.jsonl'))).toBe(false);
  });

  it('accepts ordinary ids (letters, digits, dots, dashes, underscores)', async () => {
    for (const sessionId of ['session_abc-DEF', 'a.b.c', '2024-01-01T00.00', 'ünï']) {
      const store = createJsonlStore({ dir: root, sessionId, fsync: 'never' });
      expect(store.file).toBe(join(root, `${sessionId}.jsonl`));
      await store.close();
    }
  });
});

describe('JSON Lines: one writer through symbolic links', () => {
  it('refuses a second writer that reaches the journal through a link to the file', async () => {
    const real = join(root, 'real');
    const linked = join(root, 'linked');
    mkdirSync(real);
    mkdirSync(linked);
    const first = createJsonlStore({ dir: real, sessionId: 's', fsync: 'never' });
    symlinkSync(join(real, 's.jsonl'), join(linked, 's.jsonl'));
    expect(storeError(() => openJsonlStore({ dir: linked, sessionId: 's' })).code).toBe('locked');
    await first.close();
    // Held through the link, the real path is refused too.
    const viaLink = openJsonlStore({ dir: linked, sessionId: 's' });
    expect(storeError(() => openJsonlStore({ dir: real, sessionId: 's' })).code).toBe('locked');
    await viaLink.close();
  });

  it('refuses a second writer that reaches the journal through a linked directory', async () => {
    const real = join(root, 'real');
    mkdirSync(real);
    symlinkSync(real, join(root, 'alias'));
    const first = createJsonlStore({ dir: join(root, 'alias'), sessionId: 's', fsync: 'never' });
    expect(storeError(() => openJsonlStore({ dir: real, sessionId: 's' })).code).toBe('locked');
    expect(storeError(() => createJsonlStore({ dir: real, sessionId: 's' })).code).toBe('locked');
    await first.close();
    // The lock lives beside the real file and is gone once released.
    expect(readdirSync(real)).toEqual(['s.jsonl']);
  });
});
