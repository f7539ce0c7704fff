/**
 * The demo's `--journal DIR` and `--resume DIR`: a journaled run, then resumes of the journal as
 * a crash at every third record would have left it (its first k records, every other one with
 * a torn last line), each run to the end. Every agent's entries and result must equal the uninterrupted
 * run's, and nothing may be written twice.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.js';
import { outcomeOf } from '../durable/compare.js';

const work = mkdtempSync(join(tmpdir(), 'demo-journal-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const FILE = 'demo-release-2.0.jsonl';

function collector() {
  const chunks: string[] = [];
  return { sink: { isTTY: false, write: (text: string) => (chunks.push(text), true) }, text: () => chunks.join('') };
}

async function demo(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out = collector();
  const err = collector();
  // One fixed time: the metadata parents read (elapsed_ms) is the same bytes in every run.
  const code = await runCli(['--latency', '0', ...args], { out: out.sink, err: err.sink, now: () => 0 });
  return { code, out: out.text(), err: err.text() };
}

/**
 * What must survive a crash. Elapsed times are left out (the runs below keep one fixed time, so
 * the `elapsed_ms` a parent reads is the same in all of them), and the demo's simulated provider
 * keeps its prompt cache in the process, so a resumed process starts with a cold cache: cache
 * read/write splits may differ, every other token count may not. Subagents that run at once
 * may finish in another order after a resume (their remaining work differs), so an agent's
 * entries are compared as a set; each entry, and each result, must be there exactly.
 */
function comparable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(comparable);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (key === 'elapsedMs' || key === 'cacheReadTokens' || key === 'cacheWriteTokens') continue;
    out[key] = key === 'entries' && Array.isArray(v) ? v.map((e) => JSON.stringify(comparable(e))).sort() : comparable(v);
  }
  return out;
}

describe('demo --journal and --resume', () => {
  it('a resumed journal, cut where a crash would cut it, runs to the uninterrupted outcome', async () => {
    const full = join(work, 'full');
    const first = await demo(['--journal', full]);
    expect(first.code, first.err).toBe(0);
    expect(first.err).toContain(`journaling the session to ${join(full, FILE)}`);
    const expected = outcomeOf(join(full, FILE));
    expect(expected.duplicates).toEqual([]);
    const lines = readFileSync(join(full, FILE), 'utf8').split('\n').filter((l) => l !== '');
    expect(lines.length).toBeGreaterThan(40);

    const step = Number(process.env['DEMO_CUT_STEP'] ?? 3);
    const cuts = Array.from({ length: Math.ceil((lines.length - 1) / step) }, (_, i) => 1 + i * step);
    for (const [i, k] of cuts.entries()) {
      const dir = join(work, `cut-${k}`);
      mkdirSync(dir);
      // Every other cut also leaves half of the next record behind, as a crash mid-write does.
      const torn = i % 2 === 1 ? lines[k]!.slice(0, Math.floor(lines[k]!.length / 2)) : '';
      writeFileSync(join(dir, FILE), `${lines.slice(0, k).join('\n')}\n${torn}`);
      const resumed = await demo(['--resume', dir]);
      expect(resumed.code, `cut after ${k} records: ${resumed.err}`).toBe(0);
      expect(resumed.err).toContain(`resuming the session journaled in ${join(dir, FILE)}`);
      expect(resumed.out).toContain('Results: 6 subagents, one result each');
      expect(resumed.out).toContain('slots in use at the end: 0');
      const got = outcomeOf(join(dir, FILE));
      expect(got.duplicates, `cut after ${k} records`).toEqual([]);
      expect(comparable(got.agents), `cut after ${k} records`).toEqual(comparable(expected.agents));
    }
    // A fully run session resumes to the same outcome and does nothing more.
    const again = await demo(['--resume', full]);
    expect(again.code, again.err).toBe(0);
    expect(readFileSync(join(full, FILE), 'utf8').split('\n').filter((l) => l !== '').length).toBe(lines.length);
  }, 300_000);

  it('--journal on a folder that holds the journal points to --resume; --resume of an empty folder points to --journal (#30 item 7)', async () => {
    const dir = join(work, 'twice');
    expect((await demo(['--journal', dir])).code).toBe(0);
    const again = await demo(['--journal', dir]);
    expect(again.code).toBe(2);
    expect(again.err).toContain(`resume it with --resume ${dir}`);
    const empty = join(work, 'empty-actionable');
    mkdirSync(empty);
    const missing = await demo(['--resume', empty]);
    expect(missing.code).toBe(2);
    expect(missing.err).not.toContain('name the session');
    expect(missing.err).toContain(`run the demo with --journal ${empty} first`);
  });

  it('after a resume, counts the subagents that settled before the crash (#30 item 7)', async () => {
    const full = join(work, 'count-full');
    expect((await demo(['--journal', full])).code).toBe(0);
    const first = (await demo(['--resume', full])).out;
    const lines = readFileSync(join(full, FILE), 'utf8').split('\n').filter((l) => l !== '');
    const cut = join(work, 'count-cut');
    mkdirSync(cut);
    writeFileSync(join(cut, FILE), `${lines.slice(0, Math.floor(lines.length * 0.8)).join('\n')}\n`);
    const resumed = await demo(['--resume', cut]);
    expect(resumed.code, resumed.err).toBe(0);
    for (const out of [first, resumed.out]) {
      expect(out).toContain('6 results for 6 subagents');
      expect(out).not.toContain('for 0 subagents');
    }
  });

  it('--resume of a folder without a journal, or with --journal, exits 2 with the reason', async () => {
    const empty = join(work, 'empty');
    mkdirSync(empty);
    const missing = await demo(['--resume', empty]);
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/journal/i);
    expect(missing.err).toContain(empty);
    const both = await demo(['--journal', join(work, 'x'), '--resume', empty]);
    expect(both.code).toBe(2);
    expect(both.err).toContain('--journal and --resume exclude each other');
  });
});
