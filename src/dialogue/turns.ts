/**
 * Turns, computed from the opener index rather than by scanning the log. A turn starts at
 * a turn-opening user entry and runs to the next one; it is finished when a later turn
 * opened or its last entry (compaction entries aside: compacting an idle agent does not
 * reopen its turn) is an assistant reply without tool calls.
 */
import type { DialogueIndex } from './dialogue-index.js';
import type { EntryLog } from './entry-log.js';
import type { TurnInfo } from './types.js';

/** Whether the last turn has ended (O(1)). */
function lastTurnFinished(index: DialogueIndex, log: EntryLog): boolean {
  const last = log.at(index.lastContent);
  return last?.kind === 'assistant' && last.toolCalls.length === 0;
}

/** The turn with number `i` (0 ≤ i < openers), O(1). */
export function turnAt(index: DialogueIndex, log: EntryLog, i: number): TurnInfo | undefined {
  const start = index.openers.at(i);
  if (start === undefined) return undefined;
  const isLast = i === index.openers.length - 1;
  return Object.freeze({
    index: i,
    start,
    end: isLast ? log.length : (index.openers.at(i + 1) as number),
    finished: !isLast || lastTurnFinished(index, log),
  });
}

/** All turns, oldest first (O(turns)). */
export function allTurns(index: DialogueIndex, log: EntryLog): readonly TurnInfo[] {
  const turns: TurnInfo[] = [];
  for (let i = 0; i < index.openers.length; i++) turns.push(turnAt(index, log, i) as TurnInfo);
  return Object.freeze(turns);
}

/** The last turn when it has not finished (O(1)). */
export function activeTurnOf(index: DialogueIndex, log: EntryLog): TurnInfo | undefined {
  const last = turnAt(index, log, index.openers.length - 1);
  return last !== undefined && !last.finished ? last : undefined;
}

/** Log position where the effective dialogue's entries start (O(1)). */
export function effectiveStartOf(index: DialogueIndex): number {
  return index.compactions.last()?.anchor ?? 0;
}

/**
 * Counts the effective dialogue's turns (O(log n)): `full` opened at or after the effective
 * start, plus a leading partial turn when non-compaction entries precede the first opener.
 */
function effectiveTurns(index: DialogueIndex, length: number): { readonly start: number; readonly firstOpener: number; readonly full: number; readonly partial: boolean } {
  const start = effectiveStartOf(index);
  const firstOpener = index.firstOpenerFrom(start);
  const until = index.openers.at(firstOpener) ?? length;
  const compactionsBefore = index.firstCompactionFrom(until) - index.firstCompactionFrom(start);
  return { start, firstOpener, full: index.openers.length - firstOpener, partial: until - start - compactionsBefore > 0 };
}

/** Number of turns in the effective dialogue, a leading partial turn counted as one. */
export function effectiveTurnCountOf(index: DialogueIndex, length: number): number {
  const t = effectiveTurns(index, length);
  return t.full + (t.partial ? 1 : 0);
}

/** Log position where the last `n` effective turns start (O(log n)). */
export function recentTurnsStartOf(index: DialogueIndex, length: number, n: number): number {
  const count = Math.floor(n);
  if (!(count >= 1)) return length;
  const t = effectiveTurns(index, length);
  if (count >= t.full + (t.partial ? 1 : 0)) return t.start;
  return index.openers.at(index.openers.length - count) as number;
}
