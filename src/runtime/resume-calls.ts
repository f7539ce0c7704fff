/**
 * What a resume does with the tool calls an agent had pending when the session stopped: which
 * run again, and which get an answer from the journal (or an "interrupted" error) instead.
 * Pure reading of the session image; `resume.ts` sends the answers.
 */
import type { Dialogue } from '../dialogue/dialogue.js';
import type { ToolCall, UserOrigin } from '../dialogue/entry.js';
import { canonicalJson } from '../request/canonical.js';
import type { JournaledAgent, SessionImage } from '../store/replay.js';
import type { CancelRecord } from '../store/records.js';
import { cancelToolContent } from '../../machines/subagent-reports.js';

/** Built-in tools whose calls may simply run again (they only read). */
const REPEATABLE_BUILTINS: ReadonlySet<string> = new Set(['list_agents']);
/** Built-ins whose effect the journal shows, so a resume can tell whether they took effect. */
const COORDINATION_TOOLS: ReadonlySet<string> = new Set(['send_message', 'cancel_agent', 'close_agent']);

/** A pending call the restored actor does not run again, with what the journal says it returned. */
export interface PendingAnswer {
  readonly call: ToolCall;
  /** The result a coordination call had, per the journal; absent for the other calls. */
  readonly journaled?: string;
}

/** A step's pending calls, split: those that run again, and those answered after the restore. */
export interface PendingPlan {
  readonly rerun: readonly ToolCall[];
  readonly answers: readonly PendingAnswer[];
}

/** What the resume knows about a step's calls beyond the agent's own journal. */
export interface PendingFacts {
  /** The journal holds the descriptor of the subagent this `Agent` call spawned. */
  spawned(callId: string): boolean;
  /** The call asked for approval and was not approved (it had not run). */
  notApproved(callId: string): boolean;
  /** Host tools whose calls may run again. */
  readonly idempotent: ReadonlySet<string>;
}

/**
 * Splits the pending calls of `agent`'s step (its dialogue is `dialogue`): an `Agent` call whose
 * spawn never reached the journal, a coordination call whose effect the journal does not show,
 * a read-only built-in, an idempotent host tool and a call still waiting for approval run
 * again; every other call is answered (with what the journal shows it returned, or as interrupted).
 */
export function planPendingCalls(image: SessionImage, agent: JournaledAgent, dialogue: Dialogue, facts: PendingFacts): PendingPlan {
  const rerun: ToolCall[] = [];
  const answers: PendingAnswer[] = [];
  for (const call of dialogue.pendingCalls()) {
    // An Agent call whose spawn never reached the journal had no effect yet: run it again.
    if (call.name === 'Agent') {
      if (facts.spawned(call.id)) answers.push({ call });
      else rerun.push(call);
      continue;
    }
    // The coordination tools' effects are journaled, so each runs again exactly when it had
    // none yet, and is otherwise answered with what it returned.
    if (COORDINATION_TOOLS.has(call.name)) {
      const journaled = journaledOutcome(image, agent, dialogue, call);
      if (journaled === undefined) rerun.push(call);
      else answers.push({ call, journaled });
      continue;
    }
    // A call that was waiting for approval (or was denied) had not run: it asks again (a
    // journaled denial answers it at once), under the same id and in the same order.
    if (REPEATABLE_BUILTINS.has(call.name) || facts.idempotent.has(call.name) || facts.notApproved(call.id)) rerun.push(call);
    else answers.push({ call });
  }
  return { rerun, answers };
}

/**
 * What a pending coordination call returned, when the journal shows its effect: a message
 * the target received, a cancellation whose record was written (before anything stopped), a
 * close the target's journal shows. Undefined when it had no effect yet.
 */
function journaledOutcome(image: SessionImage, agent: JournaledAgent, dialogue: Dialogue, call: ToolCall): string | undefined {
  switch (call.name) {
    case 'send_message': {
      const to = messageDelivered(image, agent, dialogue, call);
      return to === undefined ? undefined : canonicalJson({ delivered_to: to, status: 'delivered' });
    }
    case 'cancel_agent': {
      const cancel = cancelOf(image, agent.spawn.path, call.id);
      return cancel === undefined ? undefined : cancelToolContent(cancel.stopped);
    }
    case 'close_agent': {
      const to = closed(image, call);
      return to === undefined ? undefined : canonicalJson({ agent_id: to, status: 'closing' });
    }
    default:
      return undefined;
  }
}

/**
 * The target of a pending `send_message` call whose message the journal shows delivered, or
 * undefined when it was not (then it is sent again). Delivery is told by counting: the target
 * received more such messages from this sender than the sender's answered calls account for.
 */
function messageDelivered(image: SessionImage, sender: JournaledAgent, dialogue: Dialogue, call: ToolCall): string | undefined {
  const args = call.arguments as { readonly agent_id?: unknown; readonly message?: unknown } | null;
  if (typeof args?.agent_id !== 'string' || typeof args.message !== 'string' || !args.agent_id.startsWith('/')) return undefined;
  const to = args.agent_id.replace(/\/+$/, '');
  const from = sender.spawn.path;
  const target = image.agents.get(to);
  if (!target) return undefined;
  const same = (text: string, origin: UserOrigin): boolean => origin.kind === 'message' && origin.from === from && text === args.message;
  let received = 0;
  for (const entry of target.entries) if (entry.kind === 'user' && same(entry.text, entry.origin)) received++;
  for (const item of target.queued) if (same(item.text, item.origin)) received++;
  const pending = new Set(dialogue.pendingCalls().map((c) => c.id));
  let answered = 0;
  for (const entry of dialogue.log) {
    if (entry.kind !== 'assistant') continue;
    for (const c of entry.toolCalls) {
      const a = c.arguments as { readonly agent_id?: unknown; readonly message?: unknown } | null;
      if (c.name === 'send_message' && !pending.has(c.id) && a?.agent_id === args.agent_id && a.message === args.message) answered++;
    }
  }
  return received > answered ? to : undefined;
}

/** The target of a pending `close_agent` call when the journal shows it closing or ended. */
function closed(image: SessionImage, call: ToolCall): string | undefined {
  const id = (call.arguments as { readonly agent_id?: unknown } | null)?.agent_id;
  if (typeof id !== 'string' || !id.startsWith('/')) return undefined;
  const to = id.replace(/\/+$/, '');
  const target = image.agents.get(to);
  return target && (target.close || target.result) ? to : undefined;
}

/** The journaled cancellation `by`'s call `callId` began, if any. */
function cancelOf(image: SessionImage, by: string, callId: string): CancelRecord | undefined {
  return image.cancels.find((c) => c.call?.by === by && c.call.callId === callId);
}
