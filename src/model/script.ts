/**
 * The shape of a scripted model's script: who says what, per agent path, turn and step.
 */
import type { JsonValue } from '../dialogue/entry.js';
import type { ModelRequest } from '../request/types.js';
import type { ReplyUsage, SampleContext } from './adapter.js';
import type { SummaryInput } from './summarizer.js';

/** A tool call a scripted reply makes. Without `id`, a deterministic one is generated. */
export interface ScriptToolCall {
  readonly name: string;
  /** Defaults to `{}`. */
  readonly arguments?: JsonValue;
  readonly id?: string;
}

/** One model reply. */
export interface ScriptReply {
  readonly text?: string;
  readonly toolCalls?: readonly ScriptToolCall[];
  /** Explicit usage; missing fields are 0. Without it, usage is simulated (option `cache`) or zero. */
  readonly usage?: Partial<ReplyUsage>;
  /** Delay before the reply (or the failure) arrives; overrides the model's default latency. */
  readonly latencyMs?: number;
  /** Reject the request with an Error carrying this message (after the latency). */
  readonly fail?: string;
  /** Defaults to `tool_calls` when the reply has calls, else `stop`. */
  readonly stopReason?: string;
  /**
   * The text as it streams: the pieces `context.onDelta` receives, in order, when the runtime
   * asks for deltas. `text` defaults to their concatenation; given both, they must match.
   */
  readonly chunks?: readonly string[];
  /**
   * Reasoning, streamed as `reasoning` deltas before the text (one delta per string); the
   * response carries it as one reasoning part.
   */
  readonly reasoning?: string | readonly string[];
}

/** A reply computed from the request, for dynamic scripts. */
export type ScriptFn = (request: ModelRequest, context: SampleContext) => ScriptReply | Promise<ScriptReply>;

/** One step of a turn: a fixed reply or a function of the request. */
export type ScriptStep = ScriptReply | ScriptFn;

/** A turn's steps in order (step 0 first), or one function answering every step. */
export type TurnScript = readonly ScriptStep[] | ScriptFn;

/** A summary reply: the background text and, optionally, its cost, latency or failure. */
export interface SummaryReply {
  readonly text: string;
  readonly usage?: Partial<ReplyUsage>;
  readonly latencyMs?: number;
  readonly fail?: string;
}

/** What the scripted model answers when asked to summarize for a path. */
export type SummaryScript =
  | string
  | SummaryReply
  | ((input: SummaryInput, signal: AbortSignal) => string | SummaryReply | Promise<string | SummaryReply>);

/**
 * An agent's script: turn number → steps, plus an optional `summary` answer for background
 * prepared for this path. A function answers every turn and step.
 */
export type PathScript =
  | {
      readonly [turn: number]: TurnScript;
      readonly summary?: SummaryScript;
    }
  | ScriptFn;

/** Which paths a rule applies to: an exact path, a glob, or a predicate. */
export type PathMatcher = string | ((agentPath: string) => boolean);

/** One rule of an ordered script. */
export interface ScriptRule {
  readonly match: PathMatcher;
  readonly script: PathScript;
}

/**
 * A whole script. As a record, keys are exact paths or globs (`*` = one path segment or part
 * of it, `**` = any run of characters including `/`, `?` = one character but `/`); exact keys
 * win over globs, globs apply in insertion order. As an array, rules apply in order. For each
 * lookup the first applicable rule that scripts the asked turn (or summary) answers, so a
 * specific rule may script turn 0 and leave turn 1 to a glob.
 */
export type Script = { readonly [path: string]: PathScript } | readonly ScriptRule[];
