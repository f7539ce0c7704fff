/**
 * The host's handle on a session (`Runtime`) and what its methods give back.
 */
import type { AgentResult, Delivery, Lifetime, StopReason, ToolOutcome, TurnStatus } from '../../machines/agent.types.js';
import type { Attachment, ToolCall } from '../dialogue/entry.js';
import type { DialogueView } from '../dialogue/types.js';
import type { Usage } from '../model/adapter.js';
import type { BudgetRemaining } from './budget-ledger.js';
import type { RoleWarning } from './roles.js';
import type { RuntimeEvents } from './runtime-events.js';
import type { SpawnHandle, SpawnPolicyDecision, SpawnRequest } from './spawn-types.js';
import type { EventsOptions, RuntimeStreamEvent } from './stream-events.js';
import type { ApprovalDecision, ApprovalRequest } from './tool-types.js';

/** One live agent as `list_agents` and hosts see it. */
export interface AgentInfo {
  readonly path: string;
  readonly role: string | undefined;
  /** `reserved`, `preparingSummary`, `running.working.sampling`, `running.idle`, ... */
  readonly state: string;
  readonly context: string;
  readonly delivery: Delivery;
  readonly lifetime: Lifetime;
  readonly lastTask: string | null;
  readonly elapsedMs: number;
  /**
   * Turns the agent has finished itself (as its result's `turns` will say): a fork's inherited
   * turns do not count, and a turn in progress counts once it ends.
   */
  readonly turns: number;
}

/** One agent a cancellation stopped, and the state it was in. */
export interface CancelledAgent {
  readonly path: string;
  readonly state: string;
}

/** What a cancellation stopped, children before parents. */
export interface CancelReport {
  readonly stopped: readonly CancelledAgent[];
}

/** Options of {@link Runtime.prompt}. */
export interface PromptOptions {
  /** The agent to prompt (default the root). It must be running. */
  readonly to?: string;
  /** Files or snippets the prompt carries; the model sees each after the prompt's text. */
  readonly attachments?: readonly Attachment[];
  /** Aborting it cancels the turn answering this prompt, and the subagents that turn started. */
  readonly signal?: AbortSignal;
}

/** The host's handle on a session. */
export interface Runtime {
  /** The tree's session id: every result carries it as `treeId`. */
  readonly sessionId: string;
  /** The agent's own session id (live agents, and settled ones still retained). */
  sessionIdOf(path: string): string | undefined;
  /**
   * What the runtime found wrong with its roles when it started: tool names no tool has,
   * patterns for tools without a matcher, unknown model names, `bypassPermissions` without
   * a confirm callback. Each names the role and its file. Later, spawns add what a role asked
   * for and did not get (a tool its parent lacks, a costlier model nobody could confirm),
   * once per role and tool or model.
   */
  readonly warnings: readonly RoleWarning[];
  /** The root agent's path (`/root`). */
  readonly rootPath: string;
  /**
   * Sends a person's message to an agent (the root by default), starting its turn if it is
   * idle or joining the turn in progress. Resolves with that turn's outcome when it ends; a
   * failed model request or the step cap ends the turn, never the session. Rejects only for
   * bad input (then nothing was sent).
   *
   * @example
   * ```ts
   * const controller = new AbortController();
   * const outcome = await runtime.prompt('Why do nested blocks break?', { signal: controller.signal });
   * if (outcome.status === 'completed') console.log(outcome.text, outcome.usage.subtree);
   * ```
   */
  prompt(text: string, options?: PromptOptions): Promise<TurnOutcome>;
  /**
   * A handle on the turn an agent (the root by default) is in now: resolves with its outcome
   * when it ends, as `prompt` does. Undefined when the agent is not in a turn. After
   * `resumeRuntime`, this is how a host awaits the root turn the crash interrupted (the
   * resumed session finishes it). `usage` counts from this call.
   *
   * @example
   * ```ts
   * const runtime = resumeRuntime({ model, store: openJsonlStore({ dir, sessionId }) });
   * const outcome = await runtime.turnInProgress();
   * if (outcome) console.log(outcome.status, outcome.text);
   * ```
   */
  turnInProgress(path?: string): Promise<TurnOutcome> | undefined;
  /** Starts a subagent under `parentPath` as the Agent tool would, with the host's options. */
  spawn(parentPath: string, request: SpawnRequest, options?: SpawnPolicyDecision & { readonly signal?: AbortSignal }): Promise<SpawnHandle>;
  /**
   * Runs one model tool call (a built-in such as `Agent`, or a host tool) on behalf of a live
   * agent, as the agent machine would: for hosts that run an agent's loop themselves (see
   * {@link HostRoot}). Never rejects: a bad call resolves as an error outcome the model can read.
   *
   * @example
   * ```ts
   * const outcome = await runtime.callTool('/root', { id: 'call_1', name: 'list_agents', arguments: {} });
   * ```
   */
  callTool(path: string, call: ToolCall, options?: { readonly signal?: AbortSignal }): Promise<ToolOutcome>;
  /** Routes a `send_message` from one agent to another. Throws a RuntimeError on a bad target. */
  send(from: string, to: string, message: string): void;
  /** Cancels an agent's subtree, children first. Cancelling the root stops the session. */
  cancel(path: string, reason?: string): CancelReport;
  /** Closes a continuable agent (now if idle, at the end of its turn if working). */
  close(path: string): void;
  /** Compacts an agent's dialogue (now if idle, before its next model request otherwise). */
  compact(path: string): Promise<void>;
  /** Live agents, the root first. */
  list(): AgentInfo[];
  /**
   * The transcript of any agent of the session: a live agent's dialogue so far, or the final
   * dialogue of a settled or cancelled one, kept until the host calls `release(path)` or the
   * retention policy (`retention.maxSettled`, default keep all) drops it. Undefined for a
   * path the session never had or no longer keeps. A frozen value, never a copy.
   *
   * @example
   * ```ts
   * await runtime.prompt('Research the parser bug');
   * const log = runtime.transcript('/root/research')?.log.toArray();
   * runtime.release('/root/research');
   * ```
   */
  transcript(path: string): DialogueView | undefined;
  /** An agent's state string, or undefined when it is not live. */
  stateOf(path: string): string | undefined;
  /** The one result of an agent (waits for it if still live). */
  result(path: string): Promise<AgentResult>;
  /**
   * Results of settled agents in settlement order, as far as the retention policy keeps them
   * (every one by default). A frozen array; read it again to see later results.
   */
  readonly results: readonly AgentResult[];
  /**
   * Forgets a settled agent: drops its retained result and final dialogue. Returns whether
   * anything was retained. Throws a RuntimeError (`invalid_arguments`) for a live agent.
   *
   * @example
   * ```ts
   * const result = await runtime.result('/root/research');
   * store(result);
   * runtime.release('/root/research'); // a long-lived host keeps memory flat
   * ```
   */
  release(path: string): boolean;
  /** Resolves when no agent is working (all idle or finished). */
  whenQuiet(): Promise<void>;
  /** Subscribes to runtime events; returns the unsubscribe function. */
  on<K extends keyof RuntimeEvents>(type: K, listener: (event: RuntimeEvents[K]) => void): () => void;
  /**
   * Every event of the tree (or of `path`, and with `subtree` of its subagents too) as an
   * async iterable: text and reasoning deltas, tool calls started and finished, subagents
   * spawned and settled, state changes, usage updates, turn ends, retries. Events arrive in
   * the order they happened; each names its agent in `path`.
   *
   * - Subscribed at the call: nothing that happens after it is missed.
   * - Model requests stream deltas only while some iterator takes their agent's events; an
   *   adapter that does not stream yields its reply's text as one delta when it arrives.
   * - `break` (or `return()`) and an aborted `signal` unsubscribe and end the loop.
   * - The iteration ends by itself after `session-ended` (the session stopped) or `halted`,
   *   and, with `path`, after that agent's `subagent-settled`.
   * - Each iterator buffers at most `bufferSize` unread events (default 10,000); past that the
   *   oldest are dropped and a `lagged` event says how many, so a consumer that stops reading
   *   never grows the runtime's memory without bound.
   *
   * Throws a RuntimeError (`invalid_arguments`) for malformed options.
   *
   * @example
   * ```ts
   * const watching = new AbortController();
   * void (async () => {
   *   for await (const event of runtime.events({ signal: watching.signal })) {
   *     if (event.type === 'text-delta') process.stdout.write(event.text);
   *     if (event.type === 'tool-call-started') console.log(`\n${event.path} calls ${event.toolName}`);
   *   }
   * })();
   * await runtime.prompt('Why do nested blocks break?');
   * watching.abort();
   * ```
   */
  events(options?: EventsOptions): AsyncIterableIterator<RuntimeStreamEvent>;
  /**
   * The session's total usage so far: every agent's replies, retries, background generation
   * and compactions, cancelled agents included; with `cost` when `prices` covers them.
   *
   * @example
   * ```ts
   * await runtime.whenQuiet();
   * const { inputTokens, requests, cost } = runtime.usage();
   * ```
   */
  usage(): Usage;
  /**
   * What a live agent may still spend, per dimension its subtree is capped in (its own cap,
   * or the nearest ancestor's); undefined for an agent that is not live. See docs/governance.md.
   *
   * @example
   * ```ts
   * const left = runtime.budgetOf('/root'); // { tokens: 412000, spawns: 37 }
   * ```
   */
  budgetOf(path: string): BudgetRemaining | undefined;
  /**
   * The approval requests waiting for an answer, in the order they were made (`seq`). After a
   * resume, a request the crash left pending is pending again, with the same id.
   *
   * @example
   * ```ts
   * for (const request of runtime.approvals()) runtime.answerApproval(request.id, request.toolName !== 'deploy');
   * ```
   */
  approvals(): readonly ApprovalRequest[];
  /**
   * Answers a pending approval request (approve with `true`, deny with `false` or
   * `{ approved: false, reason }`; the model reads the reason). Throws a RuntimeError with
   * code `unknown_approval` when no request with that id is pending (it was answered,
   * withdrawn, or never made), and `invalid_arguments` for a malformed decision.
   */
  answerApproval(id: string, decision: ApprovalDecision): void;
  /** Slots held by live subagents (reserved or running). */
  readonly slotsInUse: number;
  /** Stops the whole session (cancels the root's subtree). */
  stop(reason?: string): CancelReport;
}

/** Usage of one turn: the prompted agent's own, and its whole subtree's (itself included). */
export interface TurnUsage {
  readonly own: Usage;
  readonly subtree: Usage;
}

/**
 * What `await runtime.prompt(...)` gives: how the turn that answered the prompt ended.
 *
 * - `status` `completed`: the model gave its final answer.
 * - `max_steps`: the step cap ended the turn; `text` is what the turn had said so far.
 * - `failed`: a model request still failed after its retries (`error` says why); the agent
 *   is idle again and takes the next prompt.
 * - `cancelled`: the prompt's signal aborted (or the agent was stopped); `cancelled` lists
 *   every agent stopped, children first.
 */
export interface TurnOutcome {
  readonly path: string;
  /** Zero-based number of the turn that answered the prompt. */
  readonly turn: number;
  readonly text: string;
  readonly status: TurnStatus;
  readonly stopReason: StopReason;
  readonly error?: string;
  readonly usage: TurnUsage;
  /** Results of the agent's subagents (at any depth) that settled during the turn, in order. */
  readonly subagents: readonly AgentResult[];
  /** What the abort stopped, when the prompt's signal cancelled the turn. */
  readonly cancelled?: CancelReport;
}
