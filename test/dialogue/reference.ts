/**
 * A deliberately naive model of the dialogue rules, written from the specification with
 * plain arrays and linear scans. Property tests compare the indexed implementation to it.
 */
import type { AssistantEntry, CompactionEntry, Entry, ToolCall } from '../../src/dialogue/entry.js';

/** A naive turn: log positions `[start, end)` and whether it finished. */
export interface RefTurn {
  readonly start: number;
  readonly end: number;
  readonly finished: boolean;
}

/** Resolved anchor of each compaction (log position → first visible position). */
export function refAnchors(log: readonly Entry[], seeded = false): Map<number, number> {
  const anchors = new Map<number, number>();
  log.forEach((e, p) => {
    if (e.kind !== 'compaction') return;
    if (seeded && p === 0) anchors.set(p, 1);
    else if (e.anchorId === null) anchors.set(p, p);
    else anchors.set(p, log.findIndex((x) => x.kind === 'user' && x.id === e.anchorId));
  });
  return anchors;
}

/** Log position of the latest compaction, or -1. */
export function refLatest(log: readonly Entry[]): number {
  return log.findLastIndex((e) => e.kind === 'compaction');
}

/** Where the effective dialogue's content starts. */
export function refStart(log: readonly Entry[], seeded = false): number {
  const latest = refLatest(log);
  return latest < 0 ? 0 : (refAnchors(log, seeded).get(latest) as number);
}

/** The effective dialogue. */
export function refEffective(log: readonly Entry[], seeded = false): Entry[] {
  const latest = refLatest(log);
  if (latest < 0) return [...log];
  const content = log.slice(refStart(log, seeded)).filter((e) => e.kind !== 'compaction');
  return [log[latest] as CompactionEntry, ...content];
}

/** Turns of the raw log. */
export function refTurns(log: readonly Entry[]): RefTurn[] {
  const openers = log.flatMap((e, p) => (e.kind === 'user' && e.opensTurn ? [p] : []));
  return openers.map((start, i) => {
    const end = openers[i + 1] ?? log.length;
    const lastContent = log.slice(start, end).filter((e) => e.kind !== 'compaction').at(-1);
    const finished = i < openers.length - 1 || (lastContent?.kind === 'assistant' && lastContent.toolCalls.length === 0);
    return { start, end, finished };
  });
}

/** Last assistant entry's position, or -1. */
export function refLastAssistant(log: readonly Entry[]): number {
  return log.findLastIndex((e) => e.kind === 'assistant');
}

/** Pending calls: calls of the last assistant entry with no result after it. */
export function refPending(log: readonly Entry[]): ToolCall[] {
  const p = refLastAssistant(log);
  if (p < 0) return [];
  const answered = new Set(log.slice(p + 1).flatMap((e) => (e.kind === 'tool_result' ? [e.callId] : [])));
  return (log[p] as AssistantEntry).toolCalls.filter((c) => !answered.has(c.id));
}

/** Splits content entries into turns: a leading partial group, then one group per opener. */
export function refGroups(content: readonly Entry[]): Entry[][] {
  const groups: Entry[][] = [];
  for (const e of content) {
    if ((e.kind === 'user' && e.opensTurn) || groups.length === 0) groups.push([e]);
    else (groups[groups.length - 1] as Entry[]).push(e);
  }
  return groups;
}

/** The expected selection: last `turns` effective turns (Infinity = all), trimmed. */
export function refSelect(log: readonly Entry[], turns: number, trigger: string | null): { entries: Entry[]; copy: AssistantEntry | null | undefined; dropped: string[] } {
  const effective = refEffective(log);
  const lead = effective[0]?.kind === 'compaction' ? [effective[0]] : [];
  const groups = refGroups(effective.slice(lead.length));
  let body = groups.slice(Math.max(0, groups.length - turns)).flat();
  const lastPos = refLastAssistant(log);
  const last = log[lastPos] as AssistantEntry | undefined;
  let copy: AssistantEntry | null | undefined;
  let dropped: string[] = [];
  if (last !== undefined && body.includes(last)) {
    const pending = new Set(refPending(log).map((c) => c.id));
    dropped = last.toolCalls.filter((c) => pending.has(c.id) || c.id === trigger).map((c) => c.id);
    if (dropped.length > 0) {
      const kept = last.toolCalls.filter((c) => !dropped.includes(c.id));
      copy = kept.length === 0 && last.text === '' ? null : { ...last, toolCalls: kept };
      body = body.flatMap((e) => (e === last ? (copy ? [copy] : []) : e.kind === 'tool_result' && e.callId === trigger && log.indexOf(e) > lastPos ? [] : [e]));
    }
  }
  return { entries: [...lead, ...body], copy, dropped };
}

/** Counts turns in a selection's entries (leading compaction aside): openers plus a leading partial. */
export function refCountTurns(entries: readonly Entry[]): number {
  return refGroups(entries.filter((e) => e.kind !== 'compaction')).length;
}
