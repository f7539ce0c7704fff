/**
 * The viewer's feeds, folded as the page folds them: the demo's journal and trace give the
 * agents, states, transcripts, usage and results the journal's own replay and the runtime's
 * results have; broken files are refused with a typed error naming the line.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readJournal } from '../../src/store/jsonl.js';
import { shownStateOf } from './journaled-state.js';
import { replayJournal, type SessionImage } from '../../src/store/replay.js';
import { ViewerError } from '../../src/viewer/errors.js';
import { ViewerFeed } from '../../src/viewer/feed.js';
import { addUsage, foldEvents, isFinal, messagesOf, subtreeUsage } from '../../src/viewer/model/fold.js';
import { readFeed } from '../../src/viewer/read-feed.js';
import { thrown } from '../thrown.js';
import { writeDemoFiles, type DemoFiles } from './demo-files.js';

let files: DemoFiles;
let image: SessionImage;

beforeAll(async () => {
  files = await writeDemoFiles();
  image = replayJournal(readJournal(files.journal, false).records, files.journal);
});
afterAll(() => rmSync(files.dir, { recursive: true, force: true }));

describe('a journal as a viewer feed', () => {
  it('folds into every agent the journal holds, in its final state, with its own entries and result', () => {
    const feed = readFeed(files.journal);
    expect(feed.kind).toBe('journal');
    const view = foldEvents(new ViewerFeed(feed.events).history);
    expect(view.sessionId).toBe(image.sessionId);
    expect([...view.agents.keys()]).toEqual([...image.agents.keys()]);
    for (const [path, agent] of image.agents) {
      const shown = view.agents.get(path)!;
      expect(shown.state).toBe(shownStateOf(agent));
      expect(shown.entries.map((e) => e.id)).toEqual(agent.entries.map((e) => e.id));
      expect(shown.result?.status).toBe(agent.result?.status);
      expect(shown.usage?.inputTokens).toBe(agent.result?.usage.inputTokens);
      expect(shown.role).toBe(agent.spawn.role ?? undefined);
      expect(shown.parent).toBe(agent.spawn.parent);
    }
    expect(view.ended).toBe('end of the journal');
  });

  it('adds up each subtree as the runtime did in its results', () => {
    const view = foldEvents(new ViewerFeed(readFeed(files.journal).events).history);
    const agents = [...image.agents.values()];
    // Subagents with subagents of their own (the root's result is its cancellation by stop).
    const withSubagents = agents.filter((a) => a.spawn.parent !== null && agents.some((c) => c.spawn.parent === a.spawn.path));
    expect(withSubagents.length).toBeGreaterThan(0);
    for (const agent of withSubagents) {
      const sum = subtreeUsage(view, agent.spawn.path)!;
      expect(sum.inputTokens).toBe(agent.result!.subtreeUsage.inputTokens);
      expect(sum.outputTokens).toBe(agent.result!.subtreeUsage.outputTokens);
      expect(sum.requests).toBe(agent.result!.subtreeUsage.requests);
      expect(sum.inputTokens).toBeGreaterThan(agent.result!.usage.inputTokens);
    }
  });

  it('shows each subagent its task from its parent, and the parent the notices it got', () => {
    const view = foldEvents(new ViewerFeed(readFeed(files.journal).events).history);
    for (const [path, agent] of view.agents) {
      if (agent.parent === null) continue;
      expect(messagesOf(view, path).some((m) => m.kind === 'task' && m.from === agent.parent && m.to === path)).toBe(true);
    }
    const notices = view.messages.filter((m) => m.kind === 'notice');
    for (const notice of notices) expect(view.agents.get(notice.from)?.parent).toBe(notice.to);
  });

  it('keeps a fork’s prefix sharing and its inherited entries, and a scrubbed prefix shows less', () => {
    const events = new ViewerFeed(readFeed(files.journal).events).history;
    const view = foldEvents(events);
    const fork = [...view.agents.values()].find((a) => a.context === 'all')!;
    expect(fork.inherited).toBeGreaterThan(0);
    expect(fork.prefix?.sharedBytes).toBeGreaterThan(0);
    const early = foldEvents(events, Math.floor(events.length / 3));
    expect(early.agents.size).toBeLessThanOrEqual(view.agents.size);
    expect([...early.agents.values()].some((a) => !isFinal(a.state))).toBe(true);
    expect(early.ended).toBeUndefined();
  });
});

describe('a trace as a viewer feed', () => {
  it('shows the journal’s agents in their final states, states only', () => {
    const feed = readFeed(files.trace);
    expect(feed.kind).toBe('trace');
    const view = foldEvents(new ViewerFeed(feed.events).history);
    expect(new Set(view.agents.keys())).toEqual(new Set(image.agents.keys()));
    for (const [path, agent] of image.agents) expect(view.agents.get(path)!.state).toBe(shownStateOf(agent));
    expect([...view.agents.values()].every((a) => a.entries.length === 0)).toBe(true);
    // Every event of a trace has its time, and only state changes are kept.
    const events = feed.events.filter((e) => e.type === 'state');
    expect(events.every((e) => typeof e.t === 'number')).toBe(true);
    const seen = new Map<string, string>();
    for (const event of events) {
      if (event.type !== 'state') continue;
      expect(seen.get(event.path)).not.toBe(event.state);
      seen.set(event.path, event.state);
    }
  });
});

describe('files the viewer cannot open', () => {
  const write = (name: string, text: string): string => {
    const file = join(files.dir, name);
    writeFileSync(file, text);
    return file;
  };

  it.each([
    ['a missing file', () => join(files.dir, 'missing.jsonl'), 'unreadable_file', /cannot read/],
    ['an empty file', () => write('empty.jsonl', '\n'), 'unknown_format', /is empty/],
    ['a file that is not JSON', () => write('text.jsonl', 'hello\n'), 'unreadable_file', /:1 is not JSON/],
    ['JSON of neither kind', () => write('other.jsonl', '{"a":1}\n'), 'unknown_format', /neither a journal/],
    ['a trace with a broken line', () => write('trace-bad.jsonl', '{"t":1,"kind":"actor","actor":"/root"}\nnope\n'), 'unreadable_file', /:2 is not JSON/],
    ['a trace with a foreign record', () => write('trace-foreign.jsonl', '{"t":1,"kind":"actor","actor":"/root"}\n{"x":2}\n'), 'unknown_format', /:2 is not a trace record/],
    ['a journal with a broken line', () => write('journal-bad.jsonl', '{"type":"session","format":2,"sessionId":"s","createdAt":1}\n{"type":"nonsense"}\n{"type":"release","path":"/root"}\n'), 'unreadable_file', /journal-bad\.jsonl:2/],
    ['a journal of a newer format', () => write('journal-new.jsonl', '{"type":"session","format":99,"sessionId":"s","createdAt":1}\n'), 'unreadable_file', /newer format/],
  ] as const)('refuses %s with a typed error', (_, file, code, message) => {
    const error = thrown(() => readFeed(file()), ViewerError);
    expect(error.code).toBe(code);
    expect(error.message).toMatch(message);
  });
});

describe('usage sums', () => {
  const usage = { inputTokens: 10, outputTokens: 2, cacheReadTokens: 4, cacheWriteTokens: 1, requests: 1 };
  it('keep a cost only when both sides have one', () => {
    expect(addUsage({ ...usage, cost: 1 }, { ...usage, cost: 2 })).toEqual({ inputTokens: 20, outputTokens: 4, cacheReadTokens: 8, cacheWriteTokens: 2, requests: 2, cost: 3 });
    expect(addUsage({ ...usage, cost: 1 }, usage).cost).toBeUndefined();
  });
});
