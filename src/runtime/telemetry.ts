/**
 * The runtime's side of tracing: it makes the span builder a host's `telemetry` option asks
 * for, and turns what the runtime knows (an agent's input, a request, a reply) into the plain
 * facts the builder takes. `@opentelemetry/api` is loaded only when a host traces.
 */
import { createRequire } from 'node:module';
import type { AgentInput, AgentResult } from '../../machines/agent.types.js';
import type { ModelAdapter, ModelResponse } from '../model/adapter.js';
import type { ModelRequest } from '../request/types.js';
import type { Entry } from '../dialogue/entry.js';
import { RequestTimeoutError } from '../model/transient.js';
import { errorCode } from './errors.js';
import { TraceBuilder, type OtelApi } from '../otel/trace-builder.js';
import type { SpanRef, TelemetryOptions } from '../otel/types.js';

/**
 * Loads `@opentelemetry/api` (a CommonJS package, so synchronously). Its state (the global
 * tracer provider, context manager, context keys) is kept on a process-wide symbol, so the
 * module loaded here and one a host imports share it.
 */
function loadOtelApi(): OtelApi {
  try {
    return createRequire(import.meta.url)('@opentelemetry/api') as OtelApi;
  } catch (error) {
    throw new TypeError('telemetry needs the @opentelemetry/api package (an optional peer dependency): npm install @opentelemetry/api', { cause: error });
  }
}

/** The span builder for a host's `telemetry` option, or none. Malformed options throw a TypeError. */
export function tracingFor(telemetry: TelemetryOptions | undefined): TraceBuilder | undefined {
  if (telemetry === undefined) return undefined;
  if (telemetry === null || typeof telemetry !== 'object') throw new TypeError('telemetry must be an object: { tracer?, recordContent? }');
  const tracer: unknown = telemetry.tracer;
  if (tracer !== undefined && (tracer === null || typeof (tracer as { startSpan?: unknown }).startSpan !== 'function')) {
    throw new TypeError('telemetry.tracer must be an OpenTelemetry Tracer (an object with startSpan)');
  }
  if (telemetry.recordContent !== undefined && typeof telemetry.recordContent !== 'boolean') throw new TypeError('telemetry.recordContent must be a boolean');
  return new TraceBuilder(loadOtelApi(), telemetry);
}

/**
 * A failure as a short code for `error.type`: the error's own code (`ECONNRESET`, a
 * RuntimeError's), `timeout` for a request timeout, else the HTTP status, else `model_error`.
 */
export function failureCode(error: unknown, status: number | undefined): string {
  if (error instanceof RequestTimeoutError) return 'timeout';
  const code = errorCode(error);
  if (code !== undefined) return code;
  return status !== undefined ? String(status) : 'model_error';
}

/** Opens an agent's span from its input; `previous` is the span it had before a resume. */
export function traceAgentStart(trace: TraceBuilder, input: AgentInput, previous: SpanRef | undefined): SpanRef {
  const name = input.parentPath === null ? (input.role ?? 'root') : input.path.slice(input.path.lastIndexOf('/') + 1);
  return trace.agentStarted({
    path: input.path,
    parentPath: input.parentPath,
    name,
    role: input.role,
    sessionId: input.sessionId,
    treeId: input.treeId,
    contextMode: input.contextMode,
    context: input.contextLabel,
    delivery: input.delivery,
    lifetime: input.lifetime,
    model: input.model,
    callId: input.snapshot?.source.triggeringCallId ?? undefined,
    previous,
    task: input.task,
  });
}

/** Closes an agent's span with its result. */
export function traceAgentEnd(trace: TraceBuilder, result: AgentResult): void {
  trace.agentEnded(result.path, { status: result.status, stopReason: result.stopReason, error: result.error });
}

/** The provider a model adapter talks to: its `provider`, else its name up to the first `.` or `:`. */
export function providerOf(adapter: ModelAdapter): string {
  return adapter.provider ?? adapter.name.split(/[.:]/)[0] ?? adapter.name;
}

/** Opens a request's `chat` span (its messages only built when contents are recorded). */
export function traceChatStart(trace: TraceBuilder, adapter: ModelAdapter, request: ModelRequest, at: { readonly path: string; readonly model: string; readonly turn: number; readonly step: number }): void {
  trace.chatStarted({
    path: at.path,
    model: at.model,
    provider: providerOf(adapter),
    turn: at.turn,
    step: at.step,
    content: () => ({ system: request.system.systemPrompt, messages: [...request.messages].map(messageOf) }),
  });
}

/** Ends a request's `chat` span with its reply. */
export function traceChatEnd(trace: TraceBuilder, path: string, response: ModelResponse): void {
  trace.chatEnded(path, {
    usage: {
      inputTokens: response.usage.inputTokens,
      outputTokens: response.usage.outputTokens,
      cacheReadTokens: response.usage.cacheReadTokens ?? 0,
      cacheWriteTokens: response.usage.cacheWriteTokens ?? 0,
    },
    finishReason: response.stopReason ?? (response.toolCalls.length > 0 ? 'tool_calls' : 'stop'),
    output: () => [{ ...assistantMessage(response.text, response.toolCalls), finish_reason: response.stopReason ?? (response.toolCalls.length > 0 ? 'tool_call' : 'stop') }],
  });
}

/** A message part as the GenAI conventions' message schema has them. */
type Part =
  | { readonly type: 'text'; readonly content: string }
  | { readonly type: 'tool_call'; readonly id: string; readonly name: string; readonly arguments: unknown }
  | { readonly type: 'tool_call_response'; readonly id: string; readonly response: string };

function assistantMessage(text: string, calls: readonly { readonly id: string; readonly name: string; readonly arguments: unknown }[]): { readonly role: string; readonly parts: Part[] } {
  const parts: Part[] = text === '' ? [] : [{ type: 'text', content: text }];
  for (const call of calls) parts.push({ type: 'tool_call', id: call.id, name: call.name, arguments: call.arguments });
  return { role: 'assistant', parts };
}

/** One dialogue entry in the conventions' `gen_ai.input.messages` shape. */
function messageOf(entry: Entry): { readonly role: string; readonly parts: Part[] } {
  switch (entry.kind) {
    case 'user':
      return { role: 'user', parts: [{ type: 'text', content: entry.text }, ...entry.attachments.map((a): Part => ({ type: 'text', content: `${a.name}:\n${a.content}` }))] };
    case 'assistant':
      return assistantMessage(entry.text, entry.toolCalls);
    case 'tool_result':
      return { role: 'tool', parts: [{ type: 'tool_call_response', id: entry.callId, response: entry.content }] };
    case 'compaction':
      return { role: 'user', parts: [{ type: 'text', content: entry.summary }] };
  }
}
