/**
 * The host's yes-or-no answers, read one way: a spawn's confirmation (`confirm`) and a tool
 * call's approval (`approve`, `answerApproval`) both accept `true`, `false` or
 * `{ approved, reason? }`, and anything else is not a decision.
 */
import { RuntimeError } from './errors.js';

/** A decision read strictly: only `true` or `{ approved: true }` approves. */
export function checkDecision(decision: unknown, what: string): { approved: boolean; reason?: string } {
  if (typeof decision === 'boolean') return { approved: decision };
  if (decision !== null && typeof decision === 'object' && typeof (decision as { approved?: unknown }).approved === 'boolean') {
    const { approved, reason } = decision as { approved: boolean; reason?: unknown };
    if (reason !== undefined && typeof reason !== 'string') throw new RuntimeError('invalid_arguments', `${what}'s reason must be text`);
    return { approved, ...(typeof reason === 'string' && reason !== '' ? { reason } : {}) };
  }
  throw new RuntimeError('invalid_arguments', `${what} is true, false or { approved: boolean, reason?: string }; got ${JSON.stringify(decision) ?? String(decision)}`);
}
