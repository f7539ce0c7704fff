/**
 * The crash campaign: the scripted session runs in a child process that SIGKILLs itself right
 * after journal record k, for every k of the journal (at least 200 of them); this process then
 * resumes each journal and runs it to the end, and every outcome must equal the uninterrupted
 * run's: each agent's entries and result, no entry or result written twice, every result
 * delivered exactly once.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openJsonlStore } from '../../src/store/jsonl.js';
import { outcomeOf } from './compare.js';
import { runScenario } from './scenario.js';

const LOOKUPS = 70;
const PARALLEL = 4;
const work = mkdtempSync(join(tmpdir(), 'crash-'));
const child = join(work, 'crash-child.mjs');

beforeAll(async () => {
  // One plain-JavaScript bundle: each child starts in milliseconds, without a TypeScript loader.
  await build({ entryPoints: [fileURLToPath(new URL('./crash-child.ts', import.meta.url))], bundle: true, minify: true, platform: 'node', format: 'esm', target: 'node20', outfile: child, logLevel: 'silent', banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" } });
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

function runChild(dir: string, killAt: number): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [child, dir, String(killAt), String(LOOKUPS)], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    proc.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    proc.on('error', reject);
    proc.on('exit', (code, signal) => resolve({ code, signal, stderr }));
  });
}

describe('crash campaign', () => {
  it('SIGKILL after every journal record, resume, run to the end: the same outcome as without the crash', async () => {
    const fullDir = join(work, 'full');
    const full = await runChild(fullDir, 0);
    expect(full, full.stderr).toMatchObject({ code: 0, signal: null });
    const file = join(fullDir, 'crash.jsonl');
    const expected = outcomeOf(file);
    expect(expected.duplicates).toEqual([]);
    const total = readFileSync(file, 'utf8').split('\n').filter((l) => l !== '').length;
    // Format 4 journals phases: a move within one (the task hooks starting) writes no record.
    expect(total).toBeGreaterThanOrEqual(198);

    const points = Array.from({ length: total - 1 }, (_, i) => i + 1);
    const failures: string[] = [];
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < points.length) {
        const k = points[next++]!;
        const dir = join(work, `k${k}`);
        const killed = await runChild(dir, k);
        if (killed.signal !== 'SIGKILL') {
          failures.push(`k=${k}: the child was not killed (${killed.code} ${killed.signal}) ${killed.stderr}`);
          continue;
        }
        const written = readFileSync(join(dir, 'crash.jsonl'), 'utf8').split('\n').filter((l) => l !== '').length;
        if (written !== k) failures.push(`k=${k}: the journal held ${written} records at the kill`);
        const store = openJsonlStore({ dir, fsync: 'never' });
        await runScenario(store, 'resume', LOOKUPS);
        await store.close();
        const got = outcomeOf(join(dir, 'crash.jsonl'));
        if (got.duplicates.length > 0) failures.push(`k=${k}: written twice: ${got.duplicates.join(', ')}`);
        try {
          expect(got.agents).toEqual(expected.agents);
        } catch (error) {
          failures.push(`k=${k}: ${String(error).slice(0, 2000)}`);
        }
        rmSync(dir, { recursive: true, force: true });
      }
    };
    await Promise.all(Array.from({ length: PARALLEL }, worker));
    expect(failures).toEqual([]);
  // Unloaded, 2 cores: about a minute; a generous bound so a shared, loaded machine cannot fail it.
  }, 900_000);
});
