/**
 * Two runtime processes share one Postgres database: the lease holder works while the other
 * waits; when the holder is killed, the other takes the session over and runs it to the same
 * outcome as an uninterrupted run. A holder that is paused past its lease is fenced: the other
 * node takes the session over, and the paused node's appends are refused when it continues.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { build } from 'esbuild';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJsonlStore } from '../../src/store/jsonl.js';
import type { JournalRecord } from '../../src/store/types.js';
import { dropSchemas, PG_URL, postgresAvailable, uniqueSchema } from '../store/pg-helpers.js';
import { outcomeOfRecords, outcomeOf } from './compare.js';
import { runScenario } from './scenario.js';

const available = await postgresAvailable();
const here = fileURLToPath(new URL('.', import.meta.url));
// Inside the repository, so the bundle's external packages (pg) resolve from node_modules.
const out = join(here, '../../node_modules/.cache/durable-tests');
const child = join(out, `pg-child-${process.pid}.mjs`);
const schemas: string[] = [];

beforeAll(async () => {
  mkdirSync(out, { recursive: true });
  await build({ entryPoints: [join(here, 'pg-child.ts')], bundle: true, packages: 'external', platform: 'node', format: 'esm', target: 'node20', outfile: child, logLevel: 'silent' });
});
afterAll(async () => {
  rmSync(child, { force: true });
  await dropSchemas(schemas);
});

interface Child {
  readonly proc: ChildProcess;
  readonly lines: Array<Record<string, unknown>>;
  next(key: string): Promise<Record<string, unknown>>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
}

function start(args: string[]): Child {
  const proc = spawn(process.execPath, [child, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines: Array<Record<string, unknown>> = [];
  const waiting: Array<() => void> = [];
  let buffer = '';
  proc.stdout!.on('data', (d: Buffer) => {
    buffer += d.toString();
    for (let i = buffer.indexOf('\n'); i >= 0; i = buffer.indexOf('\n')) {
      lines.push(JSON.parse(buffer.slice(0, i)) as Record<string, unknown>);
      buffer = buffer.slice(i + 1);
      for (const wake of waiting.splice(0)) wake();
    }
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) =>
    proc.on('exit', (code, signal) => {
      resolve({ code, signal, at: Date.now() });
      for (const wake of waiting.splice(0)) wake();
    }),
  );
  const next = async (key: string): Promise<Record<string, unknown>> => {
    for (;;) {
      const found = lines.find((l) => key in l);
      if (found) return found;
      if (proc.exitCode !== null || proc.signalCode !== null) throw new Error(`child exited without "${key}": ${JSON.stringify(lines)}`);
      await new Promise<void>((resolve) => waiting.push(resolve));
    }
  };
  return { proc, lines, next, exited };
}

async function journalOf(schema: string): Promise<JournalRecord[]> {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    const rows = await client.query<{ record: string }>(`SELECT record FROM ${schema}.journal WHERE session_id = 'crash' ORDER BY seq`);
    return rows.rows.map((r) => JSON.parse(r.record) as JournalRecord);
  } finally {
    await client.end();
  }
}

async function expectedOutcome(): Promise<ReturnType<typeof outcomeOf>> {
  const dir = join(out, `expected-${process.pid}`);
  rmSync(dir, { recursive: true, force: true });
  const store = createJsonlStore({ dir, sessionId: 'crash', fsync: 'never' });
  await runScenario(store, 'fresh');
  await store.close();
  const outcome = outcomeOf(join(dir, 'crash.jsonl'));
  rmSync(dir, { recursive: true, force: true });
  return outcome;
}

describe.skipIf(!available)('two runtime processes on one Postgres database', () => {
  it('the holder works, the other waits; kill the holder and the other resumes the session to the same outcome', async () => {
    const schema = uniqueSchema();
    schemas.push(schema);
    const holder = start(['hold', PG_URL, schema, '30', 'kill']);
    await holder.next('holding');
    const taker = start(['take', PG_URL, schema]);
    const killed = await holder.exited;
    expect(killed.signal).toBe('SIGKILL');
    const acquired = Number((await taker.next('acquired'))['acquired']);
    // The taker waited for the dead holder's lease to expire.
    expect(acquired).toBeGreaterThanOrEqual(killed.at);
    await taker.next('done');
    expect((await taker.exited).code).toBe(0);
    const got = outcomeOfRecords(await journalOf(schema), schema);
    expect(got.duplicates).toEqual([]);
    expect(got.agents).toEqual((await expectedOutcome()).agents);
    // Child processes and a lease to expire: seconds, more on a loaded machine.
  }, 120_000);

  it("a holder paused past its lease is fenced: the other node takes over, and the paused one's append is refused", async () => {
    const schema = uniqueSchema();
    schemas.push(schema);
    const holder = start(['hold', PG_URL, schema, '30', 'stop']);
    const paused = Number((await holder.next('paused'))['paused']);
    const taker = start(['take', PG_URL, schema]);
    // The paused holder renews nothing: the taker gets the lease once it expires.
    expect(Number((await taker.next('acquired'))['acquired'])).toBeGreaterThanOrEqual(paused);
    await taker.next('done');
    expect((await taker.exited).code).toBe(0);
    holder.proc.kill('SIGCONT');
    // Its old fencing token no longer writes: the write is refused as a lost lease (a write
    // that got through would collide with the taker's sequence numbers: `store_failed`).
    expect(await holder.next('halted')).toEqual({ halted: 'lease_lost', refused: 'lease_lost' });
    expect((await holder.exited).code).toBe(0);
    const got = outcomeOfRecords(await journalOf(schema), schema);
    expect(got.duplicates).toEqual([]);
    expect(got.agents).toEqual((await expectedOutcome()).agents);
  }, 120_000);
});
