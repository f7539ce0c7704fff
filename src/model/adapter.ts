/**
 * The model seam: anything that turns a request into an assistant reply.
 */
import type { JsonValue, ToolCall } from '../dialogue/entry.js';
import type { ModelRequest } from '../request/types.js';

/** Token usage of one request. Zeros where a provider reports none. */
export interface Usage {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cacheReadTokens: number;
  readonly cacheWriteTokens: number;
}

/** A zero usage value. */
export const ZERO_USAGE: Usage = Object.freeze({ inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 });

/** Adds two usage values. */
export function addUsage(a: Usage, b: Usage): Usage {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    cacheReadTokens: a.cacheReadTokens + b.cacheReadTokens,
    cacheWriteTokens: a.cacheWriteTokens + b.cacheWriteTokens,
  };
}

/** The assistant reply a model produced. */
export interface ModelResponse {
  readonly text: string;
  readonly toolCalls: readonly ToolCall[];
  readonly usage: Usage;
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
