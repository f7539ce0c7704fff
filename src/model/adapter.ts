/**
 * The model seam: anything that turns a request into an assistant reply.
 */
import type { JsonValue, ReasoningPart, ToolCall } from '../dialogue/entry.js';
import type { ModelRequest } from '../request/types.js';

/**
 * What model work cost: tokens, and how many requests produced them. The one usage type of the
 * library: a reply's usage, an agent's own total, a subtree's total and the session's total
 * all have this shape. Zeros where a provider reports none.
 *
 * @example
 * ```ts
 * const total = addUsage(result.usage, { ...ZERO_USAGE, inputTokens: 120, requests: 1 });
 * ```
 */
export interface Usage {
  /** Every input token, cached ones included. */
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** Input tokens served from the provider's prompt cache (part of `inputTokens`). */
  readonly cacheReadTokens: number;
  /** Input tokens written to the provider's prompt cache (part of `inputTokens`). */
  readonly cacheWriteTokens: number;
  /** Model requests answered, retried attempts included (a request aborted by a cancel is not counted). */
  readonly requests: number;
  /** Requests that repeated a failed attempt (counted in `requests` too). */
  readonly retries: number;
  /**
   * Estimated cost, in the currency of `RuntimeOptions.prices`. Present only where the runtime
   * reports usage and every model counted here has a price.
   */
  readonly cost?: number;
}

/**
 * Usage as a model adapter or summarizer reports one reply: the token counts. `requests` and
 * `retries` are counted by the runtime (one request, no retry) unless the adapter reports them
 * itself, for example because it retried internally.
 */
export type ReplyUsage = Omit<Usage, 'requests' | 'retries' | 'cost'> & Partial<Pick<Usage, 'requests' | 'retries'>>;

/** A zero usage value. */
export const ZERO_USAGE: Usage = Object.freeze({ inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, requests: 0, retries: 0 });

/** Adds two usage values. A cost is kept only when both sides have one. */
export function addUsage(a: Usage, b: Usage): Usage {
  const sum: Usage = {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    cacheReadTokens: a.cacheReadTokens + b.cacheReadTokens,
    cacheWriteTokens: a.cacheWriteTokens + b.cacheWriteTokens,
    requests: a.requests + b.requests,
    retries: a.retries + b.retries,
  };
  return a.cost !== undefined && b.cost !== undefined ? { ...sum, cost: a.cost + b.cost } : sum;
}

/** Subtracts usage counted earlier from a later running total. A cost is kept when the later total has one. */
export function subtractUsage(after: Usage, before: Usage): Usage {
  const out: Usage = {
    inputTokens: after.inputTokens - before.inputTokens,
    outputTokens: after.outputTokens - before.outputTokens,
    cacheReadTokens: after.cacheReadTokens - before.cacheReadTokens,
    cacheWriteTokens: after.cacheWriteTokens - before.cacheWriteTokens,
    requests: after.requests - before.requests,
    retries: after.retries - before.retries,
  };
  return after.cost !== undefined ? { ...out, cost: after.cost - (before.cost ?? 0) } : out;
}

/**
 * The usage of one answered request: the reply's tokens, counted as one request with no retry
 * unless the reply says otherwise. Extra `retries` (attempts the caller repeated) add to both
 * counts.
 */
export function requestUsage(reply: ReplyUsage, retries = 0): Usage {
  return {
    inputTokens: reply.inputTokens,
    outputTokens: reply.outputTokens,
    cacheReadTokens: reply.cacheReadTokens,
    cacheWriteTokens: reply.cacheWriteTokens,
    requests: (reply.requests ?? 1) + retries,
    retries: (reply.retries ?? 0) + retries,
  };
}

/** The assistant reply a model produced. */
export interface ModelResponse {
  readonly text: string;
  readonly toolCalls: readonly ToolCall[];
  /**
   * Reasoning parts with their provider metadata, in order. The dialogue keeps them with the
   * reply and adapters send them back on later requests (Anthropic requires that during tool use).
   */
  readonly reasoning?: readonly ReasoningPart[];
  readonly usage: ReplyUsage;
  /** Provider stop reason, if reported (`stop`, `tool_calls`, `length`, ...). */
  readonly stopReason?: string;
}

/** Who is asking: lets scripted and routing adapters answer per agent. Never sent to a provider. */
export interface SampleContext {
  readonly signal: AbortSignal;
  /** The asking agent's path, e.g. `/root/research`. */
  readonly agentPath: string;
  /** Zero-based number of the asking agent's turn. */
  readonly turn: number;
  /** Zero-based number of the model request within the turn. */
  readonly step: number;
  /**
   * Receives the reply as it is produced, when the runtime streams (the host iterates
   * `runtime.events()`). Streaming adapters call it once per text or reasoning delta, in order;
   * the resolved `ModelResponse` must still hold the whole reply.
   */
  readonly onDelta?: (delta: ModelDelta) => void;
}

/** One piece of a reply, as a streaming adapter receives it from its provider. */
export interface ModelDelta {
  readonly kind: 'text' | 'reasoning';
  readonly text: string;
}

/**
 * A model provider. Implementations must honour `context.signal`: when it aborts, reject
 * (any error) promptly; the runtime ignores whatever arrives after an abort.
 */
export interface ModelAdapter {
  readonly name: string;
  sample(request: ModelRequest, context: SampleContext): Promise<ModelResponse>;
}

/** A tool-call argument object, as adapters build them. */
export type ToolArguments = { readonly [key: string]: JsonValue };
