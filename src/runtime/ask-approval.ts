/**
 * Puts one call to the session's approval desk on behalf of the agent making it: who asks
 * (path, role, turn) comes from the runtime; a denial becomes the tool error the model reads.
 */
import type { RuntimeCore } from './core.js';
import { deniedError } from './approvals.js';
import { errorText } from '../dialogue/error-text.js';
import { SaEvents } from '../otel/attributes.js';
import type { ApprovalRequest } from './types.js';

/** Puts one request to the session's approval desk, with who asks and in which turn; traces the answer. */
export async function askApproval(core: RuntimeCore, ask: Pick<ApprovalRequest, 'path' | 'toolName' | 'args' | 'rule' | 'callId'>, signal: AbortSignal): Promise<void> {
  const record = core.registry.get(ask.path);
  let turn = 0;
  try {
    turn = core.directory.contextOf(ask.path).turnsCompleted;
  } catch {
    // A host-run root has no machine context: its turn is not counted here.
  }
  let decision: { readonly approved: boolean; readonly reason?: string };
  try {
    decision = await core.approvals.ask({ ...ask, role: record?.role, turn }, signal);
  } catch (error) {
    if (!signal.aborted) core.trace?.event(ask.path, SaEvents.approval, { tool: ask.toolName, approved: false, reason: errorText(error) }, ask.callId);
    throw error;
  }
  core.trace?.event(ask.path, SaEvents.approval, { tool: ask.toolName, approved: decision.approved, reason: decision.reason }, ask.callId);
  if (!decision.approved) throw deniedError(ask.toolName, ask.rule, decision.reason);
}
