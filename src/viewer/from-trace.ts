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

/** The viewer events of a trace's records, in order. `label` names it for people. */
export function traceEvents(records: readonly TraceRecord[], label: string, sessionId = 'trace'): UnstampedEvent[] {
  const first = records[0]?.t;
  const out: UnstampedEvent[] = [{ type: 'session', format: VIEWER_FORMAT, sessionId, source: 'trace', label, ...(first !== undefined ? { t: first } : {}) }];
  const states = new Map<string, string>();
  for (const record of records) {
    if (!isAgent(record.actor)) continue;
    if (record.kind === 'actor') out.push({ type: 'agent', path: record.actor, parent: parentOf(record.actor), t: record.t });
    else if (record.kind === 'snapshot' && record.state !== undefined && states.get(record.actor) !== record.state) {
      // A snapshot follows every event an agent takes; only changes of state are news.
      states.set(record.actor, record.state);
      out.push({ type: 'state', path: record.actor, state: record.state, t: record.t });
    }
  }
  const last = records.at(-1)?.t;
  out.push({ type: 'ended', reason: 'end of the trace', ...(last !== undefined ? { t: last } : {}) });
  return out;
}
