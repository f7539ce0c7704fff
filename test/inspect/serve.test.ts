/**
 * `serveInspector`: a local page and relay for the Stately inspector. A browser connecting
 * after the session still gets every message; nothing is left open after `close`.
 */
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { bridgePage } from '../../src/inspect/bridge.js';
import { serveInspector } from '../../src/inspect/serve.js';
import { createRuntime } from '../../src/runtime/runtime.js';
import { MARKER, Received, ONE_SHOT_FORKS, sessionModel, SYSTEM_PROMPT } from './helpers.js';

/** Connects a "browser" to the relay and collects what it is sent. */
function browser(wsUrl: string): Promise<{ received: Received; close(): Promise<void> }> {
  const received = new Received();
  const ws = new WebSocket(wsUrl);
  ws.on('message', (data) => received.add(data.toString()));
  return new Promise((resolve, reject) => {
    ws.once('error', reject);
    ws.once('open', () =>
      resolve({
        received,
        close: () => new Promise<void>((done) => (ws.once('close', () => done()), ws.close())),
      }),
    );
  });
}

describe('serveInspector', () => {
  it('relays a whole session, sanitized, to a browser that connects afterwards', async () => {
    const lines: string[] = [];
    const served = await serveInspector({ log: (line) => lines.push(line) });
    expect(lines).toEqual([`Stately inspector: ${served.url}`]);
    expect(served.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);

    const rt = createRuntime({ model: sessionModel(), systemPrompt: SYSTEM_PROMPT, ...ONE_SHOT_FORKS, inspect: served.inspect });
    rt.prompt(`Please find the answer. ${MARKER}`);
    await rt.whenQuiet();
    const page = await fetch(served.url);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(await page.text()).toContain('https://stately.ai/inspect');

    const viewer = await browser(served.wsUrl);
    await viewer.received.until(() => viewer.received.about('/root/research', '@xstate.snapshot').some((m) => m.snapshot?.status === 'done'));
    expect(viewer.received.about('/root', '@xstate.actor')).toHaveLength(1);
    expect(viewer.received.about('/root/research', '@xstate.actor')).toHaveLength(1);
    expect(viewer.received.raw.filter((t) => t.includes(MARKER) || t.includes(SYSTEM_PROMPT))).toEqual([]);
    expect(served.relayed()).toBeGreaterThanOrEqual(viewer.received.raw.length);

    await viewer.close();
    await served.close();
    await expect(fetch(served.url)).rejects.toThrow();
  });

  it('serves a page that feeds the embedded inspector from the relay', () => {
    const html = bridgePage('https://example.test/inspect');
    expect(html).toContain('"https://example.test/inspect"');
    expect(html).toContain("new WebSocket('ws://' + location.host)");
    expect(html).toContain('@statelyai.connected');
  });
});
