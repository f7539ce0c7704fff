/**
 * The viewer's server over plain HTTP: the page's files and nothing outside them, the feed
 * as Server-Sent Events (history, then live), the statechart, the Stop request, and typed
 * errors for a page that was not built or a port that is taken.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { runViewCommand } from '../../src/viewer/cli.js';
import { ViewerError } from '../../src/viewer/errors.js';
import { ViewerFeed } from '../../src/viewer/feed.js';
import type { ViewerEvent } from '../../src/viewer/model/events.js';
import { serveViewer, type ServedViewer, type ViewerInfo } from '../../src/viewer/server.js';

const pageDir = mkdtempSync(join(tmpdir(), 'viewer-server-'));
writeFileSync(join(pageDir, 'index.html'), '<!DOCTYPE html><title>viewer</title>');
mkdirSync(join(pageDir, 'assets'));
writeFileSync(join(pageDir, 'assets', 'main.js'), 'export {};');
writeFileSync(join(tmpdir(), 'viewer-secret.txt'), 'secret');
afterAll(() => {
  rmSync(pageDir, { recursive: true, force: true });
  rmSync(join(tmpdir(), 'viewer-secret.txt'), { force: true });
});

let served: ServedViewer | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

const session = { type: 'session', format: 1, sessionId: 's', source: 'live', label: 'live' } as const;

/** A raw GET (fetch would normalise `..` away and set its own Host). */
function get(url: string, path: string, host?: string): Promise<{ status: number; type: string | undefined; body: string }> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: host ? { host } : {} }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, type: res.headers['content-type'], body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Reads Server-Sent Events from `/api/events` until `count` arrived; returns them and the open response's abort. */
async function readEvents(url: string, count: number, abort: AbortController): Promise<ViewerEvent[]> {
  const res = await fetch(new URL('/api/events', url), { signal: abort.signal });
  expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  const events: ViewerEvent[] = [];
  while (events.length < count) {
    const { value, done } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
    let cut: number;
    while ((cut = text.indexOf('\n\n')) >= 0) {
      events.push(JSON.parse(text.slice(0, cut).replace(/^data: /, '')) as ViewerEvent);
      text = text.slice(cut + 2);
    }
  }
  return events;
}

describe('serveViewer', () => {
  it('serves the page and its files, and nothing outside its folder', async () => {
    served = await serveViewer({ feed: new ViewerFeed([session]), pageDir });
    expect(served.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const page = await get(served.url, '/');
    expect(page).toMatchObject({ status: 200, type: 'text/html; charset=utf-8' });
    expect(page.body).toContain('<title>viewer</title>');
    expect(await get(served.url, '/assets/main.js')).toMatchObject({ status: 200, type: 'text/javascript; charset=utf-8' });
    for (const path of ['/../viewer-secret.txt', '/..%2fviewer-secret.txt', '/assets/../../viewer-secret.txt', '/%E0%A4%A', '/assets']) {
      expect((await get(served.url, path)).status, path).toBe(404);
    }
  });

  it('answers only requests addressed to it by its own host name', async () => {
    served = await serveViewer({ feed: new ViewerFeed([session]), pageDir });
    expect((await get(served.url, '/', 'attacker.example:80')).status).toBe(421);
    expect((await get(served.url, '/api/info', 'localhost.evil')).status).toBe(421);
  });

  it('gives the agent machine’s statechart and the id of each state in it', async () => {
    served = await serveViewer({ feed: new ViewerFeed([session]), pageDir, title: 'my session' });
    const info = JSON.parse((await get(served.url, '/api/info')).body) as ViewerInfo;
    expect(info.title).toBe('my session');
    expect(info.machine.startsWith('stateDiagram-v2\n')).toBe(true);
    for (const state of ['running.working.sampling', 'running.idle', 'settled', 'cancelled', 'preparingSummary']) {
      const id = info.states[state]!;
      expect(info.machine).toContain(`as ${id}`);
    }
  });

  it('streams the history to a page that connects late, then each new event, and counts open pages', async () => {
    const feed = new ViewerFeed([session, { type: 'agent', path: '/root', parent: null }]);
    served = await serveViewer({ feed, pageDir });
    expect(served.viewers).toBe(0);
    const abort = new AbortController();
    const joined = served.nextViewer();
    const reading = readEvents(served.url, 3, abort);
    await joined;
    expect(served.viewers).toBe(1);
    feed.push({ type: 'state', path: '/root', state: 'running.idle' });
    const events = await reading;
    expect(events.map((e) => [e.seq, e.type])).toEqual([
      [0, 'session'],
      [1, 'agent'],
      [2, 'state'],
    ]);
    const gone = served.whenNoViewers();
    abort.abort();
    await gone;
    expect(served.viewers).toBe(0);
  });

  it('resolves stopRequested when the page asks the server to stop', async () => {
    served = await serveViewer({ feed: new ViewerFeed([session]), pageDir });
    let stopped = false;
    void served.stopRequested.then(() => (stopped = true));
    expect((await fetch(new URL('/api/stop', served.url))).status).toBe(404);
    await Promise.resolve();
    expect(stopped).toBe(false);
    expect((await fetch(new URL('/api/stop', served.url), { method: 'POST' })).status).toBe(204);
    await served.stopRequested;
    expect(stopped).toBe(true);
  });

  it('ends open feeds when it closes', async () => {
    served = await serveViewer({ feed: new ViewerFeed([session]), pageDir });
    const res = await fetch(new URL('/api/events', served.url));
    const reader = res.body!.getReader();
    await reader.read();
    await served.close();
    served = undefined;
    expect((await reader.read()).done).toBe(true);
  });

  it('refuses a page folder without a built page, and a port that is taken', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'viewer-empty-'));
    try {
      const missing = await serveViewer({ feed: new ViewerFeed(), pageDir: empty }).catch((error: unknown) => error);
      expect(missing).toBeInstanceOf(ViewerError);
      expect(missing).toMatchObject({ code: 'page_missing', message: expect.stringContaining('npm run build:viewer') });
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const taken = await serveViewer({ feed: new ViewerFeed(), pageDir, port }).catch((error: unknown) => error);
      expect(taken).toMatchObject({ code: 'listen_failed', message: expect.stringContaining(`127.0.0.1:${port}`) });
    } finally {
      await new Promise<void>((resolve) => blocker.close(() => resolve()));
    }
  });
});

describe('subagent-actors view', () => {
  const run = async (argv: string[], extra: { pageDir?: string; signal?: AbortSignal } = {}) => {
    let out = '';
    let err = '';
    const code = await runViewCommand(argv, { out: { write: (t: string) => (out += t) }, err: { write: (t: string) => (err += t) }, ...extra });
    return { code, out, err };
  };

  it.each([
    [[], /name a command: view/],
    [['show', 'x'], /unknown command "show"/],
    [['view'], /view takes one FILE/],
    [['view', 'a', 'b'], /view takes one FILE/],
    [['view', 'a', '--port', 'http'], /--port takes a port number/],
    [['view', 'a', '--nope'], /Unknown option/],
  ])('refuses %j with usage and exit code 2', async (argv, message) => {
    const { code, err } = await run(argv);
    expect(code).toBe(2);
    expect(err).toMatch(message);
    expect(err).toContain('Usage: subagent-actors view FILE');
  });

  it('prints its help', async () => {
    const { code, out } = await run(['--help']);
    expect(code).toBe(0);
    expect(out).toContain('Usage: subagent-actors view FILE');
  });

  it('says why a file cannot be opened, with exit code 1 and nothing served', async () => {
    const { code, err } = await run(['view', join(pageDir, 'missing.jsonl')], { pageDir });
    expect(code).toBe(1);
    expect(err).toMatch(/cannot read .*missing\.jsonl/);
  });

  it('serves a file until it is stopped', async () => {
    const file = join(pageDir, 'trace.jsonl');
    writeFileSync(file, '{"t":1,"kind":"actor","actor":"/root"}\n{"t":2,"kind":"snapshot","actor":"/root","event":"x","state":"running.idle"}\n');
    const stop = new AbortController();
    stop.abort();
    const { code, out } = await run(['view', file], { pageDir, signal: stop.signal });
    expect(code).toBe(0);
    expect(out).toMatch(/open http:\/\/127\.0\.0\.1:\d+\/ \(the trace .*trace\.jsonl, 4 events\)/);
    expect(out).toContain('viewer stopped');
  });
});
