/**
 * Journal records tampered with after they were written: every line duplicated, every pair of
 * neighbours swapped, bytes flipped so that the JSON stays valid, a record about an agent no
 * descriptor spawned. A sealed journal (format 3: each line carries its sequence number and a
 * CRC-32) refuses each of them on open with `corrupt_journal` naming the line; `repair: true`
 * drops it and what follows, and the session resumes. A journal of the previous format (no
 * checksums) still opens and resumes; tampered, it gives a typed error or resumes, never an
 * untyped one, and never delivers a notice twice.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJsonlStore, createRuntime, openJsonlStore, resumeRuntime, StoreError } from '../../src/index.js';
import { sealLine } from '../../src/store/envelope.js';
import { scriptedModel } from '../../src/testing/index.js';

const work = mkdtempSync(join(tmpdir(), 'journal-records-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const SCRIPT = {
  '/root': {
    0: [{ toolCalls: [{ name: 'Agent', arguments: { task_name: 'job', message: 'Do the job.', context: 'none' } }] }, { text: 'The job reported.' }],
    1: [{ text: 'Noted the notice.' }],
  },
  '/root/job': { 0: [{ text: 'job done' }] },
  '/root/bg': { 0: [{ text: 'bg done' }] },
};

const SESSION = 's';
/** What the untouched session holds (the root was stopped at the end, so it has a result too). */
const REFERENCE = { results: ['/root/bg: bg done', '/root/job: job done', '/root: Noted the notice.'], notices: { '/root/bg': 1 } };
let sealed: string[];
let old: string[];

/** A session with an Agent call answered to its caller and a host spawn delivered as a notice. */
beforeAll(async () => {
  const dir = join(work, 'source');
  const store = createJsonlStore({ dir, sessionId: SESSION, fsync: 'never' });
  const runtime = createRuntime({ model: scriptedModel(SCRIPT), store });
  await runtime.prompt('Start.');
  await runtime.spawn('/root', { task_name: 'bg', message: 'Work in the background.' }, { delivery: 'parent' });
  await runtime.whenQuiet();
  runtime.stop();
  await store.close();
  sealed = readFileSync(join(dir, `${SESSION}.jsonl`), 'utf8').trimEnd().split('\n');
  // The same journal as the previous format wrote it: no envelope, format 2 in the header.
  old = sealed.map((line, i) => {
    const { sum: _sum, seq: _seq, ...record } = JSON.parse(line) as Record<string, unknown>;
    return JSON.stringify(i === 0 ? { ...record, format: 2 } : record);
  });
});

let dirs = 0;
function journalDir(lines: readonly string[]): string {
  const dir = join(work, `j${dirs++}`);
  mkdirSync(dir);
  writeFileSync(join(dir, `${SESSION}.jsonl`), `${lines.join('\n')}\n`);
  return dir;
}

interface Resumed {
  readonly results: string[];
  /** Notices in the root's dialogue, per subagent. */
  readonly notices: Record<string, number>;
}

/** Opens and resumes `lines`; returns what the session holds once quiet, or the error. */
async function resume(lines: readonly string[], repair = false): Promise<Resumed | { readonly error: unknown }> {
  let store;
  try {
    store = openJsonlStore({ dir: journalDir(lines), sessionId: SESSION, fsync: 'never', repair });
    const runtime = resumeRuntime({ model: scriptedModel(SCRIPT), store });
    await runtime.whenQuiet();
    const notices: Record<string, number> = {};
    for (const entry of runtime.transcript('/root')?.log.toArray() ?? []) {
      if (entry.kind === 'user' && entry.origin.kind === 'notice') notices[entry.origin.from] = (notices[entry.origin.from] ?? 0) + 1;
    }
    const results = runtime.results.map((r) => `${r.path}: ${r.text}`).sort();
    runtime.stop();
    return { results, notices };
  } catch (error) {
    return { error };
  } finally {
    await store?.close().catch(() => {});
  }
}

function located(outcome: Resumed | { readonly error: unknown }, line: number): StoreError {
  expect(outcome).toHaveProperty('error');
  const error = (outcome as { error: unknown }).error;
  expect(error).toBeInstanceOf(StoreError);
  expect((error as StoreError).code).toBe('corrupt_journal');
  expect((error as StoreError).message).toContain(`${SESSION}.jsonl:${line}:`);
  return error as StoreError;
}

describe('a sealed journal refuses tampered records with their line', () => {
  it('resumes untouched, with each notice once', async () => {
    const outcome = await resume(sealed);
    expect(outcome).toEqual(REFERENCE);
    expect(sealed.length).toBeGreaterThan(10);
  });

  it('refuses every duplicated line at the copy', async () => {
    for (let i = 1; i < sealed.length; i++) {
      const lines = [...sealed.slice(0, i + 1), sealed[i]!, ...sealed.slice(i + 1)];
      expect(located(await resume(lines), i + 2).message).toContain('duplicated, lost or moved');
    }
  });

  it('refuses every swapped pair at the first of the two', async () => {
    for (let i = 1; i + 1 < sealed.length; i++) {
      const lines = [...sealed];
      [lines[i], lines[i + 1]] = [lines[i + 1]!, lines[i]!];
      located(await resume(lines), i + 1);
    }
  });

  it('refuses a lost line in the middle at the line after it', async () => {
    for (let i = 1; i + 1 < sealed.length; i++) located(await resume([...sealed.slice(0, i), ...sealed.slice(i + 1)]), i + 1);
  });

  it('catches flipped bytes that keep the JSON valid, anywhere in the line', async () => {
    let flips = 0;
    for (let i = 0; i < sealed.length; i++) {
      const line = sealed[i]!;
      // A letter or digit turned into another one: still valid JSON, a different record.
      for (let at = 1; at < line.length; at += Math.max(1, Math.floor(line.length / 7))) {
        const c = line[at]!;
        if (!/[a-z0-9]/i.test(c)) continue;
        const flipped = c === 'a' ? 'b' : /[0-9]/.test(c) ? String((Number(c) + 1) % 10) : 'a';
        const lines = [...sealed];
        lines[i] = line.slice(0, at) + flipped + line.slice(at + 1);
        located(await resume(lines), i + 1);
        flips++;
      }
    }
    expect(flips).toBeGreaterThan(60);
  });

  it('refuses a correctly sealed record about an agent no descriptor spawned; repair drops it and the session resumes', async () => {
    const ghost = sealLine(JSON.stringify({ type: 'advance', path: '/root/ghost', state: 'running.idle' }), sealed.length);
    const lines = [...sealed, ghost];
    const error = located(await resume(lines), sealed.length + 1);
    expect(error.message).toContain('names /root/ghost, which no earlier descriptor spawned');
    expect(await resume(lines, true)).toEqual(REFERENCE);
  });
});

describe('a journal of the previous format (no checksums)', () => {
  it('still opens and resumes to the same results', async () => {
    expect(await resume(old)).toEqual(REFERENCE);
  });

  it('duplicated or swapped, gives a typed error or resumes, and never delivers a notice twice', async () => {
    const variants: string[][] = [];
    for (let i = 1; i < old.length; i++) variants.push([...old.slice(0, i + 1), old[i]!, ...old.slice(i + 1)]);
    for (let i = 1; i + 1 < old.length; i++) {
      const lines = [...old];
      [lines[i], lines[i + 1]] = [lines[i + 1]!, lines[i]!];
      variants.push(lines);
    }
    let refused = 0;
    for (const lines of variants) {
      const outcome = await resume(lines);
      if ('error' in outcome) {
        refused++;
        expect(outcome.error).toBeInstanceOf(StoreError);
        expect((outcome.error as StoreError).code).toBe('corrupt_journal');
      } else {
        for (const count of Object.values(outcome.notices)) expect(count).toBe(1);
      }
    }
    // Most are caught without checksums too (28 of 39 here): a repeated entry id, a second
    // result, a record after a result or before a descriptor.
    expect(refused).toBeGreaterThan(variants.length / 2);
  });

  it('refuses a record about an unknown agent with its line; repair: true drops it', async () => {
    const lines = [...old, JSON.stringify({ type: 'result', path: '/root/ghost', result: {} })];
    expect(located(await resume(lines), lines.length).message).toContain('/root/ghost');
    expect(await resume(lines, true)).toEqual(REFERENCE);
  });
});
