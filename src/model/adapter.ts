/**
 * The model seam: anything that turns a request into an assistant reply.
 */
import type { JsonValue } from '../dialogue/entry.js';
import type { ModelRequest } from '../request/types.js';
import type { ModelResponse } from '../request/reply.js';

// Usage and the reply shape live in the request layer, where the agent machine can use them;
// the model seam re-exports them because adapters are written against this file.
export { addUsage, requestUsage, subtractUsage, ZERO_USAGE, type ReplyUsage, type Usage } from '../request/usage.js';
export type { ModelResponse } from '../request/reply.js';

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
  /**
   * The provider it talks to, as OpenTelemetry's `gen_ai.provider.name` names it (`anthropic`,
   * `openai`, ...), or a function of the request's model id for an adapter that routes models
   * to several providers. Default: `name` up to its first `.` or `:`.
   */
  readonly provider?: string | ((model: string) => string);
  sample(request: ModelRequest, context: SampleContext): Promise<ModelResponse>;
}

/** A tool-call argument object, as adapters build them. */
export type ToolArguments = { readonly [key: string]: JsonValue };
