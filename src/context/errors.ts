/**
 * Typed errors of context handling, so the spawn tool can turn each into a clear tool error
 * by `code` instead of by message.
 */
import type { ContextMode, ContextSpec } from './types.js';

/** A context value that is not one of the accepted spellings. */
export class ContextSpecError extends Error {
  override readonly name = 'ContextSpecError';
  readonly code = 'invalid_context' as const;
  /** The rejected value, as given. */
  readonly value: unknown;

  constructor(message: string, value: unknown) {
    super(message);
    this.value = value;
  }
}

/** Where an effective context spec came from, in precedence order. */
export type ContextSource = 'runtime default' | 'role default' | 'spawn';

/** A context mode the role's definition does not allow. */
export class ContextNotAllowedError extends Error {
  override readonly name = 'ContextNotAllowedError';
  readonly code = 'context_not_allowed' as const;
  readonly role: string;
  readonly allowed: readonly ContextMode[];
  /** The refused spec and where it came from. */
  readonly spec: ContextSpec;
  readonly source: ContextSource;

  constructor(role: string, allowed: readonly ContextMode[], spec: ContextSpec, source: ContextSource, message: string) {
    super(message);
    this.role = role;
    this.allowed = Object.freeze([...allowed]);
    this.spec = spec;
    this.source = source;
  }
}

/** A snapshot request that cannot be honoured as asked. */
export class SnapshotError extends Error {
  override readonly name = 'SnapshotError';
  readonly code = 'unknown_triggering_call' as const;
  readonly triggeringCallId: string;

  constructor(triggeringCallId: string, message: string) {
    super(message);
    this.triggeringCallId = triggeringCallId;
  }
}
