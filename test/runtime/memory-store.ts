/**
 * A session store in memory for runtime tests: its records are readable as they are appended,
 * a journal can be cut anywhere and resumed, and the test decides when (and how often) the
 * store tells its failure listeners.
 */
import { sessionHeader } from '../../src/store/format.js';
import type { JournalRecord, SessionStore, StoreError } from '../../src/store/types.js';

/** A {@link SessionStore} in memory. */
export interface MemoryStore extends SessionStore {
  /** Every record, the session header first (a resumed store: what it was opened with, then what was appended). */
  readonly records: JournalRecord[];
  /** Tells every failure listener `error` (each call tells them again, unlike a real store). */
  fail(error: StoreError): void;
}

/** A new session's store, or one opened on `loaded` (a journal's records, the header first). */
export function memoryStore(loaded: readonly JournalRecord[] = []): MemoryStore {
  const records: JournalRecord[] = loaded.length > 0 ? [...loaded] : [sessionHeader('memory-session', 0)];
  const listeners = new Set<(error: StoreError) => void>();
  let failure: StoreError | undefined;
  return {
    sessionId: 'memory-session',
    location: 'memory:session',
    loaded,
    records,
    get failure() {
      return failure;
    },
    append(record) {
      if (failure) throw failure;
      // A copy, as a real store keeps what was written then.
      records.push(structuredClone(record));
    },
    flush: () => Promise.resolve(),
    close: () => Promise.resolve(),
    onFailure(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    fail(error) {
      failure ??= error;
      for (const listener of [...listeners]) listener(error);
    },
  };
}
