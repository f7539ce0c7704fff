/**
 * The local viewer's server: the built page, the session's feed as Server-Sent Events (the
 * whole history first, then each event as it happens), the agent machine's statechart as
 * Mermaid text, and a way for the page to ask the server to stop. Listens on 127.0.0.1 only
 * and needs no internet: the page and its renderer come from the package.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { agentMachine } from '../../machines/agent.machine.js';
import { machineToMermaid, mermaidId } from '../inspect/mermaid.js';
import { relativeId, stateNodesOf } from '../inspect/transitions.js';
import { ViewerError } from './errors.js';
import type { ViewerFeed } from './feed.js';
import { VIEWER_FORMAT } from './model/events.js';
import { findPageDir, pageFile } from './page-files.js';

/** Options of {@link serveViewer}. */
export interface ServeViewerOptions {
  /** The session to show. */
  readonly feed: ViewerFeed;
  /** The page's title (default `subagent-actors viewer`). */
  readonly title?: string;
  /** Port to listen on; 0 (default) picks a free one. */
  readonly port?: number;
  /** The built page's folder (default: the package's `dist/viewer/`). */
  readonly pageDir?: string;
}

/** What the page reads first (`GET /api/info`). */
export interface ViewerInfo {
  readonly format: number;
  readonly title: string;
  /** The agent machine's statechart, Mermaid `stateDiagram-v2` text. */
  readonly machine: string;
  /** Each state of the machine (`running.idle`) by its node id in that text (`running_idle`). */
  readonly states: Readonly<Record<string, string>>;
}

/** A running viewer. */
export interface ServedViewer {
  /** The page to open in a browser. */
  readonly url: string;
  /** Pages connected now (each open tab is one). */
  readonly viewers: number;
  /** Resolves when a page asked the server to stop (its Stop button). */
  readonly stopRequested: Promise<void>;
  /** Resolves the next time no page is connected (at once if none is). */
  whenNoViewers(): Promise<void>;
  /** Resolves when the next page connects. */
  nextViewer(): Promise<void>;
  /** Ends every page's feed and stops listening. */
  close(): Promise<void>;
}

let chart: { readonly machine: string; readonly states: Readonly<Record<string, string>> } | undefined;
/** The agent machine's diagram, drawn once per process (the machine never changes). */
function agentChart(): NonNullable<typeof chart> {
  chart ??= {
    machine: machineToMermaid(agentMachine),
    states: Object.fromEntries(stateNodesOf(agentMachine).slice(1).map((node) => [relativeId(node), mermaidId(node)])),
  };
  return chart;
}

/**
 * Serves `options.feed` to browsers on 127.0.0.1. Throws a {@link ViewerError}
 * (`page_missing`) when the page was not built, (`listen_failed`) when the port is taken.
 *
 * @example
 * const feed = new ViewerFeed(readFeed('trace.jsonl').events);
 * const viewer = await serveViewer({ feed });
 * console.log(`open ${viewer.url}`);
 * await viewer.stopRequested; // the page's Stop button
 * await viewer.close();
 */
export async function serveViewer(options: ServeViewerOptions): Promise<ServedViewer> {
  const pageDir = options.pageDir ?? findPageDir();
  if (pageDir === undefined || findPageDir([pageDir]) === undefined) {
    throw new ViewerError('page_missing', `the viewer page is not built${options.pageDir !== undefined ? ` in ${options.pageDir}` : ''}: run npm run build:viewer`);
  }
  const { feed } = options;
  const info: ViewerInfo = { format: VIEWER_FORMAT, title: options.title ?? 'subagent-actors viewer', ...agentChart() };
  const streams = new Set<ServerResponse>();
  let askStop: () => void = () => {};
  const stopRequested = new Promise<void>((resolve) => (askStop = resolve));
  let idleWaiters: Array<() => void> = [];
  let joinWaiters: Array<() => void> = [];
  let origin = '';

  const stream = (req: IncomingMessage, res: ServerResponse): void => {
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', connection: 'keep-alive' });
    const send = (event: unknown): void => void res.write(`data: ${JSON.stringify(event)}\n\n`);
    for (const event of feed.history) send(event);
    const unsubscribe = feed.subscribe(send);
    streams.add(res);
    for (const resolve of joinWaiters.splice(0)) resolve();
    req.once('close', () => {
      unsubscribe();
      streams.delete(res);
      if (streams.size === 0) for (const resolve of idleWaiters.splice(0)) resolve();
    });
  };

  const server = createServer((req, res) => {
    // Only pages of this server talk to it (a page elsewhere cannot reach it by a rebound name).
    if (req.headers.host !== origin) {
      res.writeHead(421, { 'content-type': 'text/plain' }).end('wrong host\n');
      return;
    }
    const url = new URL(req.url ?? '/', `http://${origin}`);
    if (url.pathname === '/api/events' && req.method === 'GET') return stream(req, res);
    if (url.pathname === '/api/info' && req.method === 'GET') {
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify(info));
      return;
    }
    if (url.pathname === '/api/stop' && req.method === 'POST') {
      res.writeHead(204).end();
      askStop();
      return;
    }
    const file = req.method === 'GET' ? pageFile(pageDir, url.pathname) : undefined;
    if (!file) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    res.writeHead(200, { 'content-type': file.type }).end(file.body);
  });
  const address = await new Promise<AddressInfo>((resolve, reject) => {
    server.once('error', (error) => reject(new ViewerError('listen_failed', `the viewer cannot listen on 127.0.0.1:${options.port ?? 0}: ${error.message}`, { cause: error })));
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve(server.address() as AddressInfo));
  });
  origin = `127.0.0.1:${address.port}`;
  return {
    url: `http://${origin}/`,
    get viewers() {
      return streams.size;
    },
    stopRequested,
    whenNoViewers: () => (streams.size === 0 ? Promise.resolve() : new Promise((resolve) => idleWaiters.push(resolve))),
    nextViewer: () => new Promise((resolve) => joinWaiters.push(resolve)),
    close: async () => {
      for (const res of streams) res.end();
      streams.clear();
      for (const resolve of [...idleWaiters.splice(0), ...joinWaiters.splice(0)]) resolve();
      idleWaiters = [];
      joinWaiters = [];
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
