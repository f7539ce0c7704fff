/**
 * A live session as a viewer feed. Two sources feed it: the runtime's inspection (every
 * agent as it appears and every state it enters, as they happen) and the session's journal
 * records (descriptors, transcripts, usage and results), taken from the store the runtime
 * writes to. A session with no journal gets a store that only feeds the page.
 */
import type { InspectionEvent } from 'xstate';
import { traceRecord } from '../inspect/recorder.js';
import { StoreError, type JournalRecord, type SessionStore } from '../store/types.js';
import { ViewerFeed } from './feed.js';
import { journalRecordEvents } from './from-journal.js';
import { traceConverter } from './from-trace.js';
import { VIEWER_FORMAT } from './model/events.js';

/** Options of {@link liveFeed}. */
export interface LiveFeedOptions {
  /** The session's id. */
  readonly sessionId: string;
  /** What people read as the session's name (default `live`). */
  readonly label?: string;
  /** The clock events are stamped with (default `Date.now`). */
  readonly now?: () => number;
}

/** A live feed and the two taps that fill it. */
export interface LiveFeed {
  /** What the viewer serves. */
  readonly feed: ViewerFeed;
  /** Pass as `createRuntime({ inspect })` (or combine with other observers). */
  readonly inspect: (event: InspectionEvent) => void;
  /**
   * The store to give the runtime: `inner`'s records go to the page as they are appended
   * (and, when resuming, the records `inner` loaded go first), then on to `inner`. Without
   * `inner`, a store that keeps nothing and only feeds the page.
   */
  store(inner?: SessionStore): SessionStore;
  /** Ends the feed: pages show the session as over. */
  end(reason: string): void;
}

/**
 * A feed for a session that is running now.
 *
 * @example
 * const live = liveFeed({ sessionId: 'demo' });
 * const viewer = await serveViewer({ feed: live.feed });
 * const runtime = createRuntime({ model, inspect: live.inspect, store: live.store() });
 * // ... the session runs; the page follows it ...
 * live.end('the session ended');
 */
export function liveFeed(options: LiveFeedOptions): LiveFeed {
  const now = options.now ?? Date.now;
  const feed = new ViewerFeed([{ type: 'session', format: VIEWER_FORMAT, sessionId: options.sessionId, source: 'live', label: options.label ?? 'live', t: now() }]);
  const convert = traceConverter();
  const record = (entry: JournalRecord, states: boolean): void => {
    if (entry.type === 'session') return;
    for (const event of journalRecordEvents(entry, { states })) feed.push({ ...event, t: now() });
  };
  return {
    feed,
    inspect: (event) => {
      const traced = traceRecord(event, now());
      if (traced) for (const converted of convert(traced)) feed.push(converted);
    },
    store: (inner) => {
      // A resumed session's history: its states too, since no inspection saw them.
      for (const loaded of inner?.loaded ?? []) record(loaded, true);
      return inner ? teeStore(inner, (entry) => record(entry, false)) : feedOnlyStore(options.sessionId, (entry) => record(entry, false));
    },
    end: (reason) => feed.push({ type: 'ended', reason, t: now() }),
  };
}

/** `inner`, with every record it accepts also given to `tap`. */
function teeStore(inner: SessionStore, tap: (record: JournalRecord) => void): SessionStore {
  return {
    get sessionId() {
      return inner.sessionId;
    },
    get location() {
      return inner.location;
    },
    get loaded() {
      return inner.loaded;
    },
    get failure() {
      return inner.failure;
    },
    append: (record) => {
      inner.append(record);
      tap(record);
    },
    flush: () => inner.flush(),
    close: () => inner.close(),
    onFailure: (listener) => inner.onFailure(listener),
  };
}

/** A store that stores nothing: each record goes to `tap`, and then is gone. */
function feedOnlyStore(sessionId: string, tap: (record: JournalRecord) => void): SessionStore {
  let closed = false;
  return {
    sessionId,
    location: 'the live viewer (not stored)',
    loaded: [],
    failure: undefined,
    append: (record) => {
      if (closed) throw new StoreError('closed', 'the live viewer store was closed');
      tap(record);
    },
    flush: () => Promise.resolve(),
    close: () => {
      closed = true;
      return Promise.resolve();
    },
    onFailure: () => () => {},
  };
}
