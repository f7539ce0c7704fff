/**
 * Test helpers for runtime scenarios: deferreds, and waiting on runtime events (never sleeps).
 */
import { Dialogue, userEntry } from '../../src/dialogue/index.js';
import type { InboxItem, RuntimeOptions } from '../../src/index.js';
import type { Runtime } from '../../src/runtime/types.js';

/** An actor as a test reaches it from outside: to send it an event nobody handles, or to stop it. */
export interface ReachedActor {
  readonly id: string;
  send(event: unknown): void;
  stop(): void;
}

/**
 * The runtime's actors by id (their paths), as an inspection observer sees them: pass
 * `inspect` to `createRuntime`, then reach an agent's actor with `refs.get(path)`.
 */
export function actorRefs(): { readonly refs: Map<string, ReachedActor>; readonly inspect: (event: { type: string; actorRef: unknown }) => void } {
  const refs = new Map<string, ReachedActor>();
  return {
    refs,
    inspect: (event) => {
      const ref = event.actorRef as ReachedActor;
      if (event.type === '@xstate.actor' && ref.id) refs.set(ref.id, ref);
    },
  };
}

export { deferred, type Deferred } from '../../src/testing/deferred.js';

/** Resolves when `path` enters a state starting with `state` (now, or on a later change). */
export function waitForState(rt: Runtime, path: string, state: string): Promise<void> {
  if (rt.stateOf(path)?.startsWith(state)) return Promise.resolve();
  return new Promise((resolve) => {
    const off = rt.on('change', (change) => {
      if (change.path === path && change.state.startsWith(state)) {
        off();
        resolve();
      }
    });
  });
}

/** The kinds of an agent's raw log, in order. */
export function kinds(rt: Runtime, path: string): string[] {
  return rt.transcript(path)?.log.toArray().map((e) => e.kind) ?? [];
}

/** The text of every user entry of an agent's log. */
export function userTexts(rt: Runtime, path: string): string[] {
  return (rt.transcript(path)?.log.toArray() ?? []).flatMap((e) => (e.kind === 'user' ? [e.text] : []));
}

/**
 * A host-run root whose dialogue is one person's question and which keeps what the runtime
 * hands over (`delivered`): pass `hostRoot` to `createRuntime`.
 */
export function collectingHostRoot(question = 'why is it slow'): { readonly hostRoot: NonNullable<RuntimeOptions['hostRoot']>; readonly delivered: InboxItem[] } {
  const delivered: InboxItem[] = [];
  const dialogue = Dialogue.of([userEntry({ text: question, origin: { kind: 'person' }, opensTurn: true })]);
  return { delivered, hostRoot: { dialogue: () => dialogue, deliver: (item) => delivered.push(item) } };
}
