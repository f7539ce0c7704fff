/**
 * Postgres leases renewed off the main thread: one worker thread per process, one connection
 * per connection setting, one timer per lease. A store's lease must outlive whatever holds the
 * main thread (a long synchronous task, a large fan-out, a collector pause): a renewal timer on
 * the main thread waits for it, and a wait longer than `leaseMs` made the store fail with
 * `lease_lost` though no other node had taken the session.
 *
 * The worker reports a lost lease or a failed renewal; the store then fails as before. When
 * the worker cannot be used (a pool whose settings cannot cross threads, such as a password
 * function), the store renews on a main-thread timer instead.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** What the worker needs to renew one lease. */
export interface LeaseSpec {
  /** Connection settings (structured-cloneable). */
  readonly connection: Readonly<Record<string, unknown>>;
  readonly schema: string;
  readonly sessionId: string;
  readonly token: string;
  readonly leaseMs: number;
  readonly intervalMs: number;
}

/** How a renewal ended the lease: lost to another node (or expired), or the server failed. */
export interface LeaseFailure {
  readonly code: 'lease_lost' | 'store_failed';
  readonly message: string;
}

/** A lease the worker renews: `renewals` counts its renewals (shared memory, readable while the main thread waits). */
export interface RenewedLease {
  readonly renewals: Int32Array;
  stop(): void;
}

/** The worker's code (CommonJS, self-contained: it loads only `pg`, by the path it is given). */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const pg = require(workerData.pgPath);
const clients = new Map();
const leases = new Map();
function clientFor(connection) {
  const key = JSON.stringify(connection);
  let entry = clients.get(key);
  if (!entry) {
    const client = new pg.Client(connection);
    entry = { key, ready: client.connect().then(() => client), users: 0, dead: false };
    const dead = entry;
    // An idle connection the server closed is replaced at the next renewal, as a pool would.
    client.on('error', () => { dead.dead = true; if (clients.get(key) === dead) clients.delete(key); });
    entry.ready.catch(() => { entry.dead = true; if (clients.get(key) === entry) clients.delete(key); });
    clients.set(key, entry);
  }
  entry.users++;
  return entry;
}
function release(entry) {
  if (--entry.users > 0) return;
  if (clients.get(entry.key) === entry) clients.delete(entry.key);
  entry.ready.then((c) => c.end()).catch(() => {});
}
function fail(id, code, message) {
  const lease = leases.get(id);
  if (!lease) return;
  stop(id);
  parentPort.postMessage({ id, code, message });
}
function stop(id) {
  const lease = leases.get(id);
  if (!lease) return;
  leases.delete(id);
  clearInterval(lease.timer);
  release(lease.entry);
}
async function renew(id) {
  const lease = leases.get(id);
  if (!lease || lease.busy) return;
  lease.busy = true;
  const s = lease.spec;
  if (lease.entry.dead) {
    release(lease.entry);
    lease.entry = clientFor(s.connection);
  }
  try {
    const client = await lease.entry.ready;
    const r = await client.query('UPDATE ' + s.schema + ".sessions SET lease_expires = now() + $3 * interval '1 millisecond' WHERE session_id = $1 AND lease_token = $2 AND lease_expires > now()", [s.sessionId, s.token, s.leaseMs]);
    if (r.rowCount !== 1) return fail(id, 'lease_lost', 'the lease (fencing token ' + s.token + ') expired or was taken over by another node');
    Atomics.add(lease.renewals, 0, 1);
    Atomics.notify(lease.renewals, 0);
  } catch (error) {
    fail(id, 'store_failed', 'lost the connection to Postgres while renewing the lease (' + (error && error.message ? error.message : String(error)) + ')');
  } finally {
    lease.busy = false;
  }
}
parentPort.on('message', (m) => {
  if (m.type === 'stop') return stop(m.id);
  const lease = { spec: m.spec, renewals: m.renewals, entry: clientFor(m.spec.connection), busy: false, timer: undefined };
  lease.timer = setInterval(() => void renew(m.id), m.spec.intervalMs);
  leases.set(m.id, lease);
});
`;

let worker: Worker | undefined;
let nextId = 0;
const failures = new Map<number, (failure: LeaseFailure) => void>();

function theWorker(): Worker {
  if (worker) return worker;
  const pgPath = createRequire(import.meta.url).resolve('pg');
  const started = new Worker(WORKER_SOURCE, { eval: true, workerData: { pgPath } });
  started.on('message', (m: { id: number } & LeaseFailure) => {
    const onFailure = failures.get(m.id);
    failures.delete(m.id);
    onFailure?.({ code: m.code, message: m.message });
    if (failures.size === 0 && worker === started) {
      worker = undefined;
      void started.terminate();
    }
  });
  started.on('error', (error) => {
    // A crashed worker renews nothing more: every lease it held fails now, not at expiry.
    if (worker === started) worker = undefined;
    for (const [id, onFailure] of failures) {
      failures.delete(id);
      onFailure({ code: 'store_failed', message: `the lease renewer stopped (${error.message})` });
    }
  });
  started.on('exit', () => {
    if (worker === started) worker = undefined;
  });
  // The worker never keeps the process alive (a store still open at exit is no reason to
  // stay); unref'd after the listeners, which would otherwise ref it again.
  started.unref();
  worker = started;
  return started;
}

/**
 * Renews a lease every `spec.intervalMs` from the renewer thread; `onFailure` is called once
 * if a renewal finds the lease lost or cannot reach the server. Undefined when the lease
 * cannot be renewed there (its connection settings cannot cross threads): the caller renews it
 * itself.
 */
export function renewOffThread(spec: LeaseSpec, onFailure: (failure: LeaseFailure) => void): RenewedLease | undefined {
  let message: unknown;
  const renewals = new Int32Array(new SharedArrayBuffer(4));
  try {
    message = structuredClone({ type: 'start', spec, renewals });
  } catch {
    return undefined;
  }
  const id = nextId++;
  failures.set(id, onFailure);
  const thread = theWorker();
  thread.postMessage({ ...(message as object), id, renewals });
  return {
    renewals,
    stop() {
      if (!failures.delete(id)) return;
      if (worker !== thread) return;
      thread.postMessage({ type: 'stop', id });
      // No lease left: the thread and its connections go.
      if (failures.size === 0) {
        worker = undefined;
        void thread.terminate();
      }
    },
  };
}
