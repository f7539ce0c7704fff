/**
 * The lock file beside a JSON Lines journal: one runtime writes a journal at a time. A lock
 * left by a process that no longer runs on this host (a crash) is taken over; a live one is
 * refused, never shared.
 */
import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { StoreError } from './types.js';

interface LockOwner {
  readonly pid: number;
  readonly host: string;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readOwner(lockFile: string): LockOwner | undefined {
  try {
    const owner = JSON.parse(readFileSync(lockFile, 'utf8')) as Partial<LockOwner>;
    return typeof owner.pid === 'number' && typeof owner.host === 'string' ? { pid: owner.pid, host: owner.host } : undefined;
  } catch {
    return undefined;
  }
}

function tryCreate(lockFile: string): boolean {
  try {
    const fd = openSync(lockFile, 'wx');
    writeSync(fd, JSON.stringify({ pid: process.pid, host: hostname() }));
    closeSync(fd);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

/** Takes the lock of `journalFile`; returns the function that releases it. */
export function acquireLock(journalFile: string): () => void {
  const lockFile = `${journalFile}.lock`;
  if (!tryCreate(lockFile)) {
    const owner = readOwner(lockFile);
    const stale = owner !== undefined && owner.host === hostname() && owner.pid !== process.pid && !isAlive(owner.pid);
    if (!stale) {
      const who = owner ? `process ${owner.pid} on ${owner.host}` : 'another runtime';
      throw new StoreError('locked', `${journalFile} is locked by ${who} (${lockFile}); a journal is written by one runtime at a time`);
    }
    unlinkSync(lockFile);
    // Two processes taking over the same stale lock: exactly one creates it again.
    if (!tryCreate(lockFile)) throw new StoreError('locked', `${journalFile} was just locked by another runtime (${lockFile})`);
  }
  let held = true;
  return () => {
    if (!held) return;
    held = false;
    try {
      unlinkSync(lockFile);
    } catch {
      // Already gone: nothing to release.
    }
  };
}
