/**
 * A {@link ModelAdapter} over the Pi session's models, through Pi's model registry: subagents
 * sample with the providers and credentials the Pi session has, with the session id Pi sends
 * (providers that route prompt caches by session then serve a fork from its parent's cache).
 */
import {
  isContextOverflow,
  isRetryableAssistantError,
  type AssistantMessage,
  type AssistantMessageEventStream,
  type Context,
  type JsonObject as PiJsonObject,
  type Message,
  type Model,
  type SimpleStreamOptions,
  type ThinkingLevel,
  type Tool,
} from '@earendil-works/pi-ai';
import type { Entry } from '../dialogue/entry.js';
import type { ModelAdapter, ModelResponse, SampleContext } from '../model/adapter.js';
import { attachmentText, compactionText, provenanceText } from '../model/ai-sdk-prompt.js';
import type { ModelRequest, ToolSchema } from '../request/types.js';
import { piMessageOf } from './branch.js';

/** What the adapter needs from the Pi session, read at every request (the user may switch models). */
export interface PiModelSource {
  /**
   * The Pi model a request's model id names (`provider/id`, or the id the host gave the Pi
   * session's own model), or undefined when Pi knows no such model.
   */
  model(id: string): Model<string> | undefined;
  /**
   * Streams one request with Pi's request-time authentication (`ctx.modelRegistry.streamSimple`),
   * so extension-registered providers and logins work as in the Pi session.
   */
  stream(model: Model<string>, context: Context, options: SimpleStreamOptions): AssistantMessageEventStream;
  /** The Pi session id, sent as the provider session (prompt-cache routing). */
  sessionId(): string | undefined;
  /** The tools as Pi declares them, by name, so a subagent's tool list is byte-identical to Pi's. */
  tool(name: string): Tool | undefined;
  /** Pi's thinking level, used when a request names no effort. */
  thinkingLevel?(): string | undefined;
}

const THINKING_LEVELS: ReadonlySet<string> = new Set<ThinkingLevel>(['minimal', 'low', 'medium', 'high', 'xhigh', 'max']);

function userMessage(text: string): Message {
  return { role: 'user', content: [{ type: 'text', text }], timestamp: 0 };
}

/** Replies the adapter produced, by their first tool call id: replayed with their thinking blocks. */
type ReplyMemory = Map<string, AssistantMessage>;

function messageOf(entry: Entry, replies: ReplyMemory, model: Model<string>): Message | undefined {
  const original = piMessageOf(entry);
  if (original !== undefined) return original;
  switch (entry.kind) {
    case 'user':
      return userMessage([provenanceText(entry.origin, entry.text), ...entry.attachments.map((a) => attachmentText(a.name, a.content, entry.origin))].join('\n\n'));
    case 'compaction':
      return userMessage(compactionText(entry.summary));
    case 'assistant': {
      const first = entry.toolCalls[0];
      const remembered = first !== undefined ? replies.get(first.id) : undefined;
      if (remembered !== undefined) return remembered;
      const content: AssistantMessage['content'] = [];
      if (entry.text !== '') content.push({ type: 'text', text: entry.text });
      for (const call of entry.toolCalls) {
        const args = call.arguments !== null && typeof call.arguments === 'object' && !Array.isArray(call.arguments) ? call.arguments : {};
        content.push({ type: 'toolCall', id: call.id, name: call.name, arguments: args as PiJsonObject });
      }
      if (content.length === 0) return undefined;
      return {
        role: 'assistant',
        content,
        api: model.api,
        provider: model.provider,
        model: model.id,
        usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
        stopReason: entry.toolCalls.length > 0 ? 'toolUse' : 'stop',
        timestamp: 0,
      };
    }
    case 'tool_result':
      return { role: 'toolResult', toolCallId: entry.callId, toolName: entry.toolName, content: [{ type: 'text', text: entry.content }], isError: entry.isError, timestamp: 0 };
  }
}

function toolOf(schema: ToolSchema, source: PiModelSource): Tool {
  return source.tool(schema.name) ?? { name: schema.name, description: schema.description, parameters: schema.inputSchema };
}

/**
 * The pi-ai context of a request: Pi's own message and tool objects wherever they came from
 * Pi. pi-ai folds the system prompt and tools into the transcript's leading system message, the
 * way Pi's own requests carry them.
 */
export function piContext(request: ModelRequest, source: PiModelSource, model: Model<string>, replies: ReplyMemory = new Map()): Context {
  const messages: Message[] = [];
  for (const entry of request.messages) {
    const message = messageOf(entry, replies, model);
    if (message !== undefined) messages.push(message);
  }
  return {
    systemPrompt: request.system.systemPrompt,
    messages,
    tools: request.system.tools.map((schema) => toolOf(schema, source)),
  };
}

function responseOf(message: AssistantMessage): ModelResponse {
  return {
    text: message.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join(''),
    toolCalls: message.content.flatMap((b) => (b.type === 'toolCall' ? [{ id: b.id, name: b.name, arguments: b.arguments }] : [])),
    usage: {
      inputTokens: message.usage.input,
      outputTokens: message.usage.output,
      cacheReadTokens: message.usage.cacheRead,
      cacheWriteTokens: message.usage.cacheWrite,
    },
    stopReason: message.stopReason,
  };
}

/**
 * The error a failed pi-ai request rejects with. `isRetryable` tells the runtime's retries
 * what Pi's own session would do (pi-ai's `isRetryableAssistantError`: overloaded, rate limits,
 * 5xx, connection failures), except for a context overflow, which Pi handles by compacting.
 */
export function piRequestError(message: AssistantMessage, model: Model<string>): Error & { readonly isRetryable: boolean } {
  const text = message.errorMessage ?? `the model request ended with ${message.stopReason}`;
  const isRetryable = message.stopReason === 'error' && !isContextOverflow(message, model.contextWindow) && isRetryableAssistantError(message);
  return Object.assign(new Error(text), { isRetryable });
}

/** Waits for the stream's final message, passing text and thinking deltas on as they arrive. */
async function finalMessage(stream: AssistantMessageEventStream, onDelta: SampleContext['onDelta']): Promise<AssistantMessage> {
  if (onDelta !== undefined) {
    for await (const event of stream) {
      if (event.type === 'text_delta') onDelta({ kind: 'text', text: event.delta });
      else if (event.type === 'thinking_delta') onDelta({ kind: 'reasoning', text: event.delta });
    }
  }
  return stream.result();
}

/**
 * Wraps the Pi session's models as a {@link ModelAdapter}. Each request goes out on the model
 * its `model` id names (a role's `model: sonnet`, resolved through the runtime's models table,
 * arrives as `provider/id`). A provider error or abort (pi-ai reports both as a final message)
 * rejects, so the runtime records a model error or drops the late reply; an error Pi's own
 * session would retry is marked `isRetryable` (see {@link piRequestError}), so the runtime's
 * retries take it.
 *
 * @example
 * ```ts
 * const model = piModelAdapter({
 *   model: (id) => (id === 'session' ? ctx.model : ctx.modelRegistry.find(...id.split('/') as [string, string])),
 *   stream: (model, context, options) => ctx.modelRegistry.streamSimple(model, context, options),
 *   sessionId: () => ctx.sessionManager.getSessionId(),
 *   tool: () => undefined,
 * });
 * ```
 */
export function piModelAdapter(source: PiModelSource): ModelAdapter {
  const replies: ReplyMemory = new Map();
  return {
    name: 'pi',
    provider: (model) => source.model(model)?.provider ?? 'pi',
    async sample(request, context) {
      const model = source.model(request.model);
      if (model === undefined) throw Object.assign(new Error(`Pi has no model "${request.model}" (check the models table and Pi's model list, /model)`), { isRetryable: false });
      context.signal.throwIfAborted();
      const level = request.effort ?? source.thinkingLevel?.();
      const sessionId = source.sessionId();
      const options: SimpleStreamOptions = {
        signal: context.signal,
        ...(sessionId !== undefined ? { sessionId } : {}),
        ...(level !== undefined && THINKING_LEVELS.has(level) ? { reasoning: level as ThinkingLevel } : {}),
      };
      const message = await finalMessage(source.stream(model, piContext(request, source, model, replies), options), context.onDelta);
      if (message.stopReason === 'error' || message.stopReason === 'aborted') throw piRequestError(message, model);
      const response = responseOf(message);
      const first = response.toolCalls[0];
      if (first !== undefined) replies.set(first.id, message);
      return response;
    },
  };
}
