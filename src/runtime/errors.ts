/**
 * Typed errors the runtime returns to callers and, as tool errors, to models.
 */

/** Why a spawn, a message or a control call was refused. */
export type RuntimeErrorCode =
  | 'invalid_arguments'
  | 'invalid_context'
  | 'context_not_allowed'
  | 'unknown_role'
  | 'unknown_model'
  | 'name_taken'
  | 'depth_limit'
  | 'capacity'
  | 'confirmation_denied'
  | 'confirmation_failed'
  | 'parent_not_running'
  | 'start_failed'
  | 'unknown_agent'
  | 'not_published'
  | 'agent_closed'
  | 'not_permitted'
  | 'unknown_tool'
  | 'tool_not_allowed'
  | 'aborted'
  | 'approval_denied'
  | 'approval_failed'
  | 'unknown_approval'
  | 'session_halted'
  | 'resume_failed';

/** An error with a stable code, safe to show to a model as a tool error. */
export class RuntimeError extends Error {
  override readonly name = 'RuntimeError';
  constructor(
    readonly code: RuntimeErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** Reads a code from any error the layers below throw (they all carry one). */
export function errorCode(error: unknown): string | undefined {
  if (error !== null && typeof error === 'object' && 'code' in error && typeof error.code === 'string') return error.code;
  return undefined;
}
