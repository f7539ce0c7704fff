/**
 * Test helpers for the request layer: EntrySeqs from plain arrays (so these tests do not
 * depend on the Dialogue implementation), entries with fixed ids, and a small preset catalog.
 */
import { assistantEntry, compactionEntry, toolResultEntry, userEntry, type Entry } from '../../src/dialogue/entry.js';
import type { EntrySeq } from '../../src/dialogue/types.js';
import type { PresetCatalog } from '../../src/request/preset.js';

/** A frozen EntrySeq over `entries`. */
export function seq(entries: readonly Entry[]): EntrySeq {
  const items = Object.freeze([...entries]);
  return Object.freeze({
    length: items.length,
    at: (index: number) => items.at(index),
    toArray: () => items,
    [Symbol.iterator]: () => items[Symbol.iterator](),
  });
}

/** A tiny parent dialogue with fixed ids: one finished turn with a tool call, then a question. */
export function parentDialogue(): Entry[] {
  return [
    userEntry({ id: 'u1', text: 'Check the build.' }),
    assistantEntry({ id: 'a1', text: 'Running it.', toolCalls: [{ id: 'call_1', name: 'shell', arguments: { cmd: 'npm test' } }] }),
    toolResultEntry({ id: 'r1', callId: 'call_1', toolName: 'shell', content: '2 failing' }),
    assistantEntry({ id: 'a2', text: 'Two tests fail.' }),
    userEntry({ id: 'u2', text: 'Find out why.' }),
  ];
}

/** A compaction followed by the turn it kept. */
export function compactedDialogue(): Entry[] {
  return [
    compactionEntry({ id: 'c1', summary: 'Earlier: the build was checked; two tests fail.', anchorId: 'u2' }),
    userEntry({ id: 'u2', text: 'Find out why.' }),
  ];
}

/** All five built-in tools, in order. */
export const ALL_TOOLS = ['Agent', 'send_message', 'list_agents', 'cancel_agent', 'close_agent'] as const;

/** A small catalog: `base`, `coder` (extends base, adds a host tool), `reviewer` (own prompt). */
export function catalog(): PresetCatalog {
  return {
    base: { name: 'base', systemPrompt: 'You are a careful engineer.', tools: [...ALL_TOOLS], defaults: { forkLifetime: 'continuable', model: 'm-large' } },
    coder: { name: 'coder', extends: 'base', tools: [...ALL_TOOLS, 'read_file'], defaults: { effort: 'high' } },
    reviewer: { name: 'reviewer', extends: 'base', systemPrompt: 'You review code strictly.' },
  };
}
