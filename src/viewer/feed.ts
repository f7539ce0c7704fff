/**
 * A viewer feed: the events a page is sent, kept in order so a page that opens late (or
 * reloads) gets the whole session first, then each new event as it happens.
 */
import type { UnstampedEvent, ViewerEvent } from './model/events.js';

/** A feed's listener. */
export type FeedListener = (event: ViewerEvent) => void;

/** An append-only list of viewer events with listeners. */
export class ViewerFeed {
  private readonly events: ViewerEvent[] = [];
  private readonly listeners = new Set<FeedListener>();
  private closed = false;

  /** A feed holding `events` (a replayed file), or an empty one to push to. */
  constructor(events: readonly UnstampedEvent[] = []) {
    for (const event of events) this.push(event);
  }

  /** Every event so far, in order. */
  get history(): readonly ViewerEvent[] {
    return this.events;
  }

  /** Whether the feed has ended (its last event is `ended`). */
  get ended(): boolean {
    return this.closed;
  }

  /** Appends an event, giving it the next `seq`, and tells every listener. Ignored after `ended`. */
  push(event: UnstampedEvent): void {
    if (this.closed) return;
    const stamped = { ...event, seq: this.events.length } as ViewerEvent;
    this.events.push(stamped);
    if (stamped.type === 'ended') this.closed = true;
    for (const listener of this.listeners) listener(stamped);
  }

  /** Calls `listener` with every event pushed from now on; returns the unsubscribe function. */
  subscribe(listener: FeedListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
