/**
 * Snapshot selection: the frozen slice of a parent's effective dialogue
 * a subagent is seeded with. A snapshot is a view over the parent's own entry objects, so
 * taking one costs O(log n + compactions), never a copy of the entries.
 */
import type { AssistantEntry, ToolCall, ToolResultEntry } from '../dialogue/entry.js';
import { EntrySeqBuilder, EntryView } from '../dialogue/entry-seq.js';
import type { DialogueView, EntrySeq } from '../dialogue/types.js';
import { ContextSpecError, SnapshotError } from './errors.js';
import { contextModeOf, isContextSpec } from './parse.js';
import { quote } from './quote.js';
import type { ContextSnapshot, ContextSpec, SnapshotSource } from './types.js';

/** Options of {@link selectSnapshot}. */
export interface SelectOptions {
  /** Id of the `Agent` tool call that asked for the snapshot; it never appears in it. */
  readonly triggeringCallId?: string;
}

type Trimmed = NonNullable<ContextSnapshot['trimmed']>;

/** One selection of entries, before it is wrapped into a snapshot. */
interface Selection {
  readonly entries: EntrySeq;
  readonly summary: ContextSnapshot['summary'];
  readonly trimmed: ContextSnapshot['trimmed'];
}

/**
 * Takes the snapshot `spec` asks for from `dialogue`:
 * - `none`: no entries;
 * - `all`: the effective dialogue (latest compaction first), including the realized part of
 *   the active turn;
 * - `{turns: N}`: the last N turns of the effective dialogue (a leading partial turn counts
 *   as one), preceded by the latest compaction; N beyond the history means all;
 * - `summary`: no entries; `summarizerInput` holds the `all` selection, and `summary` and
 *   `trimmed` describe it.
 * In `all` and N, the last assistant entry loses its calls without results and the
 * triggering call (with its result, if one exists): it is replaced by a frozen copy holding
 * only its realized calls, or omitted when that copy would be empty; `trimmed` records it.
 * So every tool call in a snapshot has its result. The snapshot is deeply frozen and, apart
 * from that copy, holds the parent's own entry objects.
 *
 * Throws {@link ContextSpecError} for a malformed spec and {@link SnapshotError} when
 * `triggeringCallId` is not a call of the last assistant entry (the spawn runs while its
 * step's calls execute, so anything else is a caller bug that could leak the call; not
 * checked for `none`, which reads nothing).
 */
export function selectSnapshot(dialogue: DialogueView, spec: ContextSpec, options: SelectOptions = {}): ContextSnapshot {
  if (!isContextSpec(spec)) throw new ContextSpecError(`Invalid context spec ${quote(spec)}: not a canonical spec (parse model input with parseContextSpec).`, spec);
  const triggeringCallId = options.triggeringCallId ?? null;
  const mode = contextModeOf(spec);
  const source: SnapshotSource = Object.freeze({ length: dialogue.length, activeTurn: dialogue.activeTurn()?.index ?? null, triggeringCallId });
  const frozenSpec: ContextSpec = typeof spec === 'string' ? spec : Object.freeze({ turns: spec.turns });
  const snapshot = (entries: EntrySeq, summarizerInput: EntrySeq, selection: Selection | undefined): ContextSnapshot =>
    Object.freeze({ spec: frozenSpec, mode, entries, summarizerInput, summary: selection?.summary, trimmed: selection?.trimmed, source });

  if (mode === 'none') return snapshot(EntryView.EMPTY, EntryView.EMPTY, undefined);
  const selection = select(dialogue, typeof spec === 'object' ? spec.turns : Infinity, triggeringCallId);
  return mode === 'summary' ? snapshot(EntryView.EMPTY, selection.entries, selection) : snapshot(selection.entries, EntryView.EMPTY, selection);
}

/** The last `turns` effective turns (Infinity: all), trimmed, led by the latest compaction. */
function select(dialogue: DialogueView, turns: number, triggeringCallId: string | null): Selection {
  const start = dialogue.recentTurnsStart(turns);
  const summary = dialogue.latestCompaction();
  const builder = new EntrySeqBuilder();
  if (summary !== undefined) builder.entry(summary);
  const trim = planTrim(dialogue, start, triggeringCallId);
  if (trim === undefined) {
    builder.all(dialogue.contentRange(start));
  } else {
    builder.all(dialogue.contentRange(start, trim.position));
    if (trim.trimmed.entry !== null) builder.entry(trim.trimmed.entry);
    if (trim.skip === undefined) {
      builder.all(dialogue.contentRange(trim.position + 1));
    } else {
      builder.all(dialogue.contentRange(trim.position + 1, trim.skip)).all(dialogue.contentRange(trim.skip + 1));
    }
  }
  return { entries: builder.build(), summary, trimmed: trim?.trimmed };
}

/**
 * How the last assistant entry is trimmed, if it must be: its position, the record, and
 * the log position of the triggering call's result when that call was somehow realized.
 */
function planTrim(dialogue: DialogueView, start: number, triggeringCallId: string | null): { position: number; trimmed: Trimmed; skip: number | undefined } | undefined {
  const position = dialogue.lastAssistantPosition();
  const last = position < 0 ? undefined : (dialogue.at(position) as AssistantEntry);
  if (triggeringCallId !== null && last?.toolCalls.some((c) => c.id === triggeringCallId) !== true) {
    const calls = last === undefined ? 'the dialogue has no assistant entry' : `the last assistant entry (${last.id}) has calls [${last.toolCalls.map((c) => c.id).join(', ')}]`;
    throw new SnapshotError(triggeringCallId, `Triggering call "${triggeringCallId}" is not a call of the last assistant entry: ${calls}.`);
  }
  if (last === undefined || position < start) return undefined;
  const pending = new Set(dialogue.pendingCalls().map((c) => c.id));
  const dropped = (c: ToolCall): boolean => pending.has(c.id) || c.id === triggeringCallId;
  const droppedCallIds = last.toolCalls.filter(dropped).map((c) => c.id);
  if (droppedCallIds.length === 0) return undefined;
  const kept = last.toolCalls.filter((c) => !dropped(c));
  const entry: AssistantEntry | null = kept.length === 0 && last.text === '' ? null : Object.freeze({ ...last, toolCalls: Object.freeze(kept) });
  const trimmed: Trimmed = Object.freeze({ original: last, entry, droppedCallIds: Object.freeze(droppedCallIds) });
  return { position, trimmed, skip: triggeringCallId !== null && !pending.has(triggeringCallId) ? resultPosition(dialogue, position, triggeringCallId) : undefined };
}

/** Log position of the result answering realized call `callId`; results follow their assistant entry in a row. */
function resultPosition(dialogue: DialogueView, assistant: number, callId: string): number {
  let p = assistant + 1;
  while ((dialogue.at(p) as ToolResultEntry).callId !== callId) p++;
  return p;
}
