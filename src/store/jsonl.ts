/**
 * The embedded journal: one JSON Lines file per session (`<dir>/<sessionId>.jsonl`), no server.
 *
 * Durability policy. Appended records are written to the file (one `write`) at the end of the
 * current event-loop turn, so a process crash (even SIGKILL) loses at most the records of that
 * turn, and whatever is lost is a suffix: the journal is always a prefix of what happened.
 * `fsync` decides when the operating system is made to put them on disk as well:
 * - `'interval'` (default): at most `fsyncIntervalMs` (default 1000 ms) after a write, and on
 *   `flush()` and `close()`: a power loss loses at most that window;
 * - `'always'`: after every write (slow; the journal is then as durable as the disk);
 * - `'never'`: only on `close()` (tests, scratch sessions).
 *
 * Opening reads the file: a torn last line (a write cut short by a crash) is dropped and the
 * file is truncated to the last whole line; any other line that is not a journal record is an
 * error naming the file and the line, and nothing is appended until the host repairs it (or
 * opens with `repair: true`, which drops that line and everything after it).
 *
 * One runtime writes a journal at a time: its lock is a lease the store renews (see
 * `jsonl-lock.ts`); a store whose lock was taken over fails with `lease_lost` before writing.
 * The lock sits beside the journal's real path, so a journal reached through a symbolic link
 * still has one writer. A session id is a file name in `dir`, never a path.
 *
 * Size limits keep every journal readable: a file is read whole (at most `maxJournalBytes`,
 * Node's largest single read) and a line is decoded into one string (at most `maxLineBytes`).
 * A record that would pass either fails the store with `journal_too_large` before it is written,
 * so the journal stays resumable up to the record before it.
 */
import { closeSync, existsSync, fdatasyncSync, ftruncateSync, mkdirSync, openSync, readdirSync, readFileSync, realpathSync, statSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { nanoid } from 'nanoid';
import { FailureState } from './failure.js';
import { byteLimit, DEFAULT_MAX_LINE_BYTES, encodeRecord, sessionHeader } from './format.js';
import { JournalReader } from './reader.js';
import { acquireLock, DEFAULT_LOCK_LEASE_MS, type JournalLock } from './jsonl-lock.js';
import { StoreError, type JournalRecord, type SessionStore } from './types.js';

/** When the JSON Lines store forces its writes to disk. */
export type FsyncPolicy = 'always' | 'interval' | 'never';

/** Options of {@link createJsonlStore} and {@link openJsonlStore}. */
export interface JsonlStoreOptions {
  /** The directory holding the session files (created if missing). */
  readonly dir: string;
  /** The session id; for {@link openJsonlStore} optional when `dir` holds exactly one journal. */
  readonly sessionId?: string;
  /** When writes are forced to disk (default `'interval'`). */
  readonly fsync?: FsyncPolicy;
  /** The longest a written record waits for its fsync under `'interval'` (default 1000 ms). */
  readonly fsyncIntervalMs?: number;
  /** The host's decision on a corrupt journal: drop the bad line and everything after it. */
  readonly repair?: boolean;
  /** Time source for the session header. Default `Date.now`. */
  readonly now?: () => number;
  /**
   * How long the journal's lock lasts without renewal (default 10 000 ms). The store renews it
   * every third of that; a holder that stopped renewing (dead, on another host, in a restarted
   * container) loses it when it expires.
   */
  readonly leaseMs?: number;
  /**
   * Take the journal's lock even if another runtime holds it: the host knows that runtime is
   * gone. A holder that is still alive after all fails with `lease_lost` at its next write.
   */
  readonly takeover?: boolean;
  /**
   * The largest journal file (default {@link DEFAULT_MAX_JOURNAL_BYTES}, 2 GiB less a byte: the
   * largest file Node reads in one call). A record that would take the file past it fails the
   * store with `journal_too_large` instead of being written, so the journal can still be
   * opened; a larger file is refused on open with the same code.
   */
  readonly maxJournalBytes?: number;
  /**
   * The longest line, in UTF-8 bytes (default {@link DEFAULT_MAX_LINE_BYTES}, about 512 MiB:
   * the longest string V8 holds). A longer record fails the store with `journal_too_large`; a
   * longer line on open is an error naming its line (dropped, with what follows, by `repair`).
   */
  readonly maxLineBytes?: number;
}

/** The largest journal file by default: Node reads at most 2 GiB less a byte in one call. */
export const DEFAULT_MAX_JOURNAL_BYTES = 2 ** 31 - 1;

/** The size limits a JSON Lines journal is held to. */
export interface JournalLimits {
  readonly maxJournalBytes: number;
  readonly maxLineBytes: number;
}

function limitsOf(options: Pick<JsonlStoreOptions, 'maxJournalBytes' | 'maxLineBytes'>): JournalLimits {
  return {
    maxJournalBytes: byteLimit(options.maxJournalBytes, DEFAULT_MAX_JOURNAL_BYTES, 'maxJournalBytes'),
    maxLineBytes: byteLimit(options.maxLineBytes, DEFAULT_MAX_LINE_BYTES, 'maxLineBytes'),
  };
}

const SUFFIX = '.jsonl';
/** At most this many UTF-16 units go into one write (well below V8's longest string). */
const WRITE_GROUP_UNITS = 64 * 1024 * 1024;

/**
 * Checks a session id: it names a file in `dir`, so it must not be empty, `.` or `..`, nor hold
 * a path separator (`/`, `\`) or a control character (NUL, newlines). Throws `invalid_session_id`.
 */
function checkSessionId(sessionId: unknown): string {
  // eslint-disable-next-line no-control-regex
  const bad = typeof sessionId !== 'string' || sessionId === '' || sessionId === '.' || sessionId === '..' || /[/\\\u0000-\u001f\u007f]/.test(sessionId);
  if (bad) {
    throw new StoreError(
      'invalid_session_id',
      `sessionId ${JSON.stringify(sessionId)} cannot name a journal file: it must be a non-empty file name (not "." or ".."), without "/", "\\" or control characters`,
    );
  }
  return sessionId;
}

/**
 * Where the journal's lock goes: beside its real path (links resolved), so every way of reaching
 * one journal file takes the same lock.
 */
function lockTarget(file: string): string {
  try {
    return realpathSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    return join(realpathSync(dirname(file)), basename(file));
  }
}

/** Creates `dir` if missing; refuses a path that is not a directory with `not_a_journal`. */
function ensureDir(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true });
  } catch (error) {
    throw new StoreError('not_a_journal', `cannot use ${dir} as the journal directory: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  if (!statSync(dir).isDirectory()) throw new StoreError('not_a_journal', `${dir} is not a directory; the journal directory must be one`);
}

/** Refuses a journal path that holds something other than a file (a directory, a device). */
function checkJournalPath(file: string): void {
  let stat;
  try {
    stat = statSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw new StoreError('not_a_journal', `cannot use ${file} as a journal: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  if (!stat.isFile()) throw new StoreError('not_a_journal', `${file} is ${stat.isDirectory() ? 'a directory' : 'not a regular file'}, not a journal; move it away or choose another session id`);
}

/**
 * Starts the journal of a new session. Refuses a session whose file exists.
 *
 * @example
 * ```ts
 * const store = createJsonlStore({ dir: './sessions' });
 * const runtime = createRuntime({ model, store });
 * ```
 */
export function createJsonlStore(options: JsonlStoreOptions): JsonlSessionStore {
  const sessionId = checkSessionId(options.sessionId ?? `session_${nanoid(12)}`);
  const limits = limitsOf(options);
  ensureDir(options.dir);
  const file = join(options.dir, `${sessionId}${SUFFIX}`);
  checkJournalPath(file);
  const lock = acquireLock(lockTarget(file), lockOptions(options));
  try {
    if (existsSync(file)) throw new StoreError('session_exists', `${file} already exists; resume it with openJsonlStore instead`);
    const fd = openSync(file, 'wx');
    const store = new JsonlSessionStore(file, fd, sessionId, [], lock, options, limits);
    store.append(sessionHeader(sessionId, (options.now ?? Date.now)()));
    store.writePending();
    return store;
  } catch (error) {
    lock.release();
    throw error;
  }
}

function lockOptions(options: JsonlStoreOptions): { leaseMs: number; takeover: boolean } {
  const leaseMs = options.leaseMs ?? DEFAULT_LOCK_LEASE_MS;
  if (!Number.isFinite(leaseMs) || leaseMs <= 0) throw new TypeError(`leaseMs must be a positive number of milliseconds (got ${String(leaseMs)})`);
  return { leaseMs, takeover: options.takeover === true };
}

/**
 * Opens an existing session's journal for resuming: takes the lock, reads every record
 * (dropping a torn last line) and appends after them.
 *
 * @example
 * ```ts
 * const store = openJsonlStore({ dir: './sessions' });
 * const runtime = await resumeRuntime({ model, store });
 * ```
 */
export function openJsonlStore(options: JsonlStoreOptions): JsonlSessionStore {
  const limits = limitsOf(options);
  if (existsSync(options.dir) && !statSync(options.dir).isDirectory()) throw new StoreError('not_a_journal', `${options.dir} is not a directory; the journal directory must be one`);
  const sessionId = options.sessionId === undefined ? onlySession(options.dir) : checkSessionId(options.sessionId);
  const file = join(options.dir, `${sessionId}${SUFFIX}`);
  if (!existsSync(file)) throw new StoreError('unknown_session', `no journal ${file}`);
  checkJournalPath(file);
  const lock = acquireLock(lockTarget(file), lockOptions(options));
  try {
    const { records, validBytes } = readJournal(file, options.repair === true, limits);
    const fd = openSync(file, 'r+');
    ftruncateSync(fd, validBytes);
    const header = records[0];
    if (header?.['sessionId'] !== sessionId) {
      closeSync(fd);
      throw new StoreError('corrupt_journal', `${file}:1: the header names session ${JSON.stringify(header?.['sessionId'])}, not ${sessionId}`);
    }
    return new JsonlSessionStore(file, fd, sessionId, records, lock, options, limits, validBytes);
  } catch (error) {
    lock.release();
    throw error;
  }
}

function onlySession(dir: string): string {
  const names = existsSync(dir) ? readdirSync(dir).filter((n) => n.endsWith(SUFFIX)) : [];
  if (names.length !== 1) {
    throw new StoreError('unknown_session', `${dir} holds ${names.length} journals (${names.join(', ') || 'none'}); name the session to open`);
  }
  return names[0]!.slice(0, -SUFFIX.length);
}

/**
 * Reads the records of a journal file; `validBytes` is where whole, valid lines end. A file
 * past `maxJournalBytes` is refused whole, a line past `maxLineBytes` like any corrupt line.
 */
export function readJournal(file: string, repair: boolean, limits: Partial<JournalLimits> = {}): { records: JournalRecord[]; validBytes: number } {
  const { maxJournalBytes, maxLineBytes } = limitsOf(limits);
  const size = statSync(file).size;
  if (size > maxJournalBytes) {
    throw new StoreError('journal_too_large', `${file}: the journal holds ${size} bytes, past the limit of ${maxJournalBytes} (maxJournalBytes); it cannot be read in one piece. Nothing is appended to it`);
  }
  const bytes = readFileSync(file);
  const reader = new JournalReader();
  const records = reader.records;
  let start = 0;
  let line = 0;
  while (start < bytes.length) {
    const end = bytes.indexOf(0x0a, start);
    // No newline: the last write was cut short by a crash. Drop it, never fatal.
    if (end < 0) break;
    line++;
    try {
      if (end - start > maxLineBytes) {
        throw new StoreError('journal_too_large', `${file}:${line}: a line of ${end - start} bytes, past the limit of ${maxLineBytes} (maxLineBytes); nothing is appended to this journal until it is repaired`);
      }
      reader.add(bytes.toString('utf8', start, end), `${file}:${line}`, bytes.subarray(start, end));
    } catch (error) {
      if (!repair || (error as StoreError).code === 'newer_format') throw error;
      break;
    }
    start = end + 1;
  }
  if (records.length === 0) throw new StoreError('corrupt_journal', `${file}:1: the journal has no session header`);
  return { records, validBytes: start };
}

/** A session journal in one JSON Lines file. */
export class JsonlSessionStore implements SessionStore {
  readonly location: string;
  private pending: string[] = [];
  /** Bytes written plus bytes queued: what the file will hold once `pending` is written. */
  private queuedEnd: number;
  /** A record that could not be queued (too large): the store fails once what came before is written. */
  private refused: StoreError | undefined;
  private scheduled = false;
  /** The sequence number of the next record (the header's is 0). */
  private seq: number;
  private unsynced = false;
  private syncTimer: NodeJS.Timeout | undefined;
  private readonly renewTimer: NodeJS.Timeout;
  private readonly state: FailureState;
  private readonly fsync: FsyncPolicy;
  private readonly fsyncIntervalMs: number;

  /** @internal Use {@link createJsonlStore} or {@link openJsonlStore}. */
  constructor(
    readonly file: string,
    private fd: number,
    readonly sessionId: string,
    readonly loaded: readonly JournalRecord[],
    private readonly lock: JournalLock,
    options: JsonlStoreOptions,
    private readonly limits: JournalLimits,
    private position = 0,
  ) {
    this.location = file;
    this.queuedEnd = position;
    this.seq = loaded.length;
    this.state = new FailureState(file);
    this.fsync = options.fsync ?? 'interval';
    this.fsyncIntervalMs = options.fsyncIntervalMs ?? 1000;
    // The lease renews on its own timer, whatever the journal writes.
    this.renewTimer = setInterval(() => this.renewLease(), Math.max(10, Math.floor((options.leaseMs ?? DEFAULT_LOCK_LEASE_MS) / 3)));
    this.renewTimer.unref();
  }

  private renewLease(): void {
    if (this.state.error || this.state.closed) return;
    if (!this.lock.renew()) this.leaseLost();
  }

  private leaseLost(): void {
    clearInterval(this.renewTimer);
    this.pending = [];
    this.state.fail(new StoreError('lease_lost', `${this.file}: another runtime took over this journal's lock (${this.file}.lock); this runtime writes nothing more to it`));
  }

  get failure(): StoreError | undefined {
    return this.state.error;
  }

  append(record: JournalRecord): void {
    this.state.check();
    // After a refused record nothing is queued: the journal must stay a prefix of what happened.
    if (this.refused) return;
    try {
      const { line, bytes } = encodeRecord(record, this.seq, this.limits.maxLineBytes, this.file);
      if (this.queuedEnd + bytes + 1 > this.limits.maxJournalBytes) {
        throw new StoreError(
          'journal_too_large',
          `${this.file}: a ${JSON.stringify(record.type)} record of ${bytes + 1} bytes would take the journal past its limit of ${this.limits.maxJournalBytes} bytes (maxJournalBytes), which could then never be opened again; nothing more is written, the journal stays resumable up to here`,
        );
      }
      this.pending.push(`${line}\n`);
      this.queuedEnd += bytes + 1;
      this.seq++;
    } catch (error) {
      if (!(error instanceof StoreError)) throw error;
      // The store fails at the end of this turn (not inside the caller's transition), after
      // writing the records queued before this one.
      this.refused = error;
    }
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.writePending());
    }
  }

  /** Writes queued records to the file now (one write); fsyncs per the policy. */
  writePending(): void {
    this.scheduled = false;
    this.writeQueued();
    if (this.refused && !this.state.error) {
      // What came before the refused record is kept, and made durable like at close.
      this.syncNow();
      this.state.fail(this.refused);
    }
  }

  private writeQueued(): void {
    if (this.pending.length === 0 || this.state.error) return;
    // Fencing: a runtime whose lock was taken over must not write after the new holder.
    if (!this.lock.held()) return this.leaseLost();
    const lines = this.pending;
    this.pending = [];
    try {
      // One write per turn, unless the turn queued more than one string can hold.
      for (let from = 0; from < lines.length; ) {
        let to = from;
        let units = 0;
        while (to < lines.length && (to === from || units + lines[to]!.length <= WRITE_GROUP_UNITS)) units += lines[to++]!.length;
        const chunk = Buffer.from(to === from + 1 ? lines[from]! : lines.slice(from, to).join(''), 'utf8');
        let offset = 0;
        while (offset < chunk.length) offset += writeSync(this.fd, chunk, offset, chunk.length - offset, this.position + offset);
        this.position += chunk.length;
        this.unsynced = true;
        from = to;
      }
      if (this.fsync === 'always') this.syncNow();
      else if (this.fsync === 'interval' && !this.syncTimer) {
        this.syncTimer = setTimeout(() => {
          this.syncTimer = undefined;
          this.syncNow();
        }, this.fsyncIntervalMs);
        this.syncTimer.unref();
      }
    } catch (error) {
      this.state.fail(new StoreError('store_failed', `cannot write ${this.file}: ${error instanceof Error ? error.message : String(error)}`, { cause: error }));
    }
  }

  private syncNow(): void {
    if (!this.unsynced || this.state.error) return;
    try {
      fdatasyncSync(this.fd);
      this.unsynced = false;
    } catch (error) {
      this.state.fail(new StoreError('store_failed', `cannot sync ${this.file}: ${error instanceof Error ? error.message : String(error)}`, { cause: error }));
    }
  }

  async flush(): Promise<void> {
    this.writePending();
    if (this.fsync !== 'never') this.syncNow();
    if (this.state.error) throw this.state.error;
  }

  async fence(): Promise<void> {
    this.writePending();
    if (this.fsync !== 'never') this.syncNow();
    if (!this.state.error && !this.state.closed && !this.lock.held()) this.leaseLost();
    this.state.check();
  }

  async close(): Promise<void> {
    if (this.state.closed) return;
    this.writePending();
    this.syncNow();
    this.state.closed = true;
    if (this.syncTimer) clearTimeout(this.syncTimer);
    this.syncTimer = undefined;
    clearInterval(this.renewTimer);
    closeSync(this.fd);
    this.fd = -1;
    this.lock.release();
    if (this.state.error) throw this.state.error;
  }

  onFailure(listener: (error: StoreError) => void): () => void {
    return this.state.on(listener);
  }
}
