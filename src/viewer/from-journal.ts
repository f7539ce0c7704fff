/**
 * A session journal (the records a `SessionStore` holds, header first) as a viewer feed:
 * descriptors become agents, advances become states, entries and usage, results stay results.
 * Journals carry no clock, so the feed's events have no time: the timeline counts records.
 */
import type { Entry } from '../dialogue/entry.js';
import type { AdvanceRecord, HookRecord, ResultRecord, SpawnRecord } from '../store/records.js';
import type { JournalRecord } from '../store/types.js';
import { viewerEntry, viewerPrefix, viewerResult, viewerUsage } from './entries.js';
import { VIEWER_FORMAT, type UnstampedEvent } from './model/events.js';

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** What {@link journalRecordEvents} gives of a record. */
export interface JournalRecordOptions {
  /**
   * Whether advances and results give `state` events (default true). A live session's
   * states come from its inspection, which sees every state, not only the journaled ones.
   */
  readonly states?: boolean;
}

/**
 * The viewer events of one journal record (not the header). Records of types the viewer
 * does not show (blobs, releases) give none.
 */
export function journalRecordEvents(record: JournalRecord, options: JournalRecordOptions = {}): UnstampedEvent[] {
  const states = options.states !== false;
  const out: UnstampedEvent[] = [];
  switch (record.type) {
    case 'spawn':
      out.push(agentOf(record as unknown as SpawnRecord));
      break;
    case 'hook': {
      const hook = record as unknown as HookRecord;
      out.push({ type: 'agent', path: hook.path, parent: null, task: hook.task });
      break;
    }
    case 'advance': {
      // Format 4 journals phases; older journals named the machine's states.
      const advance = record as unknown as AdvanceRecord & { readonly state?: string };
      pushEntries(out, advance.path, advance.entries);
      const usage = viewerUsage(advance.usage);
      if (usage) out.push({ type: 'usage', path: advance.path, usage });
      if (states) out.push({ type: 'state', path: advance.path, state: advance.phase ?? advance.state ?? 'reserved' });
      break;
    }
    case 'result': {
      const result = record as unknown as ResultRecord;
      pushEntries(out, result.path, result.entries);
      const value = viewerResult(result.result);
      if (value) out.push({ type: 'result', path: result.path, result: value });
      if (states) out.push({ type: 'state', path: result.path, state: value?.status === 'cancelled' ? 'cancelled' : 'settled' });
      break;
    }
    default:
      break;
  }
  return out;
}

/** The session's id as a journal's header names it. */
export const journalSessionId = (header: JournalRecord | undefined): string => str(header?.['sessionId']) ?? 'unknown';

/**
 * The viewer events of `records` (a journal, header first). `label` names the session for
 * people (the file name).
 */
export function journalEvents(records: readonly JournalRecord[], label: string): UnstampedEvent[] {
  const out: UnstampedEvent[] = [{ type: 'session', format: VIEWER_FORMAT, sessionId: journalSessionId(records[0]), source: 'journal', label }];
  for (const record of records.slice(1)) out.push(...journalRecordEvents(record));
  out.push({ type: 'ended', reason: 'end of the journal' });
  return out;
}

function pushEntries(out: UnstampedEvent[], path: string, entries: readonly Entry[] | undefined): void {
  if (entries && entries.length > 0) out.push({ type: 'entries', path, entries: entries.map(viewerEntry) });
}

function agentOf(spawn: SpawnRecord): UnstampedEvent {
  const input = spawn.input;
  const prefix = viewerPrefix(input['prefix']);
  const context = str(input['contextLabel']) ?? str(input['spec']);
  const delivery = str(input['delivery']);
  const lifetime = str(input['lifetime']);
  const task = str(input['task']);
  return {
    type: 'agent',
    path: spawn.path,
    parent: spawn.parent,
    ...(spawn.role !== null ? { role: spawn.role } : {}),
    ...(context !== undefined ? { context } : {}),
    ...(delivery !== undefined ? { delivery } : {}),
    ...(lifetime !== undefined ? { lifetime } : {}),
    ...(task !== undefined ? { task } : {}),
    // A fork copies the parent's dialogue as it was (the journal names its length, not the entries).
    ...(input['contextMode'] === 'all' && spawn.snapshot.length > 0 ? { inherited: spawn.snapshot.length } : {}),
    ...(prefix ? { prefix } : {}),
  };
}
