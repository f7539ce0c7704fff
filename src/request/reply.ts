/**
 * What a model gives back: a reply to a request, and a generated summary. Adapters and
 * summarizers (the model layer) produce these; the agent machine consumes them.
 */
import type { ReasoningPart, ToolCall } from '../dialogue/entry.js';
import type { ReplyUsage } from './usage.js';
import type { WireBody } from './wire-prefix.js';

/**
 * The assistant reply a model produced: what a `ModelAdapter` resolves with, and what a
 * `delegatingAgent` model function returns. Every tool call needs its `id` (results are paired
 * with calls by it), and `usage` is required (`ZERO_USAGE` when the host does not count).
 *
 * @example
 * ```ts
 * const reply: ModelResponse = { text: '', toolCalls: [{ id: 'call_1', name: 'list_agents', arguments: {} }], usage: ZERO_USAGE };
 * ```
 */
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
  /**
   * The body the provider sent for this reply's request, when the adapter knows it (the AI
   * SDK adapter passes the provider's `request.body`). The runtime measures subagents'
   * `result.prefix` on these bodies, in the provider's cache order; the dialogue keeps none of it.
   */
  readonly wire?: WireBody;
}

/**
 * A generated background for a `summary` spawn and what generating it cost. A summarizer
 * returns it, and the agent machine's `generateSummary` actor resolves with it.
 *
 * @example
 * ```ts
 * const summary: SummaryResult = { text: 'The tests fail in parse.ts.', usage: { inputTokens: 900, outputTokens: 40, cacheReadTokens: 0, cacheWriteTokens: 0 } };
 * ```
 */
export interface SummaryResult {
  readonly text: string;
  readonly usage: ReplyUsage;
}
