/**
 * The runtime's event stream: each `runtime.events()` call subscribes one bounded queue to the
 * hub, and the runtime publishes into the hub only while someone is subscribed, so a session
 * without consumers builds no event objects at all.
 */
import { BoundedQueue } from './bounded-queue.js';
import { RuntimeError } from './errors.js';
import { isWithin } from './paths.js';
import { DEFAULT_EVENT_BUFFER, type EventsOptions, type RuntimeStreamEvent } from './stream-events.js';

/** Which events one subscriber takes. */
interface Filter {
  /** Undefined: the whole tree. */
  readonly path: string | undefined;
  readonly subtree: boolean;
}

function matches(filter: Filter, path: string): boolean {
  if (filter.path === undefined) return true;
  return path === filter.path || (filter.subtree && isWithin(path, filter.path));
}

const DONE: IteratorReturnResult<undefined> = Object.freeze({ done: true, value: undefined });

/**
 * One iterator's queue: a bounded FIFO ({@link BoundedQueue}). A consumer that does not read,
 * or stops reading, loses the oldest events, never the runtime's memory: it holds at most
 * `bufferSize` events however many are published.
 */
class Subscriber implements AsyncIterableIterator<RuntimeStreamEvent> {
  private readonly items: BoundedQueue<RuntimeStreamEvent>;
  private dropped = 0;
  /** `next` calls waiting for an event, oldest first. */
  private waiting: Array<(result: IteratorResult<RuntimeStreamEvent, undefined>) => void> = [];
  /** No more events will be queued; the iterator ends once the queue is read. */
  private closing = false;
  private detachSignal: (() => void) | undefined;

  constructor(
    readonly filter: Filter,
    bufferSize: number,
    private readonly unsubscribe: (subscriber: Subscriber) => void,
    signal: AbortSignal | undefined,
  ) {
    this.items = new BoundedQueue(bufferSize);
    if (signal) {
      const onAbort = (): void => void this.return();
      signal.addEventListener('abort', onAbort, { once: true });
      this.detachSignal = () => signal.removeEventListener('abort', onAbort);
    }
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  /** Queues an event (or hands it to a waiting `next`). */
  push(event: RuntimeStreamEvent): void {
    if (this.closing) return;
    const waiting = this.waiting.shift();
    if (waiting) {
      waiting({ done: false, value: event });
      return;
    }
    if (this.items.push(event)) this.dropped++;
  }


  /** Ends the iteration after what is queued (the agent or session it follows ended). */
  close(): void {
    if (this.closing) return;
    this.closing = true;
    this.release();
    const waiting = this.waiting;
    this.waiting = [];
    for (const resolve of waiting) resolve(DONE);
  }

  next(): Promise<IteratorResult<RuntimeStreamEvent, undefined>> {
    if (this.dropped > 0) {
      const dropped = this.dropped;
      this.dropped = 0;
      return Promise.resolve({ done: false, value: { type: 'lagged', path: this.filter.path ?? '/root', dropped } });
    }
    if (this.items.size > 0) return Promise.resolve({ done: false, value: this.items.shift()! });
    if (this.closing) return Promise.resolve(DONE);
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  /** `break` out of `for await`, or an aborted signal: unsubscribes and drops what is queued. */
  return(): Promise<IteratorResult<RuntimeStreamEvent, undefined>> {
    this.items.clear();
    this.dropped = 0;
    this.close();
    return Promise.resolve(DONE);
  }

  private release(): void {
    this.unsubscribe(this);
    this.detachSignal?.();
    this.detachSignal = undefined;
  }
}

/** What the hub needs to know about the session when an iterator is opened. */
export interface StreamState {
  /** Whether the session still runs (its root is live and its store has not failed). */
  readonly running: boolean;
  /** Whether `path` belonged to an agent that has already finished. */
  finished(path: string): boolean;
}

/** The runtime's publisher: subscribers, their filters, and ending them with their agent. */
export class EventHub {
  private readonly subscribers = new Set<Subscriber>();
  private readonly remove = (subscriber: Subscriber): void => void this.subscribers.delete(subscriber);

  /** Whether any iterator is subscribed (publishers check it before building an event). */
  get active(): boolean {
    return this.subscribers.size > 0;
  }

  /** Subscribed iterators (for tests of cleanup). */
  get size(): number {
    return this.subscribers.size;
  }

  /** Whether some iterator takes events of `path` (then model requests stream deltas). */
  wants(path: string): boolean {
    for (const subscriber of this.subscribers) if (matches(subscriber.filter, path)) return true;
    return false;
  }

  /** Hands an event to every iterator whose filter takes it. */
  publish(event: RuntimeStreamEvent): void {
    for (const subscriber of this.subscribers) if (matches(subscriber.filter, event.path)) subscriber.push(event);
  }

  /**
   * The agent at `path` finished (or, for the root, the session): iterators that follow only
   * it, or the whole tree for the root, end once the events this transition still emits (its
   * final state change) are queued.
   */
  ended(path: string, session: boolean): void {
    // A finished agent's subagents finished before it, so a subtree iterator ends with it too.
    const done = [...this.subscribers].filter((s) => session || s.filter.path === path);
    if (done.length === 0) return;
    queueMicrotask(() => {
      for (const subscriber of done) subscriber.close();
    });
  }

  /** Opens an iterator (see `Runtime.events`). Throws a RuntimeError for malformed options. */
  open(options: EventsOptions | undefined, state: StreamState): AsyncIterableIterator<RuntimeStreamEvent> {
    const opts = checkOptions(options);
    const filter: Filter = { path: opts.path, subtree: opts.subtree ?? false };
    const subscriber = new Subscriber(filter, opts.bufferSize ?? DEFAULT_EVENT_BUFFER, this.remove, opts.signal);
    // Nothing more can happen to a stopped session, an agent that finished, or an aborted signal.
    if (!state.running || (filter.path !== undefined && state.finished(filter.path)) || opts.signal?.aborted === true) subscriber.close();
    else this.subscribers.add(subscriber);
    return subscriber;
  }
}

function checkOptions(options: EventsOptions | undefined): EventsOptions {
  if (options === undefined) return {};
  if (options === null || typeof options !== 'object') throw new RuntimeError('invalid_arguments', 'events() takes an options object: { path?, subtree?, signal?, bufferSize? }');
  const { path, subtree, signal, bufferSize } = options;
  if (path !== undefined && (typeof path !== 'string' || !path.startsWith('/'))) {
    throw new RuntimeError('invalid_arguments', `path must be an agent path such as "/root" or "/root/research" (got ${JSON.stringify(path)})`);
  }
  if (subtree !== undefined && typeof subtree !== 'boolean') throw new RuntimeError('invalid_arguments', 'subtree must be a boolean');
  if (signal !== undefined && !(signal instanceof AbortSignal)) throw new RuntimeError('invalid_arguments', 'signal must be an AbortSignal');
  if (bufferSize !== undefined && (!Number.isInteger(bufferSize) || bufferSize < 1)) {
    throw new RuntimeError('invalid_arguments', `bufferSize must be a positive integer (got ${String(bufferSize)})`);
  }
  return path === undefined ? options : { ...options, path: path.replace(/\/+$/, '') };
}
