/**
 * A `--record` trace (inspection records, one per line) as a viewer feed. A trace has no
 * dialogues and no descriptors: it shows which agents existed and the states they went
 * through, in time. Actors that are not agents (`/root#model`, a tool call) are left out.
 */
import type { TraceRecord } from '../inspect/recorder.js';
import { parentOf } from './model/fold.js';
import { VIEWER_FORMAT, type UnstampedEvent } from './model/events.js';

/** Whether `actor` names an agent (a path), not one of the actors an agent runs. */
const isAgent = (actor: string): boolean => actor.startsWith('/') && !actor.includes('#');

/**
 * Converts trace records one at a time (a live session's inspection, or a file read line by
 * line): each call gives the viewer events of one record, none for records it does not show.
 */
export function traceConverter(): (record: TraceRecord) => UnstampedEvent[] {
  const states = new Map<string, string>();
  return (record) => {
    if (!isAgent(record.actor)) return [];
    if (record.kind === 'actor') return [{ type: 'agent', path: record.actor, parent: parentOf(record.actor), t: record.t }];
    // A snapshot follows every event an agent takes; only changes of state are news.
    if (record.kind !== 'snapshot' || record.state === undefined || states.get(record.actor) === record.state) return [];
    states.set(record.actor, record.state);
    return [{ type: 'state', path: record.actor, state: record.state, t: record.t }];
  };
}

/** The viewer events of a trace's records, in order. `label` names it for people. */
export function traceEvents(records: readonly TraceRecord[], label: string, sessionId = 'trace'): UnstampedEvent[] {
  const first = records[0]?.t;
  const out: UnstampedEvent[] = [{ type: 'session', format: VIEWER_FORMAT, sessionId, source: 'trace', label, ...(first !== undefined ? { t: first } : {}) }];
  const convert = traceConverter();
  for (const record of records) out.push(...convert(record));
  const last = records.at(-1)?.t;
  out.push({ type: 'ended', reason: 'end of the trace', ...(last !== undefined ? { t: last } : {}) });
  return out;
}
