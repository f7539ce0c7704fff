/**
 * Optional features of the demo: serving the session to the Stately inspector
 * (`src/inspect/serve.ts`) and recording an inspection trace (`src/inspect/recorder.ts`).
 * Both are loaded on demand, so the demo never pays for them unless asked, and a missing
 * piece (say `@statelyai/inspect` is not installed) becomes a clear note instead of a crash.
 */
import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { RuntimeOptions } from '../index.js';

/** An inspection observer as `createRuntime({ inspect })` takes it. */
export type InspectObserver = NonNullable<RuntimeOptions['inspect']>;

/** A started optional feature: the observer to pass to the runtime and how to shut it down. */
export interface OptionalFeature {
  readonly kind: 'inspector' | 'recorder';
  readonly inspect: InspectObserver;
  /** A line for people: where to look. */
  readonly note: string;
  close(): Promise<void>;
}

/** Why a feature is not available. */
export interface Unavailable {
  readonly unavailable: string;
}

const reason = (error: unknown): string => (error instanceof Error ? error.message.split('\n')[0] ?? error.message : String(error));

/** Serves the session to the Stately inspector in a browser. */
export async function loadInspector(): Promise<OptionalFeature | Unavailable> {
  try {
    const { serveInspector } = await import('../inspect/serve.js');
    const served = await serveInspector();
    return {
      kind: 'inspector',
      inspect: served.inspect,
      note: `Stately inspector: open ${served.url} in a browser (events so far are replayed when it connects). It frames the hosted inspector at stately.ai, so it needs internet; offline, npm run demo -- --view serves the local viewer`,
      close: () => served.close(),
    };
  } catch (error) {
    return { unavailable: `inspection is unavailable (${reason(error)}); running without it.` };
  }
}

/** Records the session's inspection events as JSON Lines in `file`. */
export async function loadRecorder(file: string): Promise<OptionalFeature | Unavailable> {
  try {
    // The recorder reports a bad path only asynchronously; check the folder up front.
    await access(dirname(resolve(file)), constants.W_OK);
    const { createRecorder } = await import('../inspect/recorder.js');
    const recorder = createRecorder(file);
    return {
      kind: 'recorder',
      inspect: recorder.inspect,
      note: `recording the inspection trace to ${file} (JSON Lines)`,
      close: async () => {
        await recorder.close();
      },
    };
  } catch (error) {
    return { unavailable: `recording is unavailable (${reason(error)}); ${file} was not written.` };
  }
}

/**
 * Combines inspection observers into one (the runtime takes a single observer). A failing
 * observer never starves the others.
 */
export function combineObservers(observers: readonly InspectObserver[]): InspectObserver | undefined {
  if (observers.length === 0) return undefined;
  if (observers.length === 1) return observers[0];
  return (event) => {
    for (const observer of observers) {
      try {
        if (typeof observer === 'function') observer(event);
        else observer.next?.(event);
      } catch {
        // Inspection is best effort: the session must not depend on it.
      }
    }
  };
}
