/**
 * AI SDK language-model (V4) result → {@link ModelResponse}. Types only from `@ai-sdk/provider`.
 */
import type { LanguageModelV4FinishReason, LanguageModelV4GenerateResult, LanguageModelV4Usage, SharedV4ProviderMetadata } from '@ai-sdk/provider';
import type { JsonValue, ReasoningPart, ToolCall } from '../dialogue/entry.js';
import type { ModelResponse, ReplyUsage } from './adapter.js';

/**
 * Parses a V4 tool-call input (a JSON string). Blank input means no arguments (some providers
 * send `""` for a call without parameters). Malformed JSON must not crash the agent: the raw
 * string is kept as the argument value, so the runtime's schema validation answers the model
 * with a clear tool error it can correct.
 */
export function parseToolInput(input: string): JsonValue {
  if (input.trim() === '') return {};
  try {
    return JSON.parse(input) as JsonValue;
  } catch {
    return input;
  }
}

/**
 * V4 usage → {@link ReplyUsage}. `inputTokens` is the whole input (cached part included); when a
 * provider reports no total it is rebuilt from its parts. Unreported counts are 0.
 */
export function fromV4Usage(usage: LanguageModelV4Usage): ReplyUsage {
  const input = usage.inputTokens;
  const cacheReadTokens = input.cacheRead ?? 0;
  const cacheWriteTokens = input.cacheWrite ?? 0;
  return {
    inputTokens: input.total ?? (input.noCache ?? 0) + cacheReadTokens + cacheWriteTokens,
    outputTokens: usage.outputTokens.total ?? (usage.outputTokens.text ?? 0) + (usage.outputTokens.reasoning ?? 0),
    cacheReadTokens,
    cacheWriteTokens,
  };
}

/** V4 unified finish reasons, in the snake_case vocabulary of {@link ModelResponse.stopReason}. */
const STOP_REASONS: Readonly<Record<LanguageModelV4FinishReason['unified'], string>> = {
  stop: 'stop',
  length: 'length',
  'content-filter': 'content_filter',
  'tool-calls': 'tool_calls',
  error: 'error',
  // The provider's stream ended without a finish event: the reply may be cut short.
  interrupted: 'interrupted',
  other: 'other',
};

/** V4 finish reason → stop reason. */
export function fromV4FinishReason(reason: LanguageModelV4FinishReason): string {
  // A provider may send a value newer than these types; keep its raw reason then.
  return (STOP_REASONS as Readonly<Record<string, string>>)[reason.unified] ?? reason.raw ?? 'other';
}

/** A V4 tool call as the dialogue keeps it: input parsed, provider metadata (Gemini's thought signature) kept to send back. */
export function toolCallOf(part: { readonly toolCallId: string; readonly toolName: string; readonly input: string; readonly providerMetadata?: SharedV4ProviderMetadata }): ToolCall {
  const call = { id: part.toolCallId, name: part.toolName, arguments: parseToolInput(part.input) };
  return part.providerMetadata === undefined ? call : { ...call, providerMetadata: part.providerMetadata as NonNullable<ToolCall['providerMetadata']> };
}

/** A V4 reasoning part as the dialogue keeps it: its text, and its provider metadata when it has any. */
export function reasoningPart(text: string, providerMetadata: SharedV4ProviderMetadata | undefined): ReasoningPart {
  return providerMetadata === undefined ? { text } : { text, providerMetadata: providerMetadata as ReasoningPart['providerMetadata'] & object };
}

/**
 * V4 generate result → {@link ModelResponse}: text parts joined in order (as the AI SDK's
 * `text` is), reasoning parts kept with their provider metadata (they are sent back on later
 * requests), client-side tool calls parsed. Files and sources are not part of the dialogue and
 * are dropped; provider-executed tool calls (and their results) were already run by the
 * provider, so they are not handed to the runtime to run again.
 */
export function fromV4Result(result: LanguageModelV4GenerateResult): ModelResponse {
  let text = '';
  const toolCalls: ToolCall[] = [];
  const reasoning: ReasoningPart[] = [];
  for (const part of result.content) {
    if (part.type === 'text') text += part.text;
    else if (part.type === 'reasoning') reasoning.push(reasoningPart(part.text, part.providerMetadata));
    else if (part.type === 'tool-call' && part.providerExecuted !== true) {
      toolCalls.push(toolCallOf(part));
    }
  }
  return {
    text,
    toolCalls,
    usage: fromV4Usage(result.usage),
    stopReason: fromV4FinishReason(result.finishReason),
    ...(reasoning.length > 0 ? { reasoning } : {}),
  };
}
