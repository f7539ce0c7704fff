/**
 * What every host reports to the span builder, built from the machine's own values: an
 * agent's input, a request's head and entries, a reply. `createRuntime` and `delegatingAgent`
 * both use these, so the same agent gets the same span attributes in either host.
 */
import type { Entry } from '../src/dialogue/entry.js';
import type { ModelResponse } from '../src/request/reply.js';
import type { TraceBuilder } from '../src/otel/trace-builder.js';
import type { SpanRef } from '../src/otel/types.js';
import type { AgentInput, AgentResult } from './agent.types.js';

/** Opens an agent's span from its input; `previous` is the span it had before a resume. */
export function traceAgentStart(trace: TraceBuilder, input: AgentInput, previous?: SpanRef): SpanRef {
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

/** Opens a request's `chat` span (its messages are built only when contents are recorded). */
export function traceChatStart(
  trace: TraceBuilder,
  at: { readonly path: string; readonly model: string; readonly provider: string; readonly turn: number; readonly step: number },
  content: () => { readonly system: string; readonly entries: Iterable<Entry> },
): void {
  // Without recorded contents nothing reads them: no closure or copy per request.
  if (!trace.recordContent) return trace.chatStarted(at);
  trace.chatStarted({
    ...at,
    content: () => {
      const { system, entries } = content();
      return { system, messages: [...entries].map(messageOf) };
    },
  });
}

/** Ends a request's `chat` span with its reply. */
export function traceChatEnd(trace: TraceBuilder, path: string, response: ModelResponse): void {
  const finishReason = response.stopReason ?? (response.toolCalls.length > 0 ? 'tool_call' : 'stop');
  // The reply's usage is read, not copied; the output closure exists only when contents are recorded.
  if (!trace.recordContent) return trace.chatEnded(path, { usage: response.usage, finishReason });
  trace.chatEnded(path, {
    usage: response.usage,
    finishReason,
    output: () => [{ ...assistantMessage(response.text, response.toolCalls), finish_reason: finishReason }],
  });
}

/** The error code an error outcome's text starts with (`Error (code): ...`). */
export function outcomeCode(content: string, cancelled: boolean): string {
  if (cancelled) return 'cancelled';
  return /^Error \(([a-z_]+)\)/.exec(content)?.[1] ?? 'tool_error';
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
