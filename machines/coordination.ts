/**
 * The coordination tools an agent calls besides `Agent` (`send_message`, `list_agents`,
 * `cancel_agent`, `close_agent`), implemented once for every host. A host answers questions
 * about its tree and carries out the effects through one {@link CoordinationPort}; the checks,
 * their order, and every answer's text are written here, so the same situation gets the same
 * bytes under `createRuntime`, `delegatingAgent` and the Pi extension.
 */
import type { JsonValue } from '../src/dialogue/entry.js';
import { canonicalJson } from '../src/request/canonical.js';
import type { BuiltinToolCall } from '../src/request/tools.js';
import { DEFAULT_MESSAGING_SCOPE, mayMessage, scopeRefusal, type MessagingPolicy, type TaskTextInput } from '../src/policy/messaging.js';
import type { AgentStatus, StopReason, ToolOutcome } from './agent.types.js';
import { cancelToolContent } from './subagent-reports.js';

/** One live agent as a host's directory knows it. */
export interface DirectoryEntry {
  readonly path: string;
  readonly role: string | undefined;
  /** The agent machine's state, as `runtime.stateOf` names it (`running.idle`). */
  readonly state: string;
  /** The context label it was started with (`none`, `all`, `3`, `summary`). */
  readonly context: string;
  /** The task it was started with; null for the root. */
  readonly lastTask: string | null;
  /** Published (running): it takes messages, and `list_agents` shows it. */
  readonly addressable: boolean;
}

/** One agent a cancellation stopped, and the state it was in. */
export interface StoppedAgent {
  readonly path: string;
  readonly state: string;
}

/** Why a coordination request is refused: a stable code and words a model can act on. */
export interface CoordinationRefusal {
  readonly code: 'invalid_arguments' | 'not_permitted' | 'unknown_agent' | 'agent_closed' | 'not_published' | 'session_halted';
  readonly message: string;
}

/**
 * What a host provides for the coordination tools: questions about its tree of agents, and
 * the effects once every check passed. Nothing here decides an answer.
 */
export interface CoordinationPort {
  /** Who may message whom, and what `list_agents` shows of tasks (default: family scope, full task text). */
  readonly messaging?: MessagingPolicy | undefined;
  /** A refusal when the session takes no more work (its store failed), else undefined. */
  halted(): CoordinationRefusal | undefined;
  /** The live agent at `path` (reserved, preparing its summary or running), if any. */
  entry(path: string): DirectoryEntry | undefined;
  /** How an agent that is no longer live ended, while the host remembers it. */
  ended(path: string): { readonly status: AgentStatus; readonly stopReason: StopReason } | undefined;
  /** Every live agent: the root first, each agent before its subagents, subagents in spawn order. */
  agents(): Iterable<DirectoryEntry>;
  /** Hands a checked message to its target (through the sender's actor, or the host's loop). */
  deliver(from: string, to: string, message: string): void;
  /**
   * Cancels the live subtree at `path`, subagents before their parents, and says what it
   * stopped, in that order. `call` names the `cancel_agent` call that asked, if one did.
   */
  cancel(path: string, reason: string, call?: { readonly by: string; readonly callId: string }): readonly StoppedAgent[];
  /** Asks a checked, addressable agent to close (now when idle, after its turn when working). */
  close(path: string): void;
}

/** A coordination call other than `Agent`, as `parseToolArguments` checked it. */
export type CoordinationCall = Exclude<BuiltinToolCall, { readonly tool: 'Agent' }>;

const ok = (value: JsonValue): ToolOutcome => ({ content: canonicalJson(value), isError: false });

/** The tool error text of a refusal. */
export function refusalOutcome(refusal: CoordinationRefusal): ToolOutcome {
  return { content: `Error (${refusal.code}): ${refusal.message}`, isError: true };
}

/**
 * Runs one coordination call of `caller` (whose own call id is `callId`) against a host's
 * port, and returns the tool result the model reads. Never throws for anything the model did.
 *
 * @example
 * ```ts
 * const outcome = coordinationCall(port, '/root', 'c1', { tool: 'list_agents', args: {} });
 * outcome.content; // '{"agents":[{"agent_id":"/root/research",...}]}'
 * ```
 */
export function coordinationCall(port: CoordinationPort, caller: string, callId: string, call: CoordinationCall): ToolOutcome {
  const refused = port.halted();
  if (refused) return refusalOutcome(refused);
  switch (call.tool) {
    case 'send_message': {
      const target = messageTarget(port, caller, call.args.agent_id, call.args.message);
      if (typeof target !== 'string') return refusalOutcome(target);
      port.deliver(caller, target, call.args.message);
      return ok({ delivered_to: target, status: 'delivered' });
    }
    case 'list_agents':
      return ok({ agents: listFor(port, caller).map((a) => ({ agent_id: a.path, role: a.role ?? null, state: a.state, context: a.context, last_task: a.lastTask })) });
    case 'cancel_agent': {
      const target = ownSubagent(port, caller, call.args.agent_id, 'cancel');
      if (typeof target !== 'string') return refusalOutcome(target);
      if (!port.entry(target)) {
        const gone = port.ended(target);
        return gone ? { content: cancelToolContent([]), isError: false } : refusalOutcome(unknownAgent(port, target));
      }
      return { content: cancelToolContent(port.cancel(target, `cancelled by ${caller}`, { by: caller, callId })), isError: false };
    }
    case 'close_agent': {
      const target = ownSubagent(port, caller, call.args.agent_id, 'close');
      if (typeof target !== 'string') return refusalOutcome(target);
      const refusal = addressable(port, target);
      if (refusal) return refusalOutcome(refusal);
      port.close(target);
      return ok({ agent_id: target, status: 'closing' });
    }
  }
}

/**
 * An agent id as a path (`/root/research`, trailing slashes dropped), or the refusal of one
 * that is not a path.
 */
export function agentPathOf(id: string): string | CoordinationRefusal {
  if (typeof id !== 'string' || !id.startsWith('/')) {
    return { code: 'invalid_arguments', message: `agent_id must be an agent path such as "/root" or "/root/research" (got ${JSON.stringify(id)})` };
  }
  return id.replace(/\/+$/, '');
}

/**
 * Checks a message from `from` to agent id `to` (a model's `send_message` or a host's
 * `runtime.send`): a non-empty text, a path, the messaging scope, then a target that is
 * running. Returns the target's path, or why it is refused.
 */
export function messageTarget(port: CoordinationPort, from: string, to: string, message: string): string | CoordinationRefusal {
  if (typeof message !== 'string' || message.trim() === '') return { code: 'invalid_arguments', message: 'message must be a non-empty string' };
  const path = agentPathOf(to);
  if (typeof path !== 'string') return path;
  const scope = port.messaging?.scope ?? DEFAULT_MESSAGING_SCOPE;
  if (!mayMessage(scope, { from, to: path })) return { code: 'not_permitted', message: scopeRefusal(scope, { from, to: path }) };
  return addressable(port, path) ?? path;
}

/**
 * Why the agent at `path` cannot take a message or a close, or undefined when it can (it is
 * running). An agent still reserved or preparing its summary is `not_published`.
 */
export function addressable(port: CoordinationPort, path: string): CoordinationRefusal | undefined {
  const entry = port.entry(path);
  if (!entry) {
    const gone = port.ended(path);
    if (!gone) return unknownAgent(port, path);
    const how = gone.status === 'cancelled' ? 'been cancelled' : gone.stopReason === 'closed' ? 'been closed' : 'finished';
    return { code: 'agent_closed', message: `agent ${path} has ${how} and takes no more messages` };
  }
  if (!entry.addressable) return { code: 'not_published', message: `agent ${path} is still starting (not yet running) and cannot take messages yet` };
  return undefined;
}

function unknownAgent(port: CoordinationPort, path: string): CoordinationRefusal {
  const live = [...port.agents()].map((a) => a.path);
  return { code: 'unknown_agent', message: `no agent ${path}; live agents: ${live.join(', ')}` };
}

/** The target of a cancel or close, which must be in the caller's subtree (not the caller). */
function ownSubagent(port: CoordinationPort, caller: string, id: string, verb: 'cancel' | 'close'): string | CoordinationRefusal {
  const target = agentPathOf(id);
  if (typeof target !== 'string') return target;
  // Not the caller itself, nor a sibling whose name merely starts with the caller's.
  if (!target.startsWith(`${caller}/`)) {
    return { code: 'not_permitted', message: `${caller} may only ${verb} its own subagents (and theirs); ${target} is not one of them` };
  }
  return target;
}

/**
 * What `list_agents` shows `viewer`: the running agents it may message under the messaging
 * scope (one still reserved or preparing its summary has no addressable identity yet), in
 * tree order, with task text as the host's policy allows.
 */
export function listFor(port: CoordinationPort, viewer: string): DirectoryEntry[] {
  const scope = port.messaging?.scope ?? DEFAULT_MESSAGING_SCOPE;
  const taskText = port.messaging?.taskText;
  const out: DirectoryEntry[] = [];
  for (const entry of port.agents()) {
    if (!entry.addressable || !mayMessage(scope, { from: viewer, to: entry.path })) continue;
    if (!taskText || entry.lastTask === null) out.push(entry);
    else out.push({ ...entry, lastTask: shownTask(taskText, { viewer, path: entry.path, task: entry.lastTask }) });
  }
  return out;
}

/** The host's redaction of a task text; a failing or malformed policy hides the text. */
function shownTask(taskText: NonNullable<MessagingPolicy['taskText']>, input: TaskTextInput): string | null {
  try {
    const shown = taskText(input);
    return typeof shown === 'string' ? shown : null;
  } catch {
    return null;
  }
}
