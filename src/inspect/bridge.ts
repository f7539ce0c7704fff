/**
 * A local relay between an app's WebSocket inspector and the Stately inspector in a browser:
 * an HTTP page that embeds the inspector and a WebSocket endpoint that forwards every
 * message from one client to all others, replaying earlier ones to late joiners.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { WebSocket, WebSocketServer } from 'ws';

/** Options of {@link startBridge}. */
export interface BridgeOptions {
  /** Port to listen on; 0 (default) picks a free one. */
  readonly port?: number;
  /** Interface to listen on (default `127.0.0.1`: local only). */
  readonly host?: string;
  /** The inspector UI the page embeds (default `https://stately.ai/inspect`). */
  readonly inspectorUrl?: string;
  /** Messages replayed to a browser that connects late (default 10 000). */
  readonly replay?: number;
}

/** A running relay. */
export interface Bridge {
  /** The page to open in a browser. */
  readonly url: string;
  /** Where inspectors connect (`ws://127.0.0.1:<port>`). */
  readonly wsUrl: string;
  /** Resolves with the next WebSocket client that connects. */
  nextClient(): Promise<void>;
  /** Number of messages relayed so far. */
  readonly relayed: number;
  /** Closes every connection and both servers. */
  close(): Promise<void>;
}

/** What the page says when the hosted inspector cannot load (offline, blocked, down). */
export const OFFLINE_NOTE = 'The Stately inspector could not load: it is a hosted page and needs internet.';

/** Where the page points instead. */
export const LOCAL_VIEWER_HINT = 'The local viewer needs none: npm run demo -- --view, or npx subagent-actors view <journal or trace>.';

/**
 * The page: the inspector in an iframe, fed from this bridge's WebSocket. When the hosted
 * inspector cannot be reached, or has not said it is connected within `waitMs`, the page
 * says so plainly and names the local viewer, instead of showing a blank frame.
 */
export function bridgePage(inspectorUrl: string, waitMs = 15_000): string {
  const src = JSON.stringify(inspectorUrl);
  const escape = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return `<!DOCTYPE html>
<html>
<head><meta charset="utf-8"><title>subagent-actors: Stately inspector</title>
<style>html,body,iframe{margin:0;width:100%;height:100%;border:0}
#offline{display:none;position:fixed;inset:0;background:#fff;color:#222;font:16px/1.5 system-ui,sans-serif;padding:3em}
body[data-inspector="unavailable"] #offline{display:block}
#offline code{background:#f2f2f2;padding:0 .3em}</style></head>
<body data-inspector="loading">
<iframe id="inspector"></iframe>
<div id="offline" role="alert"><h1>Inspector unavailable</h1><p id="offline-note">${escape(OFFLINE_NOTE)}</p><p id="offline-hint">${escape(LOCAL_VIEWER_HINT)}</p><p>Address tried: <code>${escape(inspectorUrl)}</code></p></div>
<script>
  const iframe = document.getElementById('inspector');
  const unavailable = () => { if (!connected) document.body.dataset.inspector = 'unavailable'; };
  iframe.src = ${src};
  const pending = [];
  let connected = false;
  // An unreachable address fails this fetch; a reachable page that never connects times out.
  fetch(${src}, { mode: 'no-cors', cache: 'no-store' }).catch(unavailable);
  setTimeout(unavailable, ${Math.max(0, Math.floor(waitMs))});
  window.addEventListener('message', (e) => {
    if (e.data && e.data.type === '@statelyai.connected') {
      connected = true;
      document.body.dataset.inspector = 'connected';
      for (const m of pending.splice(0)) iframe.contentWindow.postMessage(m, '*');
    }
  });
  const ws = new WebSocket('ws://' + location.host);
  ws.onmessage = (e) => {
    const data = JSON.parse(e.data);
    if (connected) iframe.contentWindow.postMessage(data, '*');
    else pending.push(data);
  };
</script>
</body>
</html>`;
}

function listen(server: Server, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server.address() as AddressInfo));
  });
}

/** Starts a relay. Needs the `ws` package (a dependency of `@statelyai/inspect`). */
export async function startBridge(options: BridgeOptions = {}): Promise<Bridge> {
  const { WebSocketServer: Wss } = await import('ws');
  const inspectorUrl = options.inspectorUrl ?? 'https://stately.ai/inspect';
  const limit = options.replay ?? 10_000;
  const http = createServer((_, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(bridgePage(inspectorUrl));
  });
  const wss: WebSocketServer = new Wss({ server: http });
  const history: string[] = [];
  let relayed = 0;
  const waiting: Array<() => void> = [];
  wss.on('connection', (ws: WebSocket) => {
    for (const message of history) ws.send(message);
    for (const resolve of waiting.splice(0)) resolve();
    ws.on('message', (data) => {
      const message = data.toString();
      relayed++;
      history.push(message);
      if (history.length > limit) history.shift();
      for (const client of wss.clients) if (client !== ws && client.readyState === client.OPEN) client.send(message);
    });
  });
  const address = await listen(http, options.port ?? 0, options.host ?? '127.0.0.1');
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}/`,
    wsUrl: `ws://${host}:${address.port}`,
    nextClient: () => new Promise((resolve) => waiting.push(resolve)),
    get relayed() {
      return relayed;
    },
    close: async () => {
      const closing = [...wss.clients].map((client) => new Promise<void>((resolve) => {
        client.once('close', () => resolve());
        client.close();
      }));
      await Promise.all(closing);
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
