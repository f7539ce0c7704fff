/**
 * Sessions many nodes share: the journal in Postgres (the `pg` client), one lease per session.
 *
 * A node writes a session only while it holds the session's lease. Taking a lease bumps its
 * fencing token; every append is one statement that inserts only while the row still carries
 * this node's token and an unexpired lease (the row is share-locked for that statement, so a
 * takeover waits for it). A node that lost its lease therefore cannot append: its next write
 * fails with `lease_lost` and the store stops. The holder renews the lease every third of
 * `leaseMs`, from a thread of its own (src/store/lease-renewer.ts), so a main thread held
 * longer than `leaseMs` keeps its lease; when the node dies, the lease expires and another node's {@link openPostgresStore}
 * (with `wait`) takes the session over and resumes it from the journal.
 *
 * Tables (in `schema`, created when missing): `sessions` (one row per session: its lease) and
 * `journal` (one row per record, keyed by session and sequence number).
 */
import { hostname } from 'node:os';
import pg from 'pg';
import { nanoid } from 'nanoid';
import { FailureState } from './failure.js';
import { byteLimit, DEFAULT_MAX_LINE_BYTES, encodeRecord, JOURNAL_FORMAT, sessionHeader } from './format.js';
import { JournalReader } from './reader.js';
import { renewOffThread, type RenewedLease } from './lease-renewer.js';
import { StoreError, type JournalRecord, type SessionStore } from './types.js';

/** Options of {@link createPostgresStore} and {@link openPostgresStore}. */
export interface PostgresStoreOptions {
  /** A `postgres://` URL (ignored when `pool` is given). Default: the `PG*` environment. */
  readonly connectionString?: string;
  /** A pool to use instead of one of the store's own (the store then does not end it). */
  readonly pool?: pg.Pool;
  /** Schema of the store's tables (letters, digits, `_`). Default `subagent_actors`. */
  readonly schema?: string;
  /** The session; generated for a new one. */
  readonly sessionId?: string;
  /** This node's name in the lease (default `host:pid`). */
  readonly node?: string;
  /** How long a lease lasts without renewal (default 10 000 ms): the failover time. */
  readonly leaseMs?: number;
  /** Opening a leased session: wait for the lease (polling every `pollMs`, default 200) instead of failing `locked`. */
  readonly wait?: boolean;
  readonly pollMs?: number;
  /** Stops a waiting open. */
  readonly signal?: AbortSignal;
  /** Time source for the session header. Default `Date.now`. */
  readonly now?: () => number;
  /**
   * The longest record, in UTF-8 bytes (default about 512 MiB, the longest string V8 holds: a
   * longer row could not be read back). A longer record fails the store with `journal_too_large`.
   */
  readonly maxLineBytes?: number;
}

const IDENT = /^[a-z_][a-z0-9_]{0,62}$/;

interface Setup {
  readonly pool: pg.Pool;
  readonly ownsPool: boolean;
  readonly schema: string;
  readonly node: string;
  readonly leaseMs: number;
  readonly maxLineBytes: number;
}

async function connect(options: PostgresStoreOptions): Promise<Setup> {
  const maxLineBytes = byteLimit(options.maxLineBytes, DEFAULT_MAX_LINE_BYTES, 'maxLineBytes');
  const schema = options.schema ?? 'subagent_actors';
  if (!IDENT.test(schema)) throw new TypeError(`schema must be lowercase letters, digits and "_" (got ${JSON.stringify(schema)})`);
  const ownsPool = options.pool === undefined;
  const pool = options.pool ?? new pg.Pool({ ...(options.connectionString ? { connectionString: options.connectionString } : {}), connectionTimeoutMillis: 5000, max: 4 });
  // An idle client's lost connection is reported here; without a listener it would crash the process.
  const onIdleError = (): void => {};
  pool.on('error', onIdleError);
  try {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      // Two nodes creating the tables at once would collide in the catalog: serialize them.
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`subagent_actors:${schema}`]);
      await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
      await client.query(
        `CREATE TABLE IF NOT EXISTS ${schema}.sessions (session_id text PRIMARY KEY, format integer NOT NULL, lease_owner text, lease_token bigint NOT NULL, lease_expires timestamptz NOT NULL, created_at timestamptz NOT NULL DEFAULT now())`,
      );
      await client.query(
        `CREATE TABLE IF NOT EXISTS ${schema}.journal (session_id text NOT NULL REFERENCES ${schema}.sessions, seq bigint NOT NULL, record text NOT NULL, PRIMARY KEY (session_id, seq))`,
      );
      await client.query('COMMIT');
    } finally {
      client.release();
    }
  } catch (error) {
    if (ownsPool) await pool.end().catch(() => {});
    throw unreachable(pool, error);
  }
  return { pool, ownsPool, schema, node: options.node ?? `${hostname()}:${process.pid}`, leaseMs: options.leaseMs ?? 10_000, maxLineBytes };
}

/** The settings the renewer thread connects with: the pool's own, those a client takes. */
function connectionOf(pool: pg.Pool): Record<string, unknown> {
  const options = pool.options as unknown as Record<string, unknown>;
  const picked: Record<string, unknown> = {};
  for (const key of ['connectionString', 'host', 'port', 'user', 'password', 'database', 'ssl', 'application_name', 'connectionTimeoutMillis', 'keepAlive'] as const) {
    if (options[key] !== undefined) picked[key] = options[key];
  }
  return picked;
}

function unreachable(pool: pg.Pool, error: unknown): StoreError {
  const { connectionString, host, port } = pool.options;
  const url = connectionString ? new URL(connectionString) : undefined;
  const where = `${url?.hostname || host || process.env['PGHOST'] || 'localhost'}:${url?.port || port || process.env['PGPORT'] || 5432}`;
  return new StoreError('unreachable', `cannot reach Postgres at ${where}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
}

/**
 * Creates a new session in Postgres and takes its lease.
 *
 * @example
 * ```ts
 * const store = await createPostgresStore({ connectionString: 'postgres://127.0.0.1/app' });
 * const runtime = createRuntime({ model, store });
 * ```
 */
export async function createPostgresStore(options: PostgresStoreOptions): Promise<PostgresSessionStore> {
  const setup = await connect(options);
  const sessionId = options.sessionId ?? `session_${nanoid(12)}`;
  try {
    const created = await setup.pool.query<{ lease_token: string }>(
      `INSERT INTO ${setup.schema}.sessions (session_id, format, lease_owner, lease_token, lease_expires) VALUES ($1, $4, $2, 1, now() + $3 * interval '1 millisecond') ON CONFLICT (session_id) DO NOTHING RETURNING lease_token`,
      [sessionId, setup.node, setup.leaseMs, JOURNAL_FORMAT],
    );
    if (created.rowCount !== 1) throw new StoreError('session_exists', `session ${sessionId} already exists in ${setup.schema}; resume it with openPostgresStore`);
    const store = new PostgresSessionStore(setup, sessionId, created.rows[0]!.lease_token, [], 0);
    store.append(sessionHeader(sessionId, (options.now ?? Date.now)()));
    await store.flush();
    return store;
  } catch (error) {
    if (setup.ownsPool) await setup.pool.end().catch(() => {});
    throw error instanceof StoreError ? error : unreachable(setup.pool, error);
  }
}

/**
 * Opens an existing session: takes its lease (waiting for an expired one with `wait`), reads
 * its journal and appends after it.
 *
 * @example
 * ```ts
 * const store = await openPostgresStore({ sessionId, wait: true });
 * const runtime = await resumeRuntime({ model, store });
 * ```
 */
export async function openPostgresStore(options: PostgresStoreOptions & { readonly sessionId: string }): Promise<PostgresSessionStore> {
  const setup = await connect(options);
  const { schema, pool } = setup;
  try {
    let token: string | undefined;
    for (;;) {
      const taken = await pool.query<{ lease_token: string }>(
        `UPDATE ${schema}.sessions SET lease_owner = $2, lease_token = lease_token + 1, lease_expires = now() + $3 * interval '1 millisecond' WHERE session_id = $1 AND (lease_owner IS NULL OR lease_expires <= now()) RETURNING lease_token`,
        [options.sessionId, setup.node, setup.leaseMs],
      );
      token = taken.rows[0]?.lease_token;
      if (token !== undefined) break;
      const row = await pool.query<{ lease_owner: string | null }>(`SELECT lease_owner FROM ${schema}.sessions WHERE session_id = $1`, [options.sessionId]);
      if (row.rowCount === 0) throw new StoreError('unknown_session', `no session ${options.sessionId} in ${schema}`);
      if (!options.wait) throw new StoreError('locked', `session ${options.sessionId} is leased by ${row.rows[0]!.lease_owner ?? 'another node'}; open it with wait to take it over when the lease expires`);
      await pause(options.pollMs ?? 200, options.signal);
    }
    const rows = await pool.query<{ seq: string; record: string }>(`SELECT seq, record FROM ${schema}.journal WHERE session_id = $1 ORDER BY seq`, [options.sessionId]);
    const reader = new JournalReader();
    for (const row of rows.rows) reader.add(row.record, `postgres ${schema}.journal session ${options.sessionId} seq ${row.seq}`);
    const records = reader.records;
    if (records.length === 0) throw new StoreError('corrupt_journal', `postgres ${schema}.journal session ${options.sessionId}: no session header`);
    return new PostgresSessionStore(setup, options.sessionId, token, records, Number(rows.rows.at(-1)!.seq) + 1);
  } catch (error) {
    if (setup.ownsPool) await pool.end().catch(() => {});
    throw error instanceof StoreError ? error : unreachable(pool, error);
  }
}

function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new StoreError('closed', 'waiting for the lease was aborted'));
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new StoreError('closed', 'waiting for the lease was aborted'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** A session journal in Postgres, written under a lease with a fencing token. */
export class PostgresSessionStore implements SessionStore {
  readonly location: string;
  private pending: string[] = [];
  /** A record too large to store: the store fails once what came before is written. */
  private refused: StoreError | undefined;
  private writing: Promise<void> | undefined;
  /** The sequence number of the next record appended (those queued are counted). */
  private queuedSeq: number;
  private readonly state: FailureState;
  /** The main-thread renewal timer, when the lease cannot be renewed off the main thread. */
  private readonly renewTimer: NodeJS.Timeout | undefined;
  /** The lease as the renewer thread renews it. */
  private readonly renewed: RenewedLease | undefined;

  /** @internal Use {@link createPostgresStore} or {@link openPostgresStore}. */
  constructor(
    private readonly setup: Setup,
    readonly sessionId: string,
    /** This node's fencing token for the session. */
    readonly fencingToken: string,
    readonly loaded: readonly JournalRecord[],
    private nextSeq: number,
  ) {
    this.location = `postgres:${setup.schema}/${sessionId}`;
    this.queuedSeq = nextSeq;
    this.state = new FailureState(this.location);
    const intervalMs = Math.max(10, Math.floor(setup.leaseMs / 3));
    // Off the main thread, so whatever holds it (a long task, a large fan-out) cannot let the lease lapse.
    this.renewed = renewOffThread(
      { connection: connectionOf(setup.pool), schema: setup.schema, sessionId, token: fencingToken, leaseMs: setup.leaseMs, intervalMs },
      (failure) => {
        if (!this.state.error && !this.state.closed) this.fail(failure.code, `${this.location}: ${failure.message}`);
      },
    );
    if (!this.renewed) {
      this.renewTimer = setInterval(() => void this.renew(), intervalMs);
      this.renewTimer.unref();
    }
  }

  /**
   * How many times the renewer thread has renewed the lease (shared memory: it counts on while
   * the main thread is held), or undefined when the lease is renewed on the main thread.
   * @internal For tests.
   */
  get leaseRenewals(): Int32Array | undefined {
    return this.renewed?.renewals;
  }

  private stopRenewing(): void {
    clearInterval(this.renewTimer);
    this.renewed?.stop();
  }

  get failure(): StoreError | undefined {
    return this.state.error;
  }

  append(record: JournalRecord): void {
    this.state.check();
    // After a refused record nothing is queued: the journal must stay a prefix of what happened.
    if (this.refused) return;
    try {
      this.pending.push(encodeRecord(record, this.queuedSeq, this.setup.maxLineBytes, this.location).line);
      this.queuedSeq++;
    } catch (error) {
      if (!(error instanceof StoreError)) throw error;
      this.refused = error;
    }
    this.writing ??= this.drain();
  }

  private async drain(): Promise<void> {
    try {
      await this.writeBatches();
      if (this.refused && !this.state.error) {
        this.stopRenewing();
        this.state.fail(this.refused);
      }
    } finally {
      this.writing = undefined;
    }
  }

  private async writeBatches(): Promise<void> {
    // Let the current event-loop turn's records join one statement.
    await new Promise<void>((resolve) => setImmediate(resolve));
    while (this.pending.length > 0 && !this.state.error) {
      const batch = this.pending;
      this.pending = [];
      const seqs = batch.map((_, i) => this.nextSeq + i);
      try {
        const { schema } = this.setup;
        const inserted = await this.setup.pool.query(
          `WITH lease AS (SELECT 1 FROM ${schema}.sessions WHERE session_id = $1 AND lease_token = $2 AND lease_expires > now() FOR SHARE) ` +
            `INSERT INTO ${schema}.journal (session_id, seq, record) SELECT $1, s.seq, s.rec FROM unnest($3::bigint[], $4::text[]) AS s(seq, rec), lease`,
          [this.sessionId, this.fencingToken, seqs, batch],
        );
        if (inserted.rowCount !== batch.length) {
          this.fail('lease_lost', `${this.location}: this node no longer holds the session's lease (fencing token ${this.fencingToken}); ${batch.length} record(s) were refused`);
          return;
        }
        this.nextSeq += batch.length;
      } catch (error) {
        this.fail('store_failed', `${this.location}: a write failed (${error instanceof Error ? error.message : String(error)}); records written before it are kept`, error);
        return;
      }
    }
  }

  private async renew(): Promise<void> {
    if (this.state.error || this.state.closed) return;
    await this.renewNow();
  }

  /** Extends the lease now; fails the store when it was lost or the server cannot be reached. */
  private async renewNow(): Promise<void> {
    try {
      const renewed = await this.setup.pool.query(
        `UPDATE ${this.setup.schema}.sessions SET lease_expires = now() + $3 * interval '1 millisecond' WHERE session_id = $1 AND lease_token = $2 AND lease_expires > now()`,
        [this.sessionId, this.fencingToken, this.setup.leaseMs],
      );
      if (renewed.rowCount !== 1) this.fail('lease_lost', `${this.location}: the lease (fencing token ${this.fencingToken}) expired or was taken over by another node`);
    } catch (error) {
      this.fail('store_failed', `${this.location}: lost the connection to Postgres while renewing the lease (${error instanceof Error ? error.message : String(error)})`, error);
    }
  }

  private fail(code: 'lease_lost' | 'store_failed', message: string, cause?: unknown): void {
    this.stopRenewing();
    this.pending = [];
    this.state.fail(new StoreError(code, message, cause === undefined ? undefined : { cause }));
  }

  async flush(): Promise<void> {
    while (this.writing) await this.writing;
    if (this.state.error) throw this.state.error;
  }

  async fence(): Promise<void> {
    await this.flush();
    this.state.check();
    // Renewing is the check: it succeeds only while the row still carries this node's token and
    // an unexpired lease, and then no other node can take the session for another leaseMs.
    await this.renewNow();
    this.state.check();
  }

  async close(): Promise<void> {
    if (this.state.closed) return;
    let failure: unknown;
    try {
      await this.flush();
    } catch (error) {
      failure = error;
    }
    this.state.closed = true;
    this.stopRenewing();
    // A store that lost its lease must not touch the session row; one that failed otherwise
    // still holds it (the update is fenced by its token) and frees it for the next open.
    if (this.state.error?.code !== 'lease_lost') {
      await this.setup.pool
        .query(`UPDATE ${this.setup.schema}.sessions SET lease_owner = NULL, lease_expires = now() WHERE session_id = $1 AND lease_token = $2`, [this.sessionId, this.fencingToken])
        .catch(() => {});
    }
    if (this.setup.ownsPool) await this.setup.pool.end().catch(() => {});
    if (failure) throw failure;
  }

  onFailure(listener: (error: StoreError) => void): () => void {
    return this.state.on(listener);
  }
}
