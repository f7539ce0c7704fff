/**
 * The shapes of the provider stand-in: what a test scripts (a {@link WireReply}) and what the
 * server keeps of every request it was sent (a {@link RecordedRequest}).
 */

/** Which provider API a request was sent to, by its path. */
export type WireApi = 'anthropic-messages' | 'openai-chat' | 'openai-responses';

/** One tool call a scripted reply makes. */
export interface WireToolCall {
  /** The call id; when absent, one is derived from the request's bytes and the call's index. */
  readonly id?: string;
  readonly name: string;
  /** The call's arguments, sent as the provider sends them (an object, or JSON text for OpenAI). */
  readonly arguments: Readonly<Record<string, unknown>>;
}

/** A reasoning block of a scripted reply. */
export interface WireReasoning {
  readonly text: string;
  /** Anthropic's thinking signature (default: one derived from the text). */
  readonly signature?: string;
  /** OpenAI Responses' encrypted reasoning content, when the test wants one. */
  readonly encryptedContent?: string;
}

/** Token counts a reply reports. Counts left out are derived from the request and the reply. */
export interface WireUsage {
  /** Input tokens the provider did not read from or write to its cache. */
  readonly input?: number;
  readonly output?: number;
  readonly cacheRead?: number;
  readonly cacheWrite?: number;
  readonly reasoning?: number;
}

/** An error the stand-in answers with instead of a reply (an HTTP status and the provider's error body). */
export interface WireError {
  readonly status: number;
  readonly message?: string;
  /** Response headers, e.g. `{ 'retry-after': '0' }`. */
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * What the stand-in answers one request with: text, tool calls, reasoning and usage, in the
 * API's own shape (JSON, or SSE when the request asked to stream), or an error.
 *
 * @example
 * ```ts
 * const reply: WireReply = { reasoning: [{ text: 'Look first.' }], toolCalls: [{ name: 'read', arguments: { path: 'a.ts' } }] };
 * ```
 */
export interface WireReply {
  readonly text?: string;
  readonly toolCalls?: readonly WireToolCall[];
  readonly reasoning?: readonly WireReasoning[];
  readonly usage?: WireUsage;
  /** The stop reason in the API's own words (default: tool calls, or the end of the turn). */
  readonly stopReason?: string;
  /** Answer with this error instead. */
  readonly error?: WireError;
}

/** One request the stand-in received, as it arrived. */
export interface RecordedRequest {
  /** Position in the order the server received requests, from 0. */
  readonly index: number;
  readonly api: WireApi;
  readonly method: string;
  /** The request path, e.g. `/v1/messages`. */
  readonly path: string;
  /** Header names in lower case, as Node gives them. */
  readonly headers: Readonly<Record<string, string>>;
  /** The body as it was sent, byte for byte (UTF-8). */
  readonly rawBody: string;
  /** The body parsed as JSON. */
  readonly body: Readonly<Record<string, unknown>>;
  /** Whether the request asked for a stream (`"stream": true`), and so got SSE. */
  readonly stream: boolean;
}

/** Chooses the reply to a request. It may be async; what it throws becomes a 500. */
export type WireResponder = (request: RecordedRequest) => WireReply | Promise<WireReply>;
