/**
 * The host's confirmation callback: what the runtime asks and what the host answers.
 * The runtime calls it while spawning, after the limits check; this module only defines the shapes and a
 * rendering for host UIs.
 */
import type { RequiredCapability } from './capabilities.js';
import { CAPABILITY_LABELS } from './capabilities.js';

/** A spawn waiting for the user's consent to risky capabilities. */
export interface ConfirmationRequest {
  /** Path of the agent that is spawning, e.g. `/root/research`. */
  readonly parentPath: string;
  /** The spawn's `task_name`: the new subagent's last path segment. */
  readonly taskName: string;
  /** The role (agent definition) asked for, if any. */
  readonly role?: string;
  /** What would be newly granted; from `requiredConfirmations`, never empty when asked. */
  readonly capabilities: readonly RequiredCapability[];
}

/**
 * The host's answer, the same shape as a tool call's approval: `true`, `false`, or
 * `{ approved, reason? }`. A refusal's reason is shown to the parent model in the tool error;
 * anything else fails the spawn closed (`confirmation_failed`).
 */
export type ConfirmationDecision = boolean | { readonly approved: boolean; readonly reason?: string };

/**
 * The host callback, synchronous or not. `signal` aborts when the spawn is cancelled while
 * the user is being asked (for example the parent was cancelled); the host should then close
 * its prompt.
 *
 * @example
 * ```ts
 * const confirm: ConfirmCallback = async (request) => askPerson(describeConfirmation(request)); // a boolean
 * const strict: ConfirmCallback = () => ({ approved: false, reason: 'no new capabilities today' });
 * ```
 */
export type ConfirmCallback = (request: ConfirmationRequest, signal: AbortSignal) => ConfirmationDecision | Promise<ConfirmationDecision>;

/**
 * A plain-text rendering of a request for a host's prompt: a heading naming the subagent's
 * path and role, then one line per capability with its reason.
 */
export function describeConfirmation(request: ConfirmationRequest): string {
  const path = `${request.parentPath.replace(/\/+$/, '')}/${request.taskName}`;
  const role = request.role === undefined ? '' : ` (role "${request.role}")`;
  const heading = `Subagent ${path}${role}, started by ${request.parentPath}, asks for permission to:`;
  const lines = request.capabilities.map(({ capability, reason }) => `- ${CAPABILITY_LABELS[capability]}: ${reason}`);
  return [heading, ...(lines.length === 0 ? ['- nothing risky'] : lines)].join('\n');
}
