/**
 * Test helpers for runtime scenarios: deferreds, and waiting on runtime events (never sleeps).
 */
import type { Runtime } from '../../src/runtime/types.js';

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
