/**
 * The agent machine's state key for path tests: its state plus exactly the context the
 * guards read, and nothing volatile (no dialogue, usage, timestamps, ids).
 */
import type { AgentContext } from '../../machines/agent.types.js';
import { stateValueString } from '../text/state-value.js';

/** The snapshot fields {@link agentStateKey} reads. */
export interface AgentSnapshotLike {
  readonly value: unknown;
  readonly status: string;
  readonly context: Pick<AgentContext, 'closeRequested' | 'step' | 'status' | 'stopReason' | 'inbox'> & Partial<Pick<AgentContext, 'repairAsked'>> & {
    readonly dialogue: Pick<AgentContext['dialogue'], 'pendingCalls'>;
    readonly input: Pick<AgentContext['input'], 'maxSteps'>;
  };
}

/**
 * The key of an agent snapshot, e.g. `running.working.acting awaiting=2 step=1/2` or
 * `settled (completed: closed)`:
 * - active states add the tool calls still awaited, a pending close, and the step count
 *   when the turn has a step limit (the `allToolResultsIn`, `staysOpen` and
 *   `stepLimitReached` guards read exactly these, and `turnContinues` reads whether the
 *   turn had its repair request; lifetime and the other guard inputs are
 *   fixed by the input);
 * - final states add the status and stop reason, so each way of ending is its own state.
 */
export function agentStateKey(snapshot: AgentSnapshotLike): string {
  const state = stateValueString(snapshot.value);
  const c = snapshot.context;
  if (snapshot.status !== 'active') return `${state} (${c.status ?? 'cancelled'}: ${c.stopReason ?? 'cancelled'})`;
  const parts = [state];
  const awaiting = c.dialogue.pendingCalls().length;
  if (awaiting > 0) parts.push(`awaiting=${awaiting}`);
  if (c.inbox !== null) parts.push('inbox-waiting');
  if (c.closeRequested) parts.push('close-requested');
  if (c.repairAsked === true) parts.push('repair-asked');
  if (c.input.maxSteps !== undefined) parts.push(`step=${c.step}/${c.input.maxSteps}`);
  return parts.join(' ');
}
