/** What the viewer shows as an agent's state for what a journal holds about it. */
import type { JournaledAgent } from '../../src/store/replay.js';

/** Its final state when it settled (`settled` or `cancelled`), else its journaled phase. */
export function shownStateOf(agent: JournaledAgent): string {
  if (agent.result) return agent.result.status === 'cancelled' ? 'cancelled' : 'settled';
  return agent.phase;
}
