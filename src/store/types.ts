/**
 * The storage seam of durable sessions: a {@link SessionStore} keeps one session's journal,
 * an append-only sequence of JSON records, and guarantees that only one runtime writes it.
 */

/** One journal record: a JSON object whose `type` names what it records. */
export interface JournalRecord {
  readonly type: string;
  readonly [key: string]: unknown;
}

/** Why a store refused to open, to append or to go on. */
export type StoreErrorCode =
  | 'corrupt_journal'
  | 'not_a_journal'
  | 'invalid_session_id'
  | 'journal_too_large'
  | 'newer_format'
  | 'session_exists'
  | 'unknown_session'
  | 'locked'
  | 'lease_lost'
  | 'unreachable'
  | 'store_failed'
  | 'closed';

/** A store error with a stable code; the message names the file and line, or the server. */
export class StoreError extends Error {
  override readonly name = 'StoreError';
  constructor(
    readonly code: StoreErrorCode,
    message: string,
    options?: { readonly cause?: unknown },
  ) {
    super(message, options);
  }
}

/**
 * One session's journal, opened for writing by exactly one runtime.
 *
 * `append` is synchronous and only queues (a runtime journals from inside actor transitions);
 * records reach storage in order, and `flush` resolves once everything appended before it is
 * stored. When storage fails (a lost lease, a lost server, a failed write) the store stops
 * accepting records and tells its failure listeners once.
 */
export interface SessionStore {
  /** The session this store holds. */
  readonly sessionId: string;
  /** Where the journal lives, for messages (a file path, or `postgres:schema/session`). */
  readonly location: string;
  /** Records stored before this store was opened (empty for a new session), in order. */
  readonly loaded: readonly JournalRecord[];
  /** Set once storage failed; nothing is appended after that. */
  readonly failure: StoreError | undefined;
  /** Queues a record. Throws a {@link StoreError} when the store failed or was closed. */
  append(record: JournalRecord): void;
  /** Resolves once every record appended so far is stored (and synced, per the store's policy). */
  flush(): Promise<void>;
  /**
   * Resolves once every record appended so far is stored and synced, and this store still holds
   * the session: its lock or lease is checked now, not at its last renewal. Rejects with the
   * store's failure otherwise (`lease_lost` when another runtime took the session over). The
   * runtime calls it before running a tool call that must not run twice, so that the call is
   * journaled first and a node that lost the session runs nothing more. Optional: a store
   * without it is flushed instead.
   */
  fence?(): Promise<void>;
  /** Flushes, then releases the lock or lease. Further appends throw `closed`. */
  close(): Promise<void>;
  /** Calls `listener` once if storage fails; returns the unsubscribe function. */
  onFailure(listener: (error: StoreError) => void): () => void;
}
