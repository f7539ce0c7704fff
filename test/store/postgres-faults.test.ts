/**
 * Postgres faults from the server side, on the shared test server (which is never restarted):
 * `pg_terminate_backend` on the store's own connections only (found by a unique
 * `application_name`).
 *
 * - Idle connections terminated (how a server restart looks to a client; simulated by ending
 *   every connection of this store's pool): the pool reconnects, the lease still holds, the
 *   session goes on, and a non-idempotent call runs exactly once.
 * - The connection terminated while a write waits on it: the store fails with `store_failed`,
 *   the session halts, the tool call whose record was not stored never ran, and another store
 *   resumes the session from what was acknowledged, running it once.
 */
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import type { StoreError } from '../../src/index.js';
import { createRuntime, resumeRuntime } from '../../src/index.js';
import { createPostgresStore, openPostgresStore } from '../../src/store/postgres.js';
import { chargeTool, effectModel } from './effect-session.js';
import { dropSchemas, PG_URL, postgresAvailable, uniqueSchema } from './pg-helpers.js';

const available = await postgresAvailable();
const schemas: string[] = [];
afterAll(() => dropSchemas(schemas));

let apps = 0;
function appName(): string {
  return `sa_faults_${process.pid}_${apps++}`;
}

function poolFor(app: string): pg.Pool {
  const url = new URL(PG_URL);
  url.searchParams.set('application_name', app);
  return new pg.Pool({ connectionString: url.toString(), max: 2 });
}

/** Terminates the backends of `app` (waiting ones only, with `waiting`); returns how many. */
async function terminate(admin: pg.Client, app: string, waiting = false): Promise<number> {
  const rows = await admin.query<{ ok: boolean }>(
    `SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity WHERE application_name = $1 ${waiting ? "AND wait_event_type = 'Lock'" : ''}`,
    [app],
  );
  return rows.rows.filter((r) => r.ok).length;
}

describe.skipIf(!available)('Postgres faults: terminated backends', () => {
  it('idle connections terminated (a restarted server, simulated): the store reconnects and the session goes on; the call runs once', async () => {
    const schema = uniqueSchema();
    schemas.push(schema);
    const app = appName();
    const pool = poolFor(app);
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    try {
      const store = await createPostgresStore({ pool, schema, sessionId: 'restart', leaseMs: 60_000 });
      const charged: number[] = [];
      const lostIdle = async (): Promise<void> => {
        // Nothing in flight: every connection of the pool is idle when the server ends it.
        await store.flush();
        const idle = pool.idleCount;
        expect(idle).toBeGreaterThan(0);
        const gone = new Promise<void>((resolve) => {
          let seen = 0;
          pool.on('error', () => {
            if (++seen >= idle) resolve();
          });
        });
        expect(await terminate(admin, app)).toBeGreaterThan(0);
        // The pool has dropped every terminated client before the call goes on.
        await gone;
      };
      const runtime = createRuntime({ model: effectModel(lostIdle), store, tools: [chargeTool((amount) => charged.push(amount))] });
      const outcome = await runtime.prompt('Charge the card 5.');
      expect(outcome, JSON.stringify(outcome)).toMatchObject({ text: 'The charge said: charged' });
      expect(charged).toEqual([5]);
      expect(store.failure).toBeUndefined();
      runtime.stop();
      await store.close();
      // What was journaled resumes without running the call again.
      const reopened = await openPostgresStore({ connectionString: PG_URL, schema, sessionId: 'restart' });
      const resumed = resumeRuntime({ model: effectModel(), store: reopened, tools: [chargeTool((amount) => charged.push(amount))] });
      await resumed.whenQuiet();
      expect(charged).toEqual([5]);
      resumed.stop();
      await reopened.close();
    } finally {
      await admin.end();
      await pool.end().catch(() => {});
    }
  });

  it('the connection terminated under a waiting write: store_failed, the unstored call never ran, and a resume runs it once', async () => {
    const schema = uniqueSchema();
    schemas.push(schema);
    const app = appName();
    const pool = poolFor(app);
    const admin = new pg.Client({ connectionString: PG_URL });
    const locker = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    await locker.connect();
    try {
      const store = await createPostgresStore({ pool, schema, sessionId: 'cut', leaseMs: 60_000 });
      const charged: number[] = [];
      // The model's reply arrives while another session holds the lease table: the store's
      // write (which share-locks the lease row) waits, and its backend is terminated there.
      const holdWrites = async (): Promise<void> => {
        // The prompt is stored first; only the reply holding the call waits on the lock.
        await store.flush();
        await locker.query('BEGIN');
        await locker.query(`LOCK TABLE ${schema}.sessions IN ACCESS EXCLUSIVE MODE`);
        void (async () => {
          while ((await terminate(admin, app, true)) === 0) await new Promise<void>((resolve) => setImmediate(resolve));
        })();
      };
      const runtime = createRuntime({ model: effectModel(holdWrites), store, tools: [chargeTool((amount) => charged.push(amount))] });
      const halted = new Promise<StoreError>((resolve) => runtime.on('halted', (e) => resolve(e.error)));
      const outcome = runtime.prompt('Charge the card 5.');
      const error = await halted;
      expect(error.code).toBe('store_failed');
      await expect(outcome).rejects.toBe(error);
      expect(charged).toEqual([]);
      await locker.query('ROLLBACK');
      await store.close().catch(() => {});
      const reopened = await openPostgresStore({ connectionString: PG_URL, schema, sessionId: 'cut', wait: true, pollMs: 20 });
      const resumed = resumeRuntime({ model: effectModel(), store: reopened, tools: [chargeTool((amount) => charged.push(amount))] });
      await resumed.whenQuiet();
      expect(charged).toEqual([5]);
      expect(resumed.stateOf('/root')).toBe('running.idle');
      resumed.stop();
      await reopened.close();
    } finally {
      await locker.end().catch(() => {});
      await admin.end();
      await pool.end().catch(() => {});
    }
  });
});
