/**
 * What the crash campaign compares: per agent, its own entries without their random ids, and
 * its result; plus the journal's own exactly-once facts.
 */
import { readJournal } from '../../src/store/jsonl.js';
import { replayJournal } from '../../src/store/replay.js';
import type { Entry, JournalRecord } from '../../src/index.js';

function withoutId(entry: Entry): unknown {
  const { id: _id, ...rest } = entry;
  return rest;
}

/** The comparable outcome of a finished session's journal file. */
export function outcomeOf(file: string): { agents: Record<string, unknown>; duplicates: string[] } {
  return outcomeOfRecords(readJournal(file, false).records, file);
}

/** The comparable outcome of a finished session's records. */
export function outcomeOfRecords(records: readonly JournalRecord[], location: string): { agents: Record<string, unknown>; duplicates: string[] } {
  const image = replayJournal(records, location);
  const agents: Record<string, unknown> = {};
  for (const [path, agent] of image.agents) {
    // Entry ids and agents' own session ids are random per run; everything else must match.
    const result = agent.result ? { ...agent.result, sessionId: typeof agent.result.sessionId } : undefined;
    agents[path] = { entries: agent.entries.map(withoutId), result, delivered: agent.delivered, queued: agent.queued };
  }
  const duplicates: string[] = [];
  const ids = new Set<string>();
  const results = new Set<string>();
  for (const record of records) {
    if (record.type === 'advance' || record.type === 'result') {
      for (const entry of (record['entries'] as Entry[] | undefined) ?? []) {
        if (ids.has(entry.id)) duplicates.push(`entry ${entry.id}`);
        ids.add(entry.id);
      }
    }
    if (record.type === 'result') {
      const path = record['path'] as string;
      if (results.has(path)) duplicates.push(`result ${path}`);
      results.add(path);
    }
  }
  return { agents, duplicates };
}
