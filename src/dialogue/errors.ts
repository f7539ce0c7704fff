/**
 * The typed error a dialogue raises when an append would break one of its invariants.
 */

/** Which invariant an append would have broken. */
export type DialogueErrorCode =
  /** A tool result answers no call of the last assistant entry. */
  | 'unknown_tool_call'
  /** A tool result answers a call that already has its result. */
  | 'duplicate_tool_result'
  /** An assistant, user or compaction entry while the last assistant entry has calls without results. */
  | 'pending_tool_calls'
  /** An assistant entry lists the same call id twice. */
  | 'duplicate_call_id'
  /** A compaction's anchor names no user entry of the log. */
  | 'unknown_anchor'
  /** A compaction's anchor lies before the previous compaction's anchor. */
  | 'anchor_before_previous'
  /** The value is not a dialogue entry at all. */
  | 'invalid_entry';

/**
 * Raised by {@link Dialogue.append} (and seeding) when an entry would make the log an
 * invalid transcript. Typed so callers can branch on `code` rather than parse messages.
 */
export class DialogueError extends Error {
  override readonly name = 'DialogueError';
  /** Which invariant was broken. */
  readonly code: DialogueErrorCode;
  /** The log position the rejected entry would have taken. */
  readonly position: number;

  constructor(code: DialogueErrorCode, message: string, position: number) {
    super(message);
    this.code = code;
    this.position = position;
  }
}
