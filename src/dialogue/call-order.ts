/**
 * Tool results in call order. A step's calls run concurrently and finish in any order; if
 * their results were written as they finished, two identical sessions would send different
 * requests (and miss each other's cache) whenever their tools raced differently. So a result
 * that arrives before the result of an earlier call of its step is held, outside the log, and
 * written as soon as every earlier call has its result: the log, the journal and every later
 * request list a step's results in the order the reply listed its calls.
 *
 * Held results live in the index (a {@link GrowSlice} per step, shared between versions like
 * the log), so holding and releasing are amortized O(1) per result: a step of N calls costs
 * O(N) whatever order they finish in.
 */
import type { ToolResultEntry } from './entry.js';
import type { EntryLog } from './entry-log.js';
import type { DialogueIndex } from './dialogue-index.js';
import { isAnsweredIn } from './append-rules.js';

/** The held result for `callId` in this version, if any (O(1); a scan only after appends to an older version). */
export function heldResultOf(index: DialogueIndex, callId: string): ToolResultEntry | undefined {
  const at = index.step.heldAt.get(callId);
  // Never held by any version extending this assistant entry.
  if (at === undefined) return undefined;
  const entry = index.held.at(at);
  if (entry?.callId === callId) return entry;
  for (let i = 0; i < index.held.length; i++) {
    const held = index.held.at(i) as ToolResultEntry;
    if (held.callId === callId) return held;
  }
  return undefined;
}

/** Whether `callId`'s result arrived and waits for an earlier call's (it is not written yet). */
export function isHeldIn(index: DialogueIndex, log: EntryLog, callId: string): boolean {
  return heldResultOf(index, callId) !== undefined && !isAnsweredIn(index, log, callId);
}

/** What releasing held results does: the entries to write now, in call order, and the pointer after them. */
export interface Release {
  readonly write: readonly ToolResultEntry[];
  /** How many calls, in call order, have their result written once `write` is. */
  readonly ordered: number;
}

/**
 * The results to write now: from the first call (in call order) without a written result, each
 * call's result while it has one, written or held (`extra` is the result just arrived, held by
 * nobody yet). Stops at the first call whose result has not arrived.
 */
export function releaseOf(index: DialogueIndex, log: EntryLog, extra: ToolResultEntry): Release {
  const order = index.step.order;
  const write: ToolResultEntry[] = [];
  let p = index.ordered;
  while (p < order.length) {
    const id = (order[p] as { id: string }).id;
    if (isAnsweredIn(index, log, id)) {
      p++;
      continue;
    }
    const ready = id === extra.callId ? extra : heldResultOf(index, id);
    if (ready === undefined) break;
    write.push(ready);
    p++;
  }
  return { write, ordered: p };
}
