/**
 * The host's events: listeners subscribed with `runtime.on`, and the iterators of
 * `runtime.events()`. A listener that throws is reported to `onListenerError` (or the
 * console) and never fails the agent whose transition emitted the event.
 */
import type { RuntimeEvents } from './types.js';
import type { RuntimeConfig } from './config.js';
import { EventHub, type StreamState } from './event-stream.js';
import type { EventsOptions, RuntimeStreamEvent } from './stream-events.js';
import { ROOT_PATH } from './paths.js';

type Listener<K extends keyof RuntimeEvents> = (event: RuntimeEvents[K]) => void;

/** Where an error a host callback threw came from. */
export type ListenerSource = keyof RuntimeEvents | 'inspect';

/** One runtime's events to its host. */
export class HostEvents {
  private readonly listeners = new Map<keyof RuntimeEvents, Set<Listener<keyof RuntimeEvents>>>();
  /** Iterators of `runtime.events()`; nothing is published while it has none. */
  readonly stream = new EventHub();

  constructor(private readonly onListenerError: RuntimeConfig['onListenerError']) {}

  /** Subscribes to a runtime event; returns the unsubscribe function. */
  on<K extends keyof RuntimeEvents>(type: K, listener: Listener<K>): () => void {
    const set = this.listeners.get(type) ?? new Set();
    set.add(listener as Listener<keyof RuntimeEvents>);
    this.listeners.set(type, set);
    return () => set.delete(listener as Listener<keyof RuntimeEvents>);
  }

  /** Emits a runtime event to hosts: its listeners, then the event stream's iterators. */
  emit<K extends keyof RuntimeEvents>(type: K, event: RuntimeEvents[K]): void {
    const set = this.listeners.get(type);
    if (set) {
      for (const listener of set) {
        // A host listener's bug must not fail the agent whose transition emitted the event.
        try {
          (listener as Listener<K>)(event);
        } catch (error) {
          this.reportListenerError(error, type);
        }
      }
    }
    if (this.stream.active) this.streamRuntimeEvent(type, event);
  }

  /** Publishes a stream-only event (deltas, tool calls), when some iterator is subscribed. */
  publish(event: RuntimeStreamEvent): void {
    if (this.stream.active) this.stream.publish(event);
  }

  /** An iterator over the session's events (see `Runtime.events`). */
  open(options: EventsOptions | undefined, session: StreamState): AsyncIterableIterator<RuntimeStreamEvent> {
    return this.stream.open(options, session);
  }

  /** Tells the host a callback of its threw (or the console, without `onListenerError`). */
  reportListenerError(error: unknown, source: ListenerSource): void {
    try {
      (this.onListenerError ?? ((e: unknown) => console.error(`subagent-actors: a runtime ${source === 'inspect' ? 'inspection observer' : 'listener'} threw`, e)))(error, source);
    } catch {
      // The error reporter itself failed; there is nobody left to tell.
    }
  }

  /** Publishes a runtime event on the stream (every kind `on` has), ending iterators it ends. */
  private streamRuntimeEvent(type: keyof RuntimeEvents, event: RuntimeEvents[keyof RuntimeEvents]): void {
    const stream = this.stream;
    switch (type) {
      case 'change': {
        const change = event as RuntimeEvents['change'];
        return stream.publish({ type: 'state-changed', path: change.path, state: change.state });
      }
      case 'turn': {
        const report = event as RuntimeEvents['turn'];
        return stream.publish({ type: 'turn-ended', path: report.path, report });
      }
      case 'result': {
        const result = event as RuntimeEvents['result'];
        const root = result.path === ROOT_PATH;
        stream.publish({ type: root ? 'session-ended' : 'subagent-settled', path: result.path, result });
        return stream.ended(result.path, root);
      }
      case 'halted': {
        stream.publish({ type: 'halted', path: ROOT_PATH, error: (event as RuntimeEvents['halted']).error });
        return stream.ended(ROOT_PATH, true);
      }
      case 'budget-warning': {
        const warning = event as RuntimeEvents['budget-warning'];
        return stream.publish({ type: 'budget-warning', ...warning });
      }
      case 'retry': {
        const retry = event as RuntimeEvents['retry'];
        return stream.publish({
          type: 'retry',
          path: retry.path,
          attempt: retry.attempt,
          delayMs: retry.delayMs,
          error: retry.error,
          ...(retry.status !== undefined ? { status: retry.status } : {}),
        });
      }
    }
  }
}
