/**
 * OpenAI Chat Completions replies (`POST /v1/chat/completions`), JSON and SSE: one choice with
 * `content` and `tool_calls`, `finish_reason`, and usage with `prompt_tokens_details.cached_tokens`.
 * Reasoning goes in `reasoning_content`, the field OpenAI-compatible servers use (OpenAI's own
 * Chat API sends none).
 */
import { callId, CREATED_AT, deltas, derivedId, jsonResponse, replyUsage, sse, sseResponse, type EncodedResponse } from './reply-parts.js';
import type { RecordedRequest, WireError, WireReply } from './types.js';

function toolCallsOf(request: RecordedRequest, reply: WireReply) {
  return (reply.toolCalls ?? []).map((call, index) => ({
    id: callId('call_', request, call, index),
    type: 'function' as const,
    function: { name: call.name, arguments: JSON.stringify(call.arguments) },
  }));
}

function usageOf(request: RecordedRequest, reply: WireReply) {
  const usage = replyUsage(request, reply);
  const prompt = usage.input + usage.cacheRead + usage.cacheWrite;
  return {
    prompt_tokens: prompt,
    completion_tokens: usage.output,
    total_tokens: prompt + usage.output,
    prompt_tokens_details: { cached_tokens: usage.cacheRead },
    completion_tokens_details: { reasoning_tokens: usage.reasoning },
  };
}

const finishOf = (reply: WireReply): string => reply.stopReason ?? ((reply.toolCalls ?? []).length > 0 ? 'tool_calls' : 'stop');
const modelOf = (request: RecordedRequest): string => (typeof request.body['model'] === 'string' ? request.body['model'] : 'gpt-stand-in');
const reasoningOf = (reply: WireReply): string => (reply.reasoning ?? []).map((part) => part.text).join('\n');

/** The reply as one `chat.completion` object. */
export function chatJson(request: RecordedRequest, reply: WireReply): EncodedResponse {
  const toolCalls = toolCallsOf(request, reply);
  const reasoning = reasoningOf(reply);
  return jsonResponse({
    id: derivedId('chatcmpl-', request, 'completion'),
    object: 'chat.completion',
    created: CREATED_AT,
    model: modelOf(request),
    choices: [{
      index: 0,
      message: {
        role: 'assistant',
        content: reply.text !== undefined && reply.text !== '' ? reply.text : null,
        ...(reasoning !== '' ? { reasoning_content: reasoning } : {}),
        ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
      },
      finish_reason: finishOf(reply),
      logprobs: null,
    }],
    usage: usageOf(request, reply),
  });
}

/**
 * The reply as `chat.completion.chunk` events: the role, reasoning and text deltas, each tool
 * call's id and name then its argument deltas, the finish reason, a usage chunk (with no
 * choices) when the request set `stream_options.include_usage`, and `[DONE]`.
 */
export function chatSse(request: RecordedRequest, reply: WireReply, deltaSize: number): EncodedResponse {
  const id = derivedId('chatcmpl-', request, 'completion');
  const chunk = (delta: Record<string, unknown>, finish: string | null = null): string =>
    sse({ id, object: 'chat.completion.chunk', created: CREATED_AT, model: modelOf(request), choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }] });
  const events = [chunk({ role: 'assistant', content: '' })];
  for (const piece of deltas(reasoningOf(reply), deltaSize)) events.push(chunk({ reasoning_content: piece }));
  for (const piece of deltas(reply.text ?? '', deltaSize)) events.push(chunk({ content: piece }));
  for (const [index, call] of toolCallsOf(request, reply).entries()) {
    events.push(chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } }] }));
    for (const piece of deltas(call.function.arguments, deltaSize)) events.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
  }
  events.push(chunk({}, finishOf(reply)));
  const options = request.body['stream_options'];
  if (typeof options === 'object' && options !== null && (options as { include_usage?: unknown }).include_usage === true) {
    events.push(sse({ id, object: 'chat.completion.chunk', created: CREATED_AT, model: modelOf(request), choices: [], usage: usageOf(request, reply) }));
  }
  events.push(sse('[DONE]'));
  return sseResponse(events);
}

/** OpenAI's error body: `{ error: { message, type, param, code } }`. */
export function openaiError(error: WireError): EncodedResponse {
  const type = error.status === 429 ? 'rate_limit_exceeded' : error.status >= 500 ? 'server_error' : 'invalid_request_error';
  return jsonResponse({ error: { message: error.message ?? `stand-in error ${error.status}`, type, param: null, code: type } }, error.status, error.headers);
}
