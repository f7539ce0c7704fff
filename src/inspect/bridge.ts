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

/** The page: the inspector in an iframe, fed from this bridge's WebSocket. */
export function bridgePage(inspectorUrl: string): string {
  const src = JSON.stringify(inspectorUrl);
  return `<!DOCTYPE html>
<html>
<head><meta charset="utf-8"><title>subagent-actors: Stately inspector</title>
<style>html,body,iframe{margin:0;width:100%;height:100%;border:0}</style></head>
<body>
<iframe id="inspector"></iframe>
<script>
  const iframe = document.getElementById('inspector');
  iframe.src = ${src};
  const pending = [];
  let connected = false;
  window.addEventListener('message', (e) => {
    if (e.data && e.data.type === '@statelyai.connected') {
      connected = true;
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
