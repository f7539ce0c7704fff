/**
 * Who may message whom, as one pure rule the runtime applies to every `send_message` (from a
 * model or from the host through `runtime.send`) and to what `list_agents` shows.
 *
 * The default scope is `family`: an agent may message its parent, its own subagents and its
 * siblings (subagents of the same parent), never itself. A host may widen it to `session`
 * (any live agent) or decide per pair with a function.
 */

/** The paths a scope decision is about. */
export interface MessagingPair {
  /** The sending agent's path. */
  readonly from: string;
  /** The addressed agent's path. */
  readonly to: string;
}

/**
 * Who may message whom: `family` (default: parent, own subagents, siblings), `session`
 * (anyone), or the host's own rule.
 *
 * @example
 * ```ts
 * // Let every agent also reach the root, besides its family.
 * const scope: MessagingScope = ({ from, to }) => to === '/root' || mayMessage('family', { from, to });
 * ```
 */
export type MessagingScope = 'family' | 'session' | ((pair: MessagingPair) => boolean);

/** The default scope. */
export const DEFAULT_MESSAGING_SCOPE: MessagingScope = 'family';

/** The parent path of `path` (`/root/a` → `/root`), or undefined for the root. */
function parentOf(path: string): string | undefined {
  const cut = path.lastIndexOf('/');
  return cut > 0 ? path.slice(0, cut) : undefined;
}

/**
 * Whether `from` may message `to` under `scope`. Messaging oneself is never allowed. A
 * host rule that throws or returns anything but `true` refuses.
 */
export function mayMessage(scope: MessagingScope, pair: MessagingPair): boolean {
  const { from, to } = pair;
  if (from === to) return false;
  if (scope === 'session') return true;
  if (typeof scope === 'function') {
    try {
      return scope({ from, to }) === true;
    } catch {
      return false;
    }
  }
  const fromParent = parentOf(from);
  const toParent = parentOf(to);
  return to === fromParent || toParent === from || (toParent !== undefined && toParent === fromParent);
}

/** Why `mayMessage` refused, in words a model can act on. */
export function scopeRefusal(scope: MessagingScope, pair: MessagingPair): string {
  if (pair.from === pair.to) return `${pair.from} cannot send a message to itself`;
  if (scope === 'family') {
    return `${pair.from} may only message its parent, its own subagents and its siblings; ${pair.to} is none of them`;
  }
  return `the host's messaging policy does not let ${pair.from} message ${pair.to}`;
}

/** What `list_agents` is asked to show of one agent's last task. */
export interface TaskTextInput {
  /** The agent calling `list_agents`. */
  readonly viewer: string;
  /** The listed agent. */
  readonly path: string;
  readonly task: string;
}

/**
 * The host's messaging policy.
 *
 * @example
 * ```ts
 * createRuntime({
 *   model,
 *   messaging: { scope: 'family', taskText: ({ task }) => task.slice(0, 80) },
 * });
 * ```
 */
export interface MessagingPolicy {
  /** Who may message whom. Default `family`. */
  readonly scope?: MessagingScope;
  /**
   * What `list_agents` shows as a listed agent's last task: the text to show, or `null` to
   * hide it. Default: the full task text.
   */
  readonly taskText?: (input: TaskTextInput) => string | null;
}
