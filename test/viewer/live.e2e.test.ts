/**
 * The viewer in a real browser, live: `npm run demo -- --view` on a manual clock, so the
 * test moves the session forward itself and watches the page follow. Then the hosted
 * inspector's page, pointed at an address that cannot answer, says so and names the viewer.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.js';
import { LOCAL_VIEWER_HINT, OFFLINE_NOTE, startBridge } from '../../src/inspect/bridge.js';
import { manualClock } from '../../src/testing/index.js';
import type { ServedViewer } from '../../src/viewer/server.js';
import { buildPage, openBrowser, screenshotPath, type Browser } from './browser.js';

let pageDir: string;
let browser: Browser;

beforeAll(async () => {
  [pageDir, browser] = await Promise.all([buildPage(), openBrowser()]);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  if (pageDir) rmSync(pageDir, { recursive: true, force: true });
});

/** A text sink that can be awaited for a line. */
function sink() {
  let text = '';
  const waiting: Array<{ needle: string; resolve: () => void }> = [];
  return {
    sink: {
      isTTY: false,
      write: (chunk: string) => {
        text += chunk;
        for (const w of waiting.filter((w) => text.includes(w.needle))) {
          waiting.splice(waiting.indexOf(w), 1);
          w.resolve();
        }
        return true;
      },
    },
    text: () => text,
    saw: (needle: string) => (text.includes(needle) ? Promise.resolve() : new Promise<void>((resolve) => waiting.push({ needle, resolve }))),
  };
}

/** Each agent's state as the tree shows it. */
async function treeStates(): Promise<Record<string, string>> {
  const rows = await browser.page.$$eval('#tree li[data-path]', (items) => items.map((li) => [li.getAttribute('data-path') ?? '', li.getAttribute('data-state') ?? '']));
  return Object.fromEntries(rows);
}

describe('the live viewer (npm run demo -- --view)', () => {
  it('follows the demo as it runs, shows an agent on click, and stays served until its Stop button', async () => {
    const clock = manualClock();
    const out = sink();
    const err = sink();
    let served!: (viewer: ServedViewer) => void;
    const serving = new Promise<ServedViewer>((resolve) => (served = resolve));
    const exit = runCli(['--view', '--no-color'], { out: out.sink, err: err.sink, clock, pageDir, onViewer: served });
    const viewer = await Promise.race([serving, exit.then((code) => Promise.reject(new Error(`demo exited ${code}: ${err.text()}`)))]);
    expect(err.text()).toContain(`local viewer: open ${viewer.url}`);
    const over = err.saw('The session is over');
    let ended = false;
    void over.then(() => (ended = true));
    /** Moves the script's clock until `done` or the session ends (never past its end). */
    const drive = async (done: () => Promise<boolean>): Promise<void> => {
      while (!ended && !(await done())) {
        await Promise.race([clock.whenPending(1), over]);
        clock.advance(100);
      }
    };

    const { page } = browser;
    await page.goto(viewer.url);
    await page.waitForSelector('#tree li[data-path="/root"]');
    const first = await treeStates();
    // States change as the session moves: subagents appear and go through their states.
    await drive(async () => {
      const now = await treeStates();
      return Object.keys(now).length > 3 && Object.entries(now).some(([path, state]) => first[path] !== undefined && first[path] !== state);
    });
    expect(ended).toBe(false);
    const midway = await treeStates();
    expect(Object.keys(midway).length).toBeGreaterThan(Object.keys(first).length);
    expect(Object.values(midway).some((state) => state !== 'settled' && state !== 'cancelled')).toBe(true);

    // Clicking an agent shows its transcript and its state highlighted in the statechart.
    await page.click('#tree li[data-path="/root"] > button');
    await expect.poll(() => page.locator('#transcript .entry').count()).toBeGreaterThan(0);
    await expect.poll(async () => (await page.locator('#chart').getAttribute('data-current')) ?? '').not.toBe('');
    const rootState = await page.locator('#tree li[data-path="/root"]').getAttribute('data-state');
    await expect.poll(() => page.locator('#chart').getAttribute('data-state')).toBe(rootState);
    await page.screenshot({ path: screenshotPath('viewer-live.png') });

    // To the end: every agent final, the results there, and the page still served.
    await drive(async () => false);
    await over;
    await expect.poll(async () => Object.values(await treeStates()).every((state) => state === 'settled' || state === 'cancelled')).toBe(true);
    await page.click('#tree li[data-path="/root/failing-tests"] > button');
    await expect.poll(() => page.locator('#result').innerText()).toContain('completed');
    await page.waitForSelector('#chart[data-state="settled"]');
    expect(await page.locator('#status').innerText()).toContain('session over');
    expect(viewer.viewers).toBeGreaterThan(0);
    await page.click('#stop');
    expect(await exit).toBe(0);
    expect(out.text()).toContain('results for');
    expect(browser.problems).toEqual([]);
  });

  it('the inspector page says plainly when the hosted inspector cannot load, and where the local viewer is', async () => {
    // Port 9 (discard) on loopback: nothing answers, as for a machine without internet.
    const bridge = await startBridge({ inspectorUrl: 'http://127.0.0.1:9/inspect' });
    try {
      const { page } = browser;
      await page.goto(bridge.url);
      await page.waitForSelector('body[data-inspector="unavailable"]');
      expect(await page.locator('#offline').innerText()).toContain(OFFLINE_NOTE);
      expect(await page.locator('#offline').innerText()).toContain(LOCAL_VIEWER_HINT);
      await page.screenshot({ path: screenshotPath('inspector-offline.png') });
    } finally {
      await bridge.close();
    }
  });
});
