/**
 * `--resume` at the demo's default latency (issue #30.5). At latency 0 every step of the
 * script follows the one before at once; at the default latency subagents overlap, so a crash
 * leaves forks that inherited their parent's replies mid-way. The session runs on simulated
 * time (test/cli/virtual-clock.ts): the real latencies and their order, no sleep.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.js';
import { outcomeOf } from '../durable/compare.js';
import { virtualClock } from './virtual-clock.js';

const work = mkdtempSync(join(tmpdir(), 'demo-resume-latency-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const FILE = 'demo-release-2.0.jsonl';

function collector() {
  const chunks: string[] = [];
  return { sink: { isTTY: false, write: (text: string) => (chunks.push(text), true) }, text: () => chunks.join('') };
}

/** The demo CLI at its default latency, on simulated time. */
async function demo(args: string[]): Promise<{ code: number; out: string; err: string; simulatedMs: number }> {
  const out = collector();
  const err = collector();
  const clock = virtualClock();
  // One fixed time for elapsed times: the elapsed_ms parents read is the same bytes in every run.
  const code = await clock.drive(runCli(args, { out: out.sink, err: err.sink, clock, now: () => 0 }));
  return { code, out: out.text(), err: err.text(), simulatedMs: clock.now };
}

/** What must survive a crash, as in test/cli/journal.test.ts (no elapsed times, no cache splits; entries as a set). */
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

describe('demo --resume at the default latency', () => {
  it('a journal cut after any of its records resumes to the uninterrupted outcome', async () => {
    const full = join(work, 'full');
    const first = await demo(['--journal', full]);
    expect(first.code, first.err).toBe(0);
    // The default latency, not zero: the session took seconds of simulated time.
    expect(first.simulatedMs).toBeGreaterThan(1_000);
    const expected = outcomeOf(join(full, FILE));
    const lines = readFileSync(join(full, FILE), 'utf8').split('\n').filter((l) => l !== '');
    expect(lines.length).toBeGreaterThan(40);

    const step = Number(process.env['DEMO_CUT_STEP'] ?? 1);
    const failures: string[] = [];
    for (let k = 1; k < lines.length; k += step) {
      const dir = join(work, `cut-${k}`);
      mkdirSync(dir);
      writeFileSync(join(dir, FILE), `${lines.slice(0, k).join('\n')}\n`);
      const resumed = await demo(['--resume', dir]);
      const script = /\(no script for [^)]*\)/.exec(resumed.out)?.[0];
      if (resumed.code !== 0 || script || !resumed.out.includes('Results: 6 subagents, one result each')) {
        failures.push(`cut after ${k} of ${lines.length} records: exit ${resumed.code}${script ? `, ${script}` : ''}`);
        continue;
      }
      const got = outcomeOf(join(dir, FILE));
      if (got.duplicates.length > 0) failures.push(`cut after ${k}: written twice: ${got.duplicates.join(', ')}`);
      else if (JSON.stringify(comparable(got.agents)) !== JSON.stringify(comparable(expected.agents))) failures.push(`cut after ${k}: another outcome`);
    }
    expect(failures).toEqual([]);
  }, 300_000);
});
