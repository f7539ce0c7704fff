/**
 * The telemetry options hosts pass, and the facts the runtime reports to the tracing layer.
 * Nothing here imports `@opentelemetry/api`: a host that does not trace needs none of it.
 */

/**
 * The part of an OpenTelemetry `Tracer` the runtime uses. Any `Tracer` from
 * `@opentelemetry/api` (1.x) fits; it is typed structurally so the main entry's types do not
 * require the package.
 */
export interface TracerLike {
  startSpan(name: string, options?: object, context?: object): object;
}

/**
 * Telemetry options of `createRuntime`, `delegatingAgent` and the Pi extension.
 *
 * @example
 * ```ts
 * import { trace } from '@opentelemetry/api';
 * const runtime = createRuntime({ model, telemetry: { tracer: trace.getTracer('my-app') } });
 * ```
 */
export interface TelemetryOptions {
  /** The tracer spans are started with. Default: the global tracer provider's `subagent-actors` tracer. */
  readonly tracer?: TracerLike;
  /**
   * Record message contents (`gen_ai.input.messages`, `gen_ai.output.messages`,
   * `gen_ai.system_instructions`, tool arguments and results). Default false: spans carry
   * names, ids, models, usage and outcomes, never what was said.
   */
  readonly recordContent?: boolean;
}

/** `delegatingAgent`'s telemetry options: the runtime's, and the provider its model function calls. */
export interface DelegatingTelemetryOptions extends TelemetryOptions {
  /** `gen_ai.provider.name` of the model function's requests (default `unknown`). */
  readonly provider?: string;
}

/** A span's identity as the journal keeps it (W3C trace-context ids, hex). */
export interface SpanRef {
  readonly traceId: string;
  readonly spanId: string;
  readonly traceFlags: number;
}

/** An agent's span is opened: its reservation. */
export interface AgentStart {
  readonly path: string;
  readonly parentPath: string | null;
  /** Its task name (the last path segment) or role. */
  readonly name: string;
  readonly role: string | undefined;
  /** The agent's own session id (`gen_ai.conversation.id`). */
  readonly sessionId: string;
  readonly treeId: string;
  readonly contextMode: string;
  readonly context: string;
  readonly delivery: string;
  readonly lifetime: string;
  /** The model id it samples from. */
  readonly model: string;
  /** The `Agent` call that spawned it (its parent's tool call id), when one did. */
  readonly callId?: string | undefined;
  /** Resume: the span this agent had before the session stopped. */
  readonly previous?: SpanRef | undefined;
  /** The task text (recorded only with `recordContent`). */
  readonly task?: string | null | undefined;
}

/** How an agent ended. */
export interface AgentEnd {
  readonly status: string;
  readonly stopReason: string;
  readonly error?: string | undefined;
}

/** Token counts of one reply (or a failed request's partial spending). */
export interface ChatUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cacheReadTokens: number;
  readonly cacheWriteTokens: number;
}

/** A model request is about to be sent. */
export interface ChatStart {
  readonly path: string;
  readonly model: string;
  /** The provider (`anthropic`, `openai`, ...); `gen_ai.provider.name`. */
  readonly provider: string;
  readonly turn: number;
  readonly step: number;
  /** The request's messages and system text, for `recordContent`. Built only when asked for. */
  readonly content?: () => { readonly system?: string; readonly messages: unknown };
}

/** A model request ended. */
export interface ChatEnd {
  readonly usage?: ChatUsage | undefined;
  readonly finishReason?: string | undefined;
  readonly responseModel?: string | undefined;
  /** The error code (`rate_limited`, `timeout`, `cancelled`, ...), when it failed. */
  readonly errorCode?: string | undefined;
  readonly errorMessage?: string | undefined;
  /** The reply, for `recordContent`. */
  readonly output?: () => unknown;
}

/** A failed attempt that will be retried. */
export interface ChatRetry {
  readonly attempt: number;
  readonly delayMs: number;
  /** What failed, as a short code (`error.type`): the error's code, else the HTTP status, else `model_error`. */
  readonly errorType: string;
  /** The error's text. */
  readonly error: string;
  readonly status?: number | undefined;
}

/** A tool call starts. */
export interface ToolStart {
  readonly path: string;
  readonly callId: string;
  readonly toolName: string;
  readonly args?: unknown;
}

/** A tool call ended. */
export interface ToolEnd {
  readonly content: string;
  readonly isError: boolean;
  readonly cancelled: boolean;
  readonly errorCode?: string | undefined;
}

/** Attribute values a span event may carry. */
export type EventAttributes = Readonly<Record<string, string | number | boolean | readonly string[] | undefined>>;
