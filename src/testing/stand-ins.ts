/**
 * Controllable stand-ins for a machine's side-effecting actors. An invoked actor becomes a
 * promise the test resolves or rejects (producing `xstate.done.actor.<id>` or
 * `xstate.error.actor.<id>`); a spawned actor becomes a callback whose `sendBack` the test
 * calls. Each records its input, its AbortSignal and whether it was stopped.
 */
import { fromCallback, fromPromise, type AnyActorLogic, type EventObject } from 'xstate';
import { deferred, type Deferred } from './deferred.js';

/** One run of an invoked (promise) stand-in. */
export interface Invocation {
  /** The actor id (the invoke id, e.g. `model`). */
  readonly id: string;
  readonly src: string;
  readonly input: unknown;
  /** Aborted when the machine stops the actor. */
  readonly signal: AbortSignal;
  readonly result: Deferred<unknown>;
}

/** One run of a spawned (callback) stand-in. */
export interface SpawnedChild {
  /** The actor id (e.g. `tool:call_t0_s0_1`). */
  readonly id: string;
  readonly src: string;
  readonly input: unknown;
  /** Sends an event to the parent as the child (ignored by XState once the child is stopped). */
  readonly sendBack: (event: EventObject) => void;
  /** Whether the machine stopped the child (or it failed). */
  readonly stopped: boolean;
  /** Makes the child fail with `error`, as a throwing actor would (its parent sees `xstate.error.actor.<id>`). */
  readonly fail: (error: unknown) => void;
}

const FAIL = 'standIn.fail';

/** The stand-ins of one actor run. */
export class StandIns {
  readonly invocations: Invocation[] = [];
  readonly children: SpawnedChild[] = [];

  /** Promise logic for `src`: every run waits for the test to settle it. */
  promise(src: string): AnyActorLogic {
    return fromPromise<unknown, unknown>(({ input, signal, self }) => {
      const result = deferred<unknown>();
      this.invocations.push({ id: self.id, src, input, signal, result });
      return result.promise;
    });
  }

  /** Callback logic for `src`: every run hands its `sendBack` to the test. */
  callback(src: string): AnyActorLogic {
    return fromCallback<EventObject, unknown>(({ input, sendBack, receive, self }) => {
      const child = { id: self.id, src, input, sendBack, stopped: false, fail: (error: unknown) => self.send({ type: FAIL, error } as EventObject) };
      this.children.push(child);
      receive((event) => {
        // Throwing while handling an event is how a callback actor fails after it started.
        // XState runs no cleanup for a failed actor: it ends here.
        if (event.type !== FAIL) return;
        child.stopped = true;
        throw (event as { error?: unknown }).error;
      });
      return () => {
        child.stopped = true;
      };
    });
  }

  /** The newest unsettled invocation with actor id `id`, if any. */
  pending(id: string): Invocation | undefined {
    return this.invocations.findLast((i) => i.id === id && !i.result.settled);
  }

  /** The newest spawned child with actor id `id`, if any. */
  child(id: string): SpawnedChild | undefined {
    return this.children.findLast((c) => c.id === id);
  }
}
