/**
 * The viewer in a real browser, replaying what the demo wrote: its journal (`--journal`)
 * and its trace (`--record`), opened with the package's command (`subagent-actors view`).
 * Scrubbing to the end shows every agent's final state, as the journal's own replay has it.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readJournal } from '../../src/store/jsonl.js';
import { shownStateOf } from './journaled-state.js';
import { replayJournal } from '../../src/store/replay.js';
import { runViewCommand } from '../../src/viewer/cli.js';
import type { ServedViewer } from '../../src/viewer/server.js';
import { buildPage, openBrowser, screenshotPath, type Browser } from './browser.js';
import { writeDemoFiles } from './demo-files.js';

let pageDir: string;
let work: string;
let journal: string;
let trace: string;
let browser: Browser;

beforeAll(async () => {
  ({ dir: work, journal, trace } = await writeDemoFiles());
  [pageDir, browser] = await Promise.all([buildPage(), openBrowser()]);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  rmSync(work, { recursive: true, force: true });
  if (pageDir) rmSync(pageDir, { recursive: true, force: true });
});

/** Runs `subagent-actors view FILE` until `use` is done with the served page, then stops it. */
async function viewing(file: string, use: (viewer: ServedViewer) => Promise<void>): Promise<string> {
  const stop = new AbortController();
  let out = '';
  let served!: (viewer: ServedViewer) => void;
  const serving = new Promise<ServedViewer>((resolve) => (served = resolve));
  const exit = runViewCommand(['view', file], { out: { write: (t: string) => (out += t) }, err: { write: (t: string) => (out += t) }, signal: stop.signal, pageDir, onServing: served });
  const viewer = await Promise.race([serving, exit.then((code) => Promise.reject(new Error(`view exited ${code}: ${out}`)))]);
  try {
    await use(viewer);
  } finally {
    stop.abort();
    expect(await exit).toBe(0);
  }
  return out;
}

/** Each agent's state as the tree shows it. */
async function treeStates(): Promise<Record<string, string>> {
  const rows = await browser.page.$$eval('#tree li[data-path]', (items) => items.map((li) => [li.getAttribute('data-path') ?? '', li.getAttribute('data-state') ?? '']));
  return Object.fromEntries(rows);
}

/** Moves the timeline to `value` as a person dragging it would (an input event per move). */
async function scrubTo(value: number | 'end'): Promise<void> {
  const timeline = browser.page.locator('#timeline');
  const target = value === 'end' ? await timeline.getAttribute('max') : String(value);
  await timeline.fill(target ?? '0');
}

describe('the viewer replays the demo', () => {
  it('opens the journal; scrubbing to the end shows every agent in its final state', async () => {
    const { records } = readJournal(journal, false);
    const expected = Object.fromEntries([...replayJournal(records, journal).agents].map(([path, agent]) => [path, shownStateOf(agent)]));
    expect(Object.values(expected).every((state) => state === 'settled' || state === 'cancelled')).toBe(true);
    const out = await viewing(journal, async (viewer) => {
      const { page } = browser;
      await page.goto(viewer.url);
      await page.waitForSelector('#tree li[data-path="/root"]');
      // The start of the timeline: only the session's first events.
      await scrubTo(1);
      expect(Object.keys(await treeStates()).length).toBeLessThan(Object.keys(expected).length);
      // Halfway, some agents still work.
      const max = Number(await page.locator('#timeline').getAttribute('max'));
      await scrubTo(Math.floor(max / 2));
      const halfway = await treeStates();
      expect(Object.values(halfway).some((state) => state !== 'settled' && state !== 'cancelled')).toBe(true);
      await scrubTo('end');
      expect(await treeStates()).toEqual(expected);
      await page.click('#tree li[data-path="/root/failing-tests"] > button');
      await page.waitForSelector('#chart[data-current="settled"]');
      await expect.poll(() => page.locator('#transcript .entry').count()).toBeGreaterThan(2);
      expect(await page.locator('#result').innerText()).toContain('completed');
      await page.screenshot({ path: screenshotPath('viewer-replay.png') });
    });
    expect(out).toContain('journal');
    expect(browser.problems).toEqual([]);
  });

  it('opens the trace: the same agents, in the same final states, without transcripts', async () => {
    const { records } = readJournal(journal, false);
    const expected = Object.fromEntries([...replayJournal(records, journal).agents].map(([path, agent]) => [path, shownStateOf(agent)]));
    await viewing(trace, async (viewer) => {
      const { page } = browser;
      await page.goto(viewer.url);
      await page.waitForSelector('#tree li[data-path="/root"]');
      await scrubTo('end');
      expect(await treeStates()).toEqual(expected);
      await page.click('#tree li[data-path="/root/release-notes"] > button');
      await page.waitForSelector('#chart[data-current="settled"]');
      expect(await page.locator('#transcript').innerText()).toContain('A trace records states');
      await page.screenshot({ path: screenshotPath('viewer-trace.png') });
    });
    expect(browser.problems).toEqual([]);
  });
});
