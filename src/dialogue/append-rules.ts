/**
 * The rules an append must obey, checked before anything is written: each returns the
 * index state after the entry, or throws a {@link DialogueError}. Keeping them apart from
 * storage lets seeding replay a snapshot through exactly the same rules.
 */
import type { AssistantEntry, CompactionEntry, Entry, ToolCall, ToolResultEntry, UserEntry } from './entry.js';
import type { EntryLog } from './entry-log.js';
import { stepWithoutCalls, type DialogueIndex, type StepCalls } from './dialogue-index.js';
import { DialogueError } from './errors.js';
import { GrowSlice } from './grow-slice.js';

/** The last assistant entry of `log` per `index`, if any. */
export function lastAssistantOf(index: DialogueIndex, log: EntryLog): AssistantEntry | undefined {
  return index.lastAssistant < 0 ? undefined : (log.at(index.lastAssistant) as AssistantEntry);
}

const NO_CALLS: readonly ToolCall[] = Object.freeze([]);

/** Calls of the last assistant entry that have no result yet (O(calls)). */
export function pendingCallsOf(index: DialogueIndex, log: EntryLog): readonly ToolCall[] {
  const last = lastAssistantOf(index, log);
  if (last === undefined || !hasPendingCallsOf(index)) return NO_CALLS;
  return Object.freeze(last.toolCalls.filter((c) => !isAnsweredIn(index, log, c.id)));
}

/** Whether the last assistant entry has a call without a result (O(1)). */
export function hasPendingCallsOf(index: DialogueIndex): boolean {
  return index.answered < index.step.calls.size;
}

/** Whether `callId` names a call of the last assistant entry that has no result yet (O(1)). */
export function isPendingCallOf(index: DialogueIndex, log: EntryLog, callId: string): boolean {
  return index.step.calls.has(callId) && !isAnsweredIn(index, log, callId);
}

/** Whether this version holds a result for `callId` of the last assistant entry (O(1), see StepCalls). */
export function isAnsweredIn(index: DialogueIndex, log: EntryLog, callId: string): boolean {
  const position = index.step.answeredAt.get(callId);
  // Never recorded by any version extending this assistant entry: not answered here either.
  if (position === undefined) return false;
  const first = index.lastAssistant + 1;
  const end = first + index.answered;
  if (position >= first && position < end && (log.at(position) as ToolResultEntry).callId === callId) return true;
  // Another version answered it elsewhere (rare: appends to an older version); look here.
  for (let p = first; p < end; p++) if ((log.at(p) as ToolResultEntry).callId === callId) return true;
  return false;
}

/** Options for {@link applyEntry}. */
export interface ApplyOptions {
  /** The entry is a seed's leading compaction: it governs the rest of the seed (anchor 1). */
  readonly leadingSeedCompaction?: boolean;
}

/**
 * Validates appending `entry` at `position` (= `log.length` for an append; a seed position
 * when seeding) and returns the index after it. Nothing is written here.
 */
export function applyEntry(index: DialogueIndex, entry: Entry, position: number, log: EntryLog, options: ApplyOptions = {}): DialogueIndex {
  switch (entry?.kind) {
    case 'tool_result':
      return applyResult(index, entry, position, log);
    case 'assistant':
      refusePending(index, entry, position, log);
      return index.with({ lastAssistant: position, answered: 0, lastContent: position, step: stepCallsOf(entry, position), held: GrowSlice.empty(), ordered: 0 });
    case 'user':
      refusePending(index, entry, position, log);
      return index.with({ openers: entry.opensTurn ? index.openers.push(position) : index.openers, lastContent: position });
    case 'compaction':
      refusePending(index, entry, position, log);
      return index.with({ compactions: index.compactions.push({ position, anchor: resolveAnchor(index, entry, position, log, options) }) });
    default:
      throw new DialogueError('invalid_entry', `Not a dialogue entry (expected kind user, assistant, tool_result or compaction): ${describe(entry)}.`, position);
  }
}

function applyResult(index: DialogueIndex, entry: ToolResultEntry, position: number, log: EntryLog): DialogueIndex {
  refuseResult(index, entry, position, log);
  index.step.answeredAt.set(entry.callId, position);
  return index.with({ answered: index.answered + 1, lastContent: position });
}

/** Throws unless `entry` answers a call of the last assistant entry that has no written result. */
export function refuseResult(index: DialogueIndex, entry: ToolResultEntry, position: number, log: EntryLog): void {
  const last = lastAssistantOf(index, log);
  if (last === undefined || !index.step.calls.has(entry.callId)) {
    const calls = last === undefined ? 'there is no assistant entry' : `the last assistant entry (${last.id}) has calls [${last.toolCalls.map((c) => c.id).join(', ')}]`;
    throw new DialogueError('unknown_tool_call', `Tool result ${entry.id} answers call "${entry.callId}", which is not a call of the last assistant entry: ${calls}.`, position);
  }
  if (index.answered >= index.step.calls.size || isAnsweredIn(index, log, entry.callId)) {
    throw new DialogueError('duplicate_tool_result', `Tool result ${entry.id} answers call "${entry.callId}" of ${last.id}, which already has its result.`, position);
  }
}

function refusePending(index: DialogueIndex, entry: AssistantEntry | UserEntry | CompactionEntry, position: number, log: EntryLog): void {
  const pending = pendingCallsOf(index, log);
  if (pending.length === 0) return;
  throw new DialogueError(
    'pending_tool_calls',
    `Cannot append ${entry.kind} entry ${entry.id}: the last assistant entry (${lastAssistantOf(index, log)?.id}) has calls without results [${pending.map((c) => c.id).join(', ')}]. Write their results first (error results for interrupted calls).`,
    position,
  );
}

/** The calls of a new assistant entry by id; a repeated id is refused. */
function stepCallsOf(entry: AssistantEntry, position: number): StepCalls {
  if (entry.toolCalls.length === 0) return stepWithoutCalls();
  const calls = new Map<string, ToolCall>();
  for (const call of entry.toolCalls) {
    if (calls.has(call.id)) {
      throw new DialogueError('duplicate_call_id', `Assistant entry ${entry.id} lists tool call id "${call.id}" more than once.`, position);
    }
    calls.set(call.id, call);
  }
  return { calls, order: entry.toolCalls, answeredAt: new Map(), heldAt: new Map() };
}

function resolveAnchor(index: DialogueIndex, entry: CompactionEntry, position: number, log: EntryLog, options: ApplyOptions): number {
  if (options.leadingSeedCompaction === true) return position + 1;
  if (entry.anchorId === null) return position;
  const anchor = log.userPosition(entry.anchorId, position);
  if (anchor === undefined) {
    throw new DialogueError('unknown_anchor', `Compaction ${entry.id} is anchored at "${entry.anchorId}", which names no user entry of the log.`, position);
  }
  const previous = index.compactions.last();
  if (previous !== undefined && anchor < previous.anchor) {
    throw new DialogueError(
      'anchor_before_previous',
      `Compaction ${entry.id} is anchored at "${entry.anchorId}" (position ${anchor}), before the previous compaction's anchor (position ${previous.anchor}); compactions may only move the anchor forward.`,
      position,
    );
  }
  return anchor;
}

function describe(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
