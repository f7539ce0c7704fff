/**
 * A session trace: inspection events written as JSON Lines, one small record per event
 * (what happened, to which actor, which event, which state, when). Records never carry a
 * dialogue: only ids, event types and state values (and, on request, sanitized contexts).
 */
import { createWriteStream } from 'node:fs';
import type { InspectionEvent } from 'xstate';
import { actorName, sanitizeContext, type ActorNameSource } from './sanitize.js';
import { stateValueString } from '../text/state-value.js';

/** One line of a trace. */
export interface TraceRecord {
  /** Milliseconds from the recorder's clock. */
  readonly t: number;
  /** `actor` (created), `event` (received) or `snapshot` (state after an event). */
  readonly kind: 'actor' | 'event' | 'snapshot';
  /** The actor: an agent's path (`/root/research`), or `<agent path>#<actor id>` for its actors. */
  readonly actor: string;
  /** The event's type (for `event` and `snapshot`). */
  readonly event?: string;
  /** The sending actor, when known (for `event`). */
  readonly from?: string;
  /** The state value as a string (`running.working.sampling`), for machine snapshots. */
  readonly state?: string;
  /** The actor's status (`active`, `done`, `error`, `stopped`), for snapshots. */
  readonly status?: string;
  /** The sanitized context (only with `context: true`). */
  readonly context?: unknown;
}

/** Options of {@link createRecorder}. */
export interface RecorderOptions {
  /** The clock (default `Date.now`). */
  readonly now?: () => number;
  /** Include each machine snapshot's sanitized context (default false). */
  readonly context?: boolean;
}

/** A recorder: pass `inspect` as `createRuntime({ inspect })`. */
export interface Recorder {
  readonly inspect: (event: InspectionEvent) => void;
  /** Lines written so far. */
  readonly count: number;
  /** Finishes writing. */
  close(): Promise<void>;
}

interface RefLike extends ActorNameSource {
  readonly _parent?: RefLike;
}

/** An actor's address: an agent's path, or `<agent path>#<id>` for the actors it runs. */
export function actorAddress(ref: RefLike): string {
  const id = actorName(ref);
  if (id.startsWith('/') || !ref._parent) return id;
  return `${actorAddress(ref._parent)}#${id}`;
}

/** Inspection event types a trace records. */
const TRACED: ReadonlySet<string> = new Set(['@xstate.actor', '@xstate.event', '@xstate.snapshot']);

/**
 * Who sent an event: XState's source actor, or, for the agent events sent with an actor's
 * public `send` (a subagent's report reaches its parent that way), the path the event names.
 */
function senderOf(event: InspectionEvent & { type: '@xstate.event' }): { from?: string } {
  if (event.sourceRef) return { from: actorAddress(event.sourceRef as unknown as RefLike) };
  const from = (event.event as { type: string; from?: unknown }).from;
  return (event.event.type === 'subagent.report' || event.event.type === 'send_message') && typeof from === 'string' ? { from } : {};
}

/** The record of one inspection event, or undefined for kinds a trace omits (microsteps, actions). */
export function traceRecord(event: InspectionEvent, t: number, withContext = false): TraceRecord | undefined {
  const actor = actorAddress(event.actorRef as unknown as RefLike);
  switch (event.type) {
    case '@xstate.actor':
      return { t, kind: 'actor', actor };
    case '@xstate.event':
      return {
        t,
        kind: 'event',
        actor,
        event: event.event.type,
        ...senderOf(event),
      };
    case '@xstate.snapshot': {
      const snapshot = event.snapshot as { status?: string; value?: unknown; context?: unknown };
      return {
        t,
        kind: 'snapshot',
        actor,
        event: event.event.type,
        ...('value' in snapshot ? { state: stateValueString(snapshot.value) } : {}),
        ...(snapshot.status ? { status: snapshot.status } : {}),
        ...(withContext && snapshot.context !== undefined ? { context: sanitizeContext(snapshot.context) } : {}),
      };
    }
    default:
      return undefined;
  }
}

/** Where a recorder writes: a JSON Lines file path, or a function taking each line. */
export type TraceTarget = string | ((line: string) => void);

/**
 * A recorder writing each record as one JSON line (newline included) to `target`: a file
 * path (created or truncated; see {@link recordToFile}) or a function.
 */
export function createRecorder(target: TraceTarget, options: RecorderOptions = {}): Recorder {
  if (typeof target === 'string') return recordToFile(target, options);
  return lineRecorder(target, options, async () => {});
}

/** A recorder writing a JSON Lines file at `path` (created or truncated). */
export function recordToFile(path: string, options: RecorderOptions = {}): Recorder {
  const stream = createWriteStream(path, { flags: 'w', encoding: 'utf8' });
  const closed = new Promise<void>((resolve, reject) => {
    stream.once('finish', () => resolve());
    stream.once('error', reject);
  });
  return lineRecorder((line) => void stream.write(line), options, () => {
    stream.end();
    return closed;
  });
}

function lineRecorder(write: (line: string) => void, options: RecorderOptions, close: () => Promise<void>): Recorder {
  const now = options.now ?? Date.now;
  let count = 0;
  return {
    inspect: (event) => {
      if (!TRACED.has(event.type)) return;
      const record = traceRecord(event, now(), options.context === true);
      if (!record) return;
      write(`${JSON.stringify(record)}\n`);
      count++;
    },
    get count() {
      return count;
    },
    close,
  };
}
