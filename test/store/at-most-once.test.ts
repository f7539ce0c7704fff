/**
 * Side effects at most once across a crash: a tool call that is not idempotent runs only once
 * the journal holds it (written and synced), so a process killed inside the tool resumes with
 * that call answered as interrupted, never run again. A Postgres node that lost its lease runs
 * nothing more: its lease is checked (renewed) before such a call, and the call is refused.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StoreError } from '../../src/index.js';
import { createRuntime, openJsonlStore, resumeRuntime } from '../../src/index.js';
import { createPostgresStore } from '../../src/store/postgres.js';
import { chargeTool, effectModel } from './effect-session.js';
import { dropSchemas, PG_URL, postgresAvailable, uniqueSchema } from './pg-helpers.js';

const work = mkdtempSync(join(tmpdir(), 'at-most-once-'));
const child = join(work, 'effect-child.mjs');
afterAll(() => rmSync(work, { recursive: true, force: true }));

beforeAll(async () => {
  await build({
    entryPoints: [fileURLToPath(new URL('./effect-child.ts', import.meta.url))],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    outfile: child,
    logLevel: 'silent',
    external: ['pg'],
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  });
});

function effectsIn(file: string): string[] {
  return existsSync(file) ? readFileSync(file, 'utf8').trimEnd().split('\n') : [];
}

describe('a non-idempotent tool call across a crash', () => {
  it('killed inside the tool: the resumed session answers the call as interrupted and never runs it again', async () => {
    const dir = join(work, 'jsonl');
    const effects = join(work, 'effects.txt');
    const proc = spawn(process.execPath, [child, dir, effects], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    proc.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const signal = await new Promise<NodeJS.Signals | null>((resolve) => proc.on('close', (_code, sig) => resolve(sig)));
    expect(signal, stderr).toBe('SIGKILL');
    expect(effectsIn(effects)).toEqual(['charged 5']);

    const store = openJsonlStore({ dir, sessionId: 'once', fsync: 'never' });
    const effectsOnResume: number[] = [];
    const runtime = resumeRuntime({ model: effectModel(), store, tools: [chargeTool((amount) => effectsOnResume.push(amount))] });
    await runtime.whenQuiet();
    expect(effectsOnResume).toEqual([]);
    expect(effectsIn(effects)).toEqual(['charged 5']);
    const results = runtime.transcript('/root')!.log.toArray().filter((e) => e.kind === 'tool_result');
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ callId: 'charge_0', isError: true, content: expect.stringContaining('interrupted') });
    expect(runtime.stateOf('/root')).toBe('running.idle');
    runtime.stop();
    await store.close();
  });
});

const available = await postgresAvailable();
const schemas: string[] = [];
afterAll(() => dropSchemas(schemas));

describe.skipIf(!available)('a Postgres node that lost its lease', () => {
  it('runs no tool call once another node took the session, and halts with lease_lost', async () => {
    const schema = uniqueSchema();
    schemas.push(schema);
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    try {
      // A long lease: only the takeover below can end it, never a late renewal.
      const store = await createPostgresStore({ connectionString: PG_URL, schema, sessionId: 'fenced', leaseMs: 60_000, node: 'a' });
      const charged: number[] = [];
      // Another node takes the session over while this one waits on the model.
      const steal = async (): Promise<void> => {
        await admin.query(`UPDATE ${schema}.sessions SET lease_owner = 'b', lease_token = lease_token + 1, lease_expires = now() + interval '1 minute' WHERE session_id = 'fenced'`);
      };
      const runtime = createRuntime({ model: effectModel(steal), store, tools: [chargeTool((amount) => charged.push(amount))] });
      const halted = new Promise<StoreError>((resolve) => runtime.on('halted', (e) => resolve(e.error)));
      const outcome = runtime.prompt('Charge the card 5.');
      const error = await halted;
      expect(error.code).toBe('lease_lost');
      await expect(outcome).rejects.toBe(error);
      expect(charged).toEqual([]);
      await store.close().catch(() => {});
    } finally {
      await admin.end();
    }
  });
});
