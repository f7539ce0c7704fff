/**
 * A live session as a viewer feed (no browser): the demo run with `liveFeed`'s inspection
 * tap and store folds into the same agents, final states, entries and results as the
 * journal the same run wrote; resuming feeds the journal's history first.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runDemoSession } from '../../src/cli/session.js';
import { createJsonlStore, openJsonlStore } from '../../src/index.js';
import { readJournal } from '../../src/store/jsonl.js';
import { shownStateOf } from './journaled-state.js';
import { replayJournal } from '../../src/store/replay.js';
import { manualClock } from '../../src/testing/index.js';
import { liveFeed } from '../../src/viewer/live.js';
import { foldEvents } from '../../src/viewer/model/fold.js';

const quiet = { write: () => true };

describe('liveFeed', () => {
  it('a session seen live folds into what its journal holds', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'viewer-live-'));
    try {
      const live = liveFeed({ sessionId: 'demo-release-2.0' });
      const store = createJsonlStore({ dir, sessionId: 'demo-release-2.0' });
      await runDemoSession({ out: quiet, tty: false, latencyScale: 0, clock: manualClock(), store: live.store(store), inspect: live.inspect });
      await store.close();
      live.end('the session ended');
      const image = replayJournal(readJournal(join(dir, 'demo-release-2.0.jsonl'), false).records, 'journal');
      const view = foldEvents(live.feed.history);
      expect(live.feed.ended).toBe(true);
      expect(view.source).toBe('live');
      expect([...view.agents.keys()].sort()).toEqual([...image.agents.keys()].sort());
      for (const [path, agent] of image.agents) {
        const shown = view.agents.get(path)!;
        expect(shown.state, path).toBe(shownStateOf(agent));
        expect(shown.entries.map((e) => e.id), path).toEqual(agent.entries.map((e) => e.id));
        expect(shown.result?.status, path).toBe(agent.result?.status);
        expect(shown.role, path).toBe(agent.spawn.role ?? undefined);
      }
      // Live states are every state the inspection saw, more than the journal records.
      const states = live.feed.history.filter((e) => e.type === 'state' && e.path === '/root').map((e) => (e.type === 'state' ? e.state : ''));
      expect(new Set(states).size).toBeGreaterThan(3);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('without a journal the store only feeds the page; resuming feeds the history first', async () => {
    const live = liveFeed({ sessionId: 'demo-release-2.0' });
    const store = live.store();
    expect(store.loaded).toEqual([]);
    await runDemoSession({ out: quiet, tty: false, latencyScale: 0, clock: manualClock(), store, inspect: live.inspect });
    await store.close();
    expect(() => store.append({ type: 'release', path: '/root' })).toThrow(/closed/);
    expect([...foldEvents(live.feed.history).agents.values()].every((a) => a.state === 'settled' || a.state === 'cancelled')).toBe(true);

    const dir = mkdtempSync(join(tmpdir(), 'viewer-live-'));
    try {
      const first = createJsonlStore({ dir, sessionId: 'demo-release-2.0' });
      await runDemoSession({ out: quiet, tty: false, latencyScale: 0, clock: manualClock(), store: first });
      await first.close();
      const again = liveFeed({ sessionId: 'demo-release-2.0' });
      const reopened = openJsonlStore({ dir });
      again.store(reopened);
      await reopened.close();
      const view = foldEvents(again.feed.history);
      const image = replayJournal(reopened.loaded, 'journal');
      for (const [path, agent] of image.agents) expect(view.agents.get(path)?.state, path).toBe(shownStateOf(agent));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
