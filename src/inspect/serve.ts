/**
 * Serves a session to the Stately inspector: starts a local relay (page + WebSocket), points
 * a sanitizing `@statelyai/inspect` WebSocket inspector at it, and hands back the observer to
 * pass as `createRuntime({ inspect })`. The demo's `--inspect` flag calls it.
 */
import type { InspectionEvent, Observer } from 'xstate';
import { startBridge, type BridgeOptions } from './bridge.js';
import { sanitizingInspectorOptions } from './stately.js';

/** Options of {@link serveInspector}. */
export interface ServeInspectorOptions extends BridgeOptions {
  /** Called with a line naming the page's address once it is served (default: silent). */
  readonly log?: (line: string) => void;
}

/** A served inspector. */
export interface ServedInspector {
  /** Pass as `createRuntime({ inspect })`. */
  readonly inspect: Observer<InspectionEvent>;
  /** The page to open in a browser. */
  readonly url: string;
  /** The relay's WebSocket address (other inspectors and receivers may connect). */
  readonly wsUrl: string;
  /** Messages relayed so far. */
  readonly relayed: () => number;
  /**
   * Stops the inspector and the relay. Call it after the session is quiet: the inspector
   * sends each event a tick after it happens, and events after `close` are dropped.
   */
  close(): Promise<void>;
}

/**
 * Starts serving. Needs `@statelyai/inspect` (and `ws`, which it brings) installed: they are
 * loaded only here, so the library does not depend on them otherwise.
 *
 * @example
 * const served = await serveInspector({ log: console.log }); // "Stately inspector: http://127.0.0.1:PORT/"
 * const runtime = createRuntime({ model, inspect: served.inspect });
 * // ... run the session, open the page; the browser gets every event so far on connect
 * await runtime.whenQuiet();
 * await served.close();
 */
export async function serveInspector(options: ServeInspectorOptions = {}): Promise<ServedInspector> {
  const bridge = await startBridge(options);
  const { createWebSocketInspector } = await import('@statelyai/inspect');
  const connected = bridge.nextClient();
  const inspector = createWebSocketInspector({ url: bridge.wsUrl, ...sanitizingInspectorOptions() });
  await connected;
  options.log?.(`Stately inspector: ${bridge.url}`);
  return {
    inspect: inspector.inspect,
    url: bridge.url,
    wsUrl: bridge.wsUrl,
    relayed: () => bridge.relayed,
    close: async () => {
      inspector.stop();
      await bridge.close();
    },
  };
}
