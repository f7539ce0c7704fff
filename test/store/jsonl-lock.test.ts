/**
 * The JSON Lines lock as a lease: a dead holder's lock expires; a holder that exited but was not
 * reaped is dead; the same pid after a restart is not the holder; another host's lock lasts its
 * lease; the host can take a lock over, and the old holder then writes nothing more.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createJsonlStore, openJsonlStore, readJournal } from '../../src/store/jsonl.js';
import { StoreError } from '../../src/store/types.js';
import { thrown } from '../thrown.js';

const work = mkdtempSync(join(tmpdir(), 'lock-'));
const holder = join(work, 'lock-holder.mjs');
beforeAll(async () => {
  await build({ entryPoints: [fileURLToPath(new URL('./lock-holder.ts', import.meta.url))], bundle: true, platform: 'node', format: 'esm', target: 'node22', outfile: holder, logLevel: 'silent', banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" } });
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

let dir: string;
let file: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'journal-'));
  file = join(dir, 's.jsonl');
});
afterEach(() => {
  vi.useRealTimers();
  rmSync(dir, { recursive: true, force: true });
});

// Blob records: the store checks what records say about agents, and blobs name none.
const rec = (n: number) => ({ type: 'blob', hash: `h${n}`, n });

async function journal(): Promise<void> {
  const store = createJsonlStore({ dir, sessionId: 's' });
  store.append(rec(1));
  await store.close();
}

/** Sets the lock file's last renewal `ms` into the past. */
function age(ms: number): void {
  const then = new Date(Date.now() - ms);
  utimesSync(`${file}.lock`, then, then);
}

describe('JSON Lines lock as a lease', () => {
  it('takes over a lock naming this pid that this process does not hold (the same pid after a container restart)', async () => {
    await journal();
    writeFileSync(`${file}.lock`, JSON.stringify({ pid: process.pid, host: hostname(), nonce: 'before-restart', leaseMs: 60_000 }));
    const store = openJsonlStore({ dir });
    expect(JSON.parse(readFileSync(`${file}.lock`, 'utf8')).nonce).not.toBe('before-restart');
    await store.close();
    // A lock this process does hold is live, though it names the same pid.
    const live = openJsonlStore({ dir });
    expect(thrown(() => openJsonlStore({ dir }), StoreError).code).toBe('locked');
    await live.close();
  });

  it.skipIf(process.platform !== 'linux')('resumes at once after the holder was SIGKILLed and not yet reaped, with no retry', async () => {
    // The holder runs under a parent (`sleep`, exec'd by sh) that never reaps it: once dead it stays a zombie.
    const proc = spawn('sh', ['-c', `"${process.execPath}" "${holder}" "${dir}" & exec sleep 60 >/dev/null 2>&1`], { stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    proc.stdout.on('data', (d: Buffer) => (out += d.toString()));
    // The pipe closes when the holder has exited (sleep does not hold it).
    await new Promise((resolve) => proc.stdout.on('end', resolve));
    try {
      expect(out).toBe('ready\n');
      const owner = JSON.parse(readFileSync(`${file}.lock`, 'utf8')) as { pid: number };
      // Not reaped: the process is still in the table (exiting, or a zombie).
      expect(existsSync(`/proc/${owner.pid}`)).toBe(true);
      const store = openJsonlStore({ dir });
      expect(JSON.parse(readFileSync(`${file}.lock`, 'utf8')).pid).toBe(process.pid);
      await store.close();
    } finally {
      proc.kill();
    }
  });

  it("refuses another host's lock while its lease runs, naming it and the way out, and takes it over once it expired", async () => {
    await journal();
    writeFileSync(`${file}.lock`, JSON.stringify({ pid: 1, host: 'elsewhere', nonce: 'n', leaseMs: 5_000 }));
    const error = thrown(() => openJsonlStore({ dir }), StoreError);
    expect(error.code).toBe('locked');
    expect(error.message).toMatch(/locked by process 1 on elsewhere .* until \d{4}-.*takeover: true/);
    age(5_001);
    const store = openJsonlStore({ dir });
    expect(JSON.parse(readFileSync(`${file}.lock`, 'utf8')).host).toBe(hostname());
    await store.close();
  });

  it('an empty or torn lock file is a lease of the default length, not a lock forever', async () => {
    await journal();
    for (const text of ['', '{"pid":12']) {
      writeFileSync(`${file}.lock`, text);
      expect(thrown(() => openJsonlStore({ dir }), StoreError).message).toMatch(/locked by an unreadable lock file/);
      age(10_001);
      await openJsonlStore({ dir }).close();
      expect(existsSync(`${file}.lock`)).toBe(false);
    }
  });

  it('takeover: true takes a live lock; the old holder then writes nothing more and fails with lease_lost', async () => {
    const old = createJsonlStore({ dir, sessionId: 's', fsync: 'never' });
    old.append(rec(1));
    await old.flush();
    const failures: string[] = [];
    old.onFailure((e) => failures.push(e.code));
    const taker = openJsonlStore({ dir, sessionId: 's', takeover: true });
    old.append(rec(2));
    await expect(old.flush()).rejects.toMatchObject({ code: 'lease_lost' });
    expect(failures).toEqual(['lease_lost']);
    taker.append(rec(3));
    await old.close().catch(() => {});
    // The old holder's close leaves the new holder's lock in place.
    expect(existsSync(`${file}.lock`)).toBe(true);
    await taker.close();
    expect(readJournal(file, false).records.slice(1)).toEqual([rec(1), rec(3)]);
  });

  it('the holder renews its lease on its own timer; one that stopped renewing loses the lock when it expires', async () => {
    vi.useFakeTimers({ toFake: ['setInterval'] });
    const store = createJsonlStore({ dir, sessionId: 's', leaseMs: 3_000 });
    age(2_500);
    vi.advanceTimersByTime(1_000);
    expect(Date.now() - statSync(`${file}.lock`).mtimeMs).toBeLessThan(2_500);
    expect(thrown(() => openJsonlStore({ dir, sessionId: 's' }), StoreError).code).toBe('locked');
    // Renewals stop (a stalled or dead holder): once its lease ran out the lock is taken over.
    age(3_001);
    const taker = openJsonlStore({ dir, sessionId: 's' });
    const lost = new Promise<StoreError>((resolve) => store.onFailure(resolve));
    vi.advanceTimersByTime(1_000);
    expect((await lost).code).toBe('lease_lost');
    await store.close().catch(() => {});
    await taker.close();
  });
});
