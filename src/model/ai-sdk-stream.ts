/**
 * AI SDK language-model (V4) stream → {@link ModelResponse}, passing each text and reasoning
 * delta on as it arrives. Types only from `@ai-sdk/provider`.
 */
import type { LanguageModelV4FinishReason, LanguageModelV4StreamPart, LanguageModelV4Usage, SharedV4ProviderMetadata } from '@ai-sdk/provider';
import type { ReasoningPart, ToolCall } from '../dialogue/entry.js';
import { abortError } from './abort.js';
import type { ModelDelta, ModelResponse } from './adapter.js';
import { fromV4FinishReason, fromV4Usage, reasoningPart, toolCallOf } from './ai-sdk-result.js';

/** One reasoning block being streamed: its text so far and its latest provider metadata. */
interface OpenReasoning {
  text: string;
  metadata: SharedV4ProviderMetadata | undefined;
}

/**
 * Reads a V4 stream to its end and returns the whole reply, as `fromV4Result` would have built
 * it from `doGenerate`: text deltas joined, reasoning blocks kept with their provider metadata
 * (the latest a block's deltas or end carried: Anthropic sends the signature last), client-side
 * tool calls parsed, usage and finish reason from the `finish` part. `onDelta` gets each
 * non-empty text and reasoning delta in order.
 *
 * An `error` part rejects with its error (so an `APICallError` keeps its status for retries).
 * An abort of `signal` cancels the stream and rejects with an AbortError.
 */
export async function collectV4Stream(
  stream: ReadableStream<LanguageModelV4StreamPart>,
  signal: AbortSignal,
  onDelta: ((delta: ModelDelta) => void) | undefined,
): Promise<ModelResponse> {
  const reader = stream.getReader();
  // Cancelling the reader ends a pending read at once (done), even if the provider is silent.
  const onAbort = (): void => void reader.cancel(signal.reason).catch(() => undefined);
  signal.addEventListener('abort', onAbort, { once: true });
  let text = '';
  const toolCalls: ToolCall[] = [];
  const reasoning: ReasoningPart[] = [];
  const open = new Map<string, OpenReasoning>();
  let usage: LanguageModelV4Usage | undefined;
  let finishReason: LanguageModelV4FinishReason | undefined;
  const closeReasoning = (id: string, metadata: SharedV4ProviderMetadata | undefined): void => {
    const block = open.get(id);
    if (block === undefined) return;
    open.delete(id);
    reasoning.push(reasoningPart(block.text, metadata ?? block.metadata));
  };
  try {
    for (;;) {
      const { done, value: part } = await reader.read();
      if (signal.aborted) throw abortError(signal);
      if (done) break;
      switch (part.type) {
        case 'text-delta':
          if (part.delta === '') break;
          text += part.delta;
          onDelta?.({ kind: 'text', text: part.delta });
          break;
        case 'reasoning-start':
          open.set(part.id, { text: '', metadata: part.providerMetadata });
          break;
        case 'reasoning-delta': {
          let block = open.get(part.id);
          if (block === undefined) open.set(part.id, (block = { text: '', metadata: undefined }));
          block.metadata = part.providerMetadata ?? block.metadata;
          if (part.delta === '') break;
          block.text += part.delta;
          onDelta?.({ kind: 'reasoning', text: part.delta });
          break;
        }
        case 'reasoning-end':
          closeReasoning(part.id, part.providerMetadata);
          break;
        case 'tool-call':
          if (part.providerExecuted !== true) toolCalls.push(toolCallOf(part));
          break;
        case 'finish':
          usage = part.usage;
          finishReason = part.finishReason;
          break;
        case 'error':
          throw part.error;
        default:
          // Tool input deltas (the whole call arrives as `tool-call`), sources, files, metadata.
          break;
      }
    }
  } catch (error) {
    // The provider's connection is not needed any more, whatever failed.
    void reader.cancel().catch(() => undefined);
    throw error;
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
  // A block the provider never closed is kept with what it had.
  for (const id of [...open.keys()]) closeReasoning(id, undefined);
  return {
    text,
    toolCalls,
    usage: usage === undefined ? { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 } : fromV4Usage(usage),
    ...(finishReason !== undefined ? { stopReason: fromV4FinishReason(finishReason) } : {}),
    ...(reasoning.length > 0 ? { reasoning } : {}),
  };
}
