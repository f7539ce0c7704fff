/**
 * Agent definitions: the named roles a spawn may ask for, as read from Markdown files.
 */
import type { Budget } from './budget.js';
import type { ContextMode, ContextSpec } from '../context/types.js';
import type { Delivery, Lifetime } from '../request/lifetime.js';
import type { Effort, JsonObject } from '../request/types.js';
import type { PermissionMode } from './permission-mode.js';
import type { RetryPolicy } from './retry-policy.js';

/** Where a definition was read from, for warnings, errors and host UIs. */
export interface DefinitionSource {
  /** The file path as the loader named it. */
  readonly file: string;
  /** The caller's label for the directory (for example `project` or `user`). */
  readonly scope: string;
}

/**
 * One agent definition (a "role"). Optional fields are absent when the file does not set
 * them, so callers can tell "not set" from a value and apply their own defaults; the
 * value is deeply frozen.
 */
export interface AgentDefinition {
  /** The role name a spawn passes as `role`: lowercase letters, digits, `-`, `_` and inner dots. */
  readonly name: string;
  /** When to use this role; shown to the parent model. */
  readonly description: string;
  /** The Markdown body after the front matter: the role's instructions. */
  readonly instructions: string;
  /** Model id or alias. Absent (also for Claude Code's `inherit`) means "the runtime decides". */
  readonly model?: string;
  readonly effort?: Effort;
  /**
   * Allow list of tool names; `[]` means none. Absent means every tool of the delegating
   * agent but `Agent` (as in Claude Code, where such a subagent cannot start subagents),
   * unless the runtime sets `allowNesting`. `Agent(worker, researcher)` (or Claude Code's
   * older `Task(…)`) keeps `Agent` for those roles only.
   */
  readonly tools?: readonly string[];
  /** Deny list applied after the allow list. */
  readonly disallowedTools?: readonly string[];
  /** The role's default context (the middle layer of the mode precedence). */
  readonly context?: ContextSpec;
  /**
   * The context modes a spawn of this role may use; absent means all modes. Enforced at
   * spawn time by `resolveContextSpec` (src/context/resolve.ts), which this shape satisfies.
   */
  readonly contexts?: readonly ContextMode[];
  readonly delivery?: Delivery;
  readonly lifetime?: Lifetime;
  /**
   * Model requests per turn (a positive integer): the agent's `maxSteps`. Read from the front
   * matter key `maxTurns`, Claude Code's name for it, but what it bounds is the number of model
   * requests one turn may make, not a number of turns.
   */
  readonly maxSteps?: number;
  /** Claude Code's permission mode, mapped to capability and confirmation rules (`permission-mode.ts`). */
  readonly permissionMode?: PermissionMode;
  /**
   * JSON Schema the role's final answer must match (structured output): a YAML mapping in the
   * front matter, or JSON text. Checked when the file is read.
   */
  readonly output?: JsonObject;
  /**
   * Retries of this role's failed model requests, over the runtime's `retry` field by field
   * (front matter: a mapping, `retry: { maxRetries: 5 }`).
   */
  readonly retry?: RetryPolicy;
  /** How long one of this role's model requests may take, in ms (the runtime's `requestTimeoutMs` otherwise). */
  readonly requestTimeoutMs?: number;
  /**
   * Caps on a subagent of this role and its subtree, carved from its parent's remaining budget
   * (front matter: a mapping, `budget: { tokens: 50000, steps: 20 }`). A spawn's `Agent` call
   * may ask for less, never more.
   */
  readonly budget?: Budget;
  /** Front matter keys this library does not know, kept so hosts can read or report them. */
  readonly unknownKeys: readonly string[];
  readonly source: DefinitionSource;
}

/**
 * The rule agent (role) names follow: lowercase letters, digits, `-` and `_`, in segments
 * joined by single dots, as Claude Code accepts them (`powershell-5.1-expert`). A role name
 * is a label, never a path segment, so dots are harmless; spawn task names keep the stricter
 * rule because they become paths.
 */
export const AGENT_NAME_PATTERN = /^[a-z0-9_-]+(?:\.[a-z0-9_-]+)*$/;

/** Whether `name` is a valid agent (role) name. */
export function isValidAgentName(name: string): boolean {
  return AGENT_NAME_PATTERN.test(name);
}
