/**
 * Options for `@statelyai/inspect` inspectors that keep transcripts out of every message,
 * including the two the runtime's own sanitizing cannot reach: an `@xstate.actor` message
 * carries the actor's live snapshot (read by the inspector, not taken from the event), and a
 * model request's promise actor carries its input (the dialogue and the request head).
 */
import { sanitizeContext } from './sanitize.js';

/** A message as `@statelyai/inspect` serializes it (only the fields sanitizing touches). */
interface StatelyMessageLike {
  readonly type: string;
  readonly snapshot?: unknown;
}

/**
 * The subset of `@statelyai/inspect`'s inspector options this module sets; spread it into
 * `createWebSocketInspector({ url, ...sanitizingInspectorOptions() })` or any other
 * `create*Inspector`.
 */
export interface SanitizingInspectorOptions {
  /** Summarizes dialogues, snapshots and request heads in actor contexts. */
  readonly sanitizeContext: (context: Record<string, unknown>) => Record<string, unknown>;
  /** Summarizes the same in the input of actors without context (model requests, tools). */
  readonly serialize: <T extends StatelyMessageLike>(message: T) => T;
  /** Messages kept while the inspector is not connected yet (here 10 000 by default, not 200). */
  readonly maxDeferredEvents: number;
}

/** Inspector options that keep transcripts out of every message the inspector sends. */
export function sanitizingInspectorOptions(options: { readonly maxDeferredEvents?: number } = {}): SanitizingInspectorOptions {
  return {
    sanitizeContext: (context) => sanitizeContext(context) as Record<string, unknown>,
    serialize: (message) => {
      if ((message.type !== '@xstate.actor' && message.type !== '@xstate.snapshot') || typeof message.snapshot !== 'object' || message.snapshot === null) return message;
      const snapshot = message.snapshot as Record<string, unknown>;
      if (!('input' in snapshot)) return message;
      return { ...message, snapshot: { ...snapshot, input: sanitizeContext(snapshot.input) } };
    },
    maxDeferredEvents: options.maxDeferredEvents ?? 10_000,
  };
}
