/**
 * The lock beside a JSON Lines journal, held as a lease: one runtime writes a journal at a time.
 *
 * The lock file (`<journal>.lock`) names its holder (host, process id, the process's start on
 * Linux, a random nonce) and the lease it holds (`leaseMs`); its modification time is the last
 * renewal, so the lease ends `leaseMs` after it. The holder renews by touching the file through
 * the descriptor it keeps open: a holder whose lock was taken over touches the old file, never
 * the new one, and sees that the lock path no longer names its file (`held()`).
 *
 * A lock is taken over when the host asks (`takeover: true`), when its lease expired (a holder
 * on another host, or in a container that was restarted, stops renewing), or at once when its
 * holder provably no longer runs on this host: gone, exiting, exited but not yet reaped, being killed,
 * a different process that reuses the pid, or this very pid in a process that does not hold it
 * (the same pid after a restart). An empty or torn lock file names no holder: it counts as a
 * lease of the default length from its modification time. A live lock is refused, never shared.
 */
import { closeSync, fstatSync, futimesSync, linkSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { nanoid } from 'nanoid';
import { StoreError } from './types.js';

/** How long a JSON Lines lock lasts without renewal, unless the store says otherwise. */
export const DEFAULT_LOCK_LEASE_MS = 10_000;

/** What a lock file says about its holder. */
interface LockOwner {
  readonly pid: number;
  readonly host: string;
  readonly nonce: string | undefined;
  readonly leaseMs: number;
  /** Boot id and start time of the holder's process (Linux), to tell a reused pid apart. */
  readonly started: string | undefined;
}

/** A lock this process holds. */
export interface JournalLock {
  /** Whether the lock path still names this holder's lock (false once another runtime took it over). */
  held(): boolean;
  /** Extends the lease by `leaseMs` from now; false when the lock was taken over. */
  renew(): boolean;
  /** Releases the lock (if still held) and closes its descriptor; idempotent. */
  release(): void;
}

/** Options of {@link acquireLock}. */
export interface LockOptions {
  /** Lease length (default {@link DEFAULT_LOCK_LEASE_MS}). */
  readonly leaseMs?: number;
  /** Take the lock whatever its state: the host knows the holder is gone. */
  readonly takeover?: boolean;
}

// Nonces of the locks this process holds, shared by every copy of this module in the process,
// so two copies never mistake each other's locks for a previous process's.
const HELD_KEY = Symbol.for('subagent-actors.jsonl-locks');
const held: Set<string> = ((globalThis as Record<symbol, unknown>)[HELD_KEY] as Set<string> | undefined) ?? new Set<string>();
(globalThis as Record<symbol, unknown>)[HELD_KEY] = held;

function readText(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** The boot id and start time of `pid` (Linux), or undefined where `/proc` does not say. */
function processStart(pid: number): string | undefined {
  const stat = readText(`/proc/${pid}/stat`);
  const boot = readText('/proc/sys/kernel/random/boot_id')?.trim();
  if (stat === undefined || boot === undefined) return undefined;
  // Fields after the command name (which may hold spaces and parentheses): state is the first, start time the 20th.
  return `${boot}:${stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? ''}`;
}

const OWN_START = processStart(process.pid);

/** Whether `owner`, which names this host, provably no longer runs. */
function holderIsGone(owner: LockOwner): boolean {
  if (owner.pid === process.pid) return owner.nonce === undefined || !held.has(owner.nonce);
  if (OWN_START !== undefined) {
    const stat = readText(`/proc/${owner.pid}/stat`);
    if (stat === undefined) return true;
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Z: exited, not yet reaped by its parent; X: dead; flag PF_EXITING (0x4): exiting now.
    if (fields[0] === 'Z' || fields[0] === 'X' || (Number(fields[6]) & 0x4) !== 0) return true;
    if (owner.started !== undefined && processStart(owner.pid) !== owner.started) return true;
    return killPending(owner.pid);
  }
  try {
    process.kill(owner.pid, 0);
    return false;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code !== 'EPERM';
  }
}

/** Whether a SIGKILL is pending for `pid`: it will never run user code again. */
function killPending(pid: number): boolean {
  const status = readText(`/proc/${pid}/status`) ?? '';
  const sigkill = 1n << 8n;
  for (const name of ['ShdPnd', 'SigPnd']) {
    const mask = new RegExp(`^${name}:\\s*([0-9a-f]+)$`, 'm').exec(status)?.[1];
    if (mask !== undefined && (BigInt(`0x${mask}`) & sigkill) !== 0n) return true;
  }
  return false;
}

function parseOwner(text: string | undefined): LockOwner | undefined {
  if (text === undefined) return undefined;
  try {
    const o = JSON.parse(text) as Record<string, unknown>;
    if (typeof o['pid'] !== 'number' || typeof o['host'] !== 'string') return undefined;
    return {
      pid: o['pid'],
      host: o['host'],
      nonce: typeof o['nonce'] === 'string' ? o['nonce'] : undefined,
      leaseMs: typeof o['leaseMs'] === 'number' && o['leaseMs'] > 0 ? o['leaseMs'] : DEFAULT_LOCK_LEASE_MS,
      started: typeof o['started'] === 'string' ? o['started'] : undefined,
    };
  } catch {
    return undefined;
  }
}

/** The lock file as it stands: its inode, its lease's end, its holder (undefined when unreadable). */
interface Standing {
  readonly ino: bigint;
  readonly expires: number;
  readonly owner: LockOwner | undefined;
}

function inodeOf(file: string): bigint | undefined {
  try {
    return statSync(file, { bigint: true }).ino;
  } catch {
    return undefined;
  }
}

function standing(lockFile: string): Standing | undefined {
  let ino: bigint;
  let mtimeMs: number;
  try {
    const stat = statSync(lockFile, { bigint: true });
    ino = stat.ino;
    mtimeMs = Number(stat.mtimeNs / 1_000_000n);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const owner = parseOwner(readText(lockFile));
  return { ino, expires: mtimeMs + (owner?.leaseMs ?? DEFAULT_LOCK_LEASE_MS), owner };
}

function describe(owner: LockOwner | undefined): string {
  return owner ? `process ${owner.pid} on ${owner.host}` : 'an unreadable lock file';
}

/**
 * Takes the lock of `journalFile`. Throws `locked` while another runtime's lease runs.
 *
 * @example
 * ```ts
 * const lock = acquireLock('/sessions/s.jsonl', { leaseMs: 10_000 });
 * setInterval(() => lock.renew(), 3_000);
 * lock.release();
 * ```
 */
export function acquireLock(journalFile: string, options: LockOptions = {}): JournalLock {
  const lockFile = `${journalFile}.lock`;
  const leaseMs = options.leaseMs ?? DEFAULT_LOCK_LEASE_MS;
  const nonce = nanoid(16);
  const host = hostname();
  const draft = `${lockFile}.${nonce}`;
  // Written whole under a private name, then linked into place: the lock file is never seen half-written.
  const fd = openSync(draft, 'wx');
  try {
    writeSync(fd, JSON.stringify({ pid: process.pid, host, nonce, leaseMs, ...(OWN_START === undefined ? {} : { started: OWN_START }) }));
    // A few rounds at most: each one either links the lock, refuses, or removes a stale lock.
    for (let attempt = 0; !tryLink(draft, lockFile); attempt++) {
      const found = standing(lockFile);
      if (found === undefined) continue;
      const stale = options.takeover === true || Date.now() >= found.expires || (found.owner?.host === host && holderIsGone(found.owner));
      if (!stale || attempt >= 4) {
        const until = new Date(found.expires).toISOString();
        throw new StoreError(
          'locked',
          `${journalFile} is locked by ${describe(found.owner)} (${lockFile}) until ${until} unless renewed; a journal is written by one runtime at a time. If that runtime is gone, open with takeover: true`,
        );
      }
      removeStale(lockFile, found.ino, nonce);
    }
  } catch (error) {
    closeSync(fd);
    unlinkQuietly(draft);
    throw error;
  }
  unlinkQuietly(draft);
  held.add(nonce);
  const ino = fstatSync(fd, { bigint: true }).ino;
  let open = true;
  const isHeld = (): boolean => open && inodeOf(lockFile) === ino;
  return {
    held: isHeld,
    renew() {
      if (!isHeld()) return false;
      const now = new Date();
      futimesSync(fd, now, now);
      return true;
    },
    release() {
      if (!open) return;
      if (isHeld()) unlinkQuietly(lockFile);
      open = false;
      held.delete(nonce);
      closeSync(fd);
    },
  };
}

function tryLink(draft: string, lockFile: string): boolean {
  try {
    linkSync(draft, lockFile);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

/**
 * Moves the stale lock (inode `ino`) out of the way. Two runtimes taking over the same stale lock:
 * the rename is atomic, so only one moves it; one that moved a fresh lock instead puts it back.
 */
function removeStale(lockFile: string, ino: bigint, nonce: string): void {
  const grave = `${lockFile}.stale.${nonce}`;
  try {
    renameSync(lockFile, grave);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  if (statSync(grave, { bigint: true }).ino !== ino) tryLink(grave, lockFile);
  unlinkQuietly(grave);
}

function unlinkQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // Already gone.
  }
}
