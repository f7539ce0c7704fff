/**
 * A {@link ModelAdapter} over the Pi session's own model, through pi-ai: subagents sample the
 * provider, model and credentials the Pi session uses, with the session id Pi sends (providers
 * that route prompt caches by session then serve a fork from its parent's cache).
 */
import { completeSimple, isContextOverflow, type AssistantMessage, type Context, type Message, type Model, type Tool } from '@earendil-works/pi-ai';
import type { Entry } from '../dialogue/entry.js';
import type { ModelAdapter, ModelResponse } from '../model/adapter.js';
import { attachmentText, compactionText, provenanceText } from '../model/ai-sdk-prompt.js';
import type { ModelRequest, ToolSchema } from '../request/types.js';
import { piMessageOf } from './branch.js';

/** What the adapter needs from the Pi session, read at every request (the user may switch models). */
export interface PiModelSource {
  /** The session's current model. */
  model(): Model<string> | undefined;
  /** Credentials for a model (Pi's `modelRegistry.getApiKeyAndHeaders`). */
  auth(model: Model<string>): Promise<{ readonly apiKey?: string; readonly headers?: Record<string, string> }>;
  /** The Pi session id, sent as the provider session (prompt-cache routing). */
  sessionId(): string | undefined;
  /** The tools as Pi sends them, by name, so a subagent's tool list is byte-identical to Pi's. */
  tool(name: string): Tool | undefined;
  /** Pi's thinking level, used when a request names no effort. */
  thinkingLevel?(): string | undefined;
}

const THINKING_LEVELS = new Set(['minimal', 'low', 'medium', 'high', 'xhigh']);

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
      return userMessage([provenanceText(entry.origin, entry.text), ...entry.attachments.map((a) => attachmentText(a.name, a.content))].join('\n\n'));
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
        content.push({ type: 'toolCall', id: call.id, name: call.name, arguments: args as Record<string, unknown> });
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
  return source.tool(schema.name) ?? { name: schema.name, description: schema.description, parameters: schema.inputSchema as unknown as Tool['parameters'] };
}

/** The pi-ai context of a request: Pi's own message and tool objects wherever the entry came from Pi. */
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
 * The errors Pi's own session retries (overloaded, rate limits, 5xx, connection failures,
 * timeouts), as pi-coding-agent 0.74 matches them. pi-ai reports a failed request as a
 * message with text only, no status, so the text is all there is to go on.
 */
const PI_TRANSIENT =
  /overloaded|provider.?returned.?error|rate.?limit|too many requests|429|500|502|503|504|service.?unavailable|server.?error|internal.?error|network.?error|connection.?error|connection.?refused|connection.?lost|websocket.?closed|websocket.?error|other side closed|fetch failed|upstream.?connect|reset before headers|socket hang up|ended without|stream ended before message_stop|http2 request did not get a response|timed? out|timeout|terminated|retry delay/i;

/**
 * The error a failed pi-ai request rejects with. `isRetryable` tells the runtime's retries
 * what Pi's session would do: retry the transient failures above, but not a context
 * overflow (compaction handles that) nor an abort.
 */
export function piRequestError(message: AssistantMessage, model: Model<string>): Error & { readonly isRetryable: boolean } {
  const text = message.errorMessage ?? `the model request ended with ${message.stopReason}`;
  const isRetryable = message.stopReason === 'error' && PI_TRANSIENT.test(text) && !isContextOverflow(message, model.contextWindow);
  return Object.assign(new Error(text), { isRetryable });
}

/**
 * Wraps the Pi session's model as a {@link ModelAdapter}. A provider error or abort (pi-ai
 * reports both as a final message) rejects, so the runtime records a model error or drops the
 * late reply; an error Pi's own session would retry is marked `isRetryable` (see
 * {@link piRequestError}), so the runtime's retries take it.
 *
 * @example
 * ```ts
 * const model = piModelAdapter({
 *   model: () => ctx.model,
 *   auth: async (m) => { const a = await ctx.modelRegistry.getApiKeyAndHeaders(m); return a.ok ? a : {}; },
 *   sessionId: () => ctx.sessionManager.getSessionId(),
 *   tool: () => undefined,
 * });
 * ```
 */
export function piModelAdapter(source: PiModelSource): ModelAdapter {
  const replies: ReplyMemory = new Map();
  return {
    name: 'pi',
    async sample(request, context) {
      const model = source.model();
      if (model === undefined) throw new Error('the Pi session has no model selected');
      context.signal.throwIfAborted();
      const auth = await source.auth(model);
      const level = request.effort ?? source.thinkingLevel?.();
      const message = await completeSimple(model, piContext(request, source, model, replies), {
        signal: context.signal,
        ...(auth.apiKey !== undefined ? { apiKey: auth.apiKey } : {}),
        ...(auth.headers !== undefined ? { headers: auth.headers } : {}),
        ...(source.sessionId() !== undefined ? { sessionId: source.sessionId() } : {}),
        ...(level !== undefined && THINKING_LEVELS.has(level) ? { reasoning: level as 'low' } : {}),
      });
      if (message.stopReason === 'error' || message.stopReason === 'aborted') throw piRequestError(message, model);
      const response = responseOf(message);
      const first = response.toolCalls[0];
      if (first !== undefined) replies.set(first.id, message);
      return response;
    },
  };
}
