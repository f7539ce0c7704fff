/**
 * Anthropic Messages API replies (`POST /v1/messages`), JSON and SSE, in the shapes the API
 * documents: `thinking`, `text` and `tool_use` content blocks, `stop_reason`, and usage with
 * `cache_creation_input_tokens` and `cache_read_input_tokens`.
 */
import { callId, deltas, derivedId, jsonResponse, replyUsage, sse, sseResponse, type EncodedResponse } from './reply-parts.js';
import type { RecordedRequest, WireError, WireReply } from './types.js';

type Block =
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: Readonly<Record<string, unknown>> };

function blocksOf(request: RecordedRequest, reply: WireReply): Block[] {
  const blocks: Block[] = [];
  for (const [index, part] of (reply.reasoning ?? []).entries()) {
    blocks.push({ type: 'thinking', thinking: part.text, signature: part.signature ?? derivedId('sig_', request, `thinking:${index}`) });
  }
  if (reply.text !== undefined && reply.text !== '') blocks.push({ type: 'text', text: reply.text });
  for (const [index, call] of (reply.toolCalls ?? []).entries()) {
    blocks.push({ type: 'tool_use', id: callId('toolu_', request, call, index), name: call.name, input: call.arguments });
  }
  return blocks;
}

function usageOf(request: RecordedRequest, reply: WireReply) {
  const usage = replyUsage(request, reply);
  return { input_tokens: usage.input, output_tokens: usage.output, cache_creation_input_tokens: usage.cacheWrite, cache_read_input_tokens: usage.cacheRead };
}

const stopReasonOf = (reply: WireReply): string => reply.stopReason ?? ((reply.toolCalls ?? []).length > 0 ? 'tool_use' : 'end_turn');
const modelOf = (request: RecordedRequest): string => (typeof request.body['model'] === 'string' ? request.body['model'] : 'claude-stand-in');

/** The reply as one JSON message. */
export function anthropicJson(request: RecordedRequest, reply: WireReply): EncodedResponse {
  return jsonResponse({
    id: derivedId('msg_', request, 'message'),
    type: 'message',
    role: 'assistant',
    model: modelOf(request),
    content: blocksOf(request, reply),
    stop_reason: stopReasonOf(reply),
    stop_sequence: null,
    usage: usageOf(request, reply),
  });
}

/**
 * The reply as the API streams it: `message_start`, then per block `content_block_start`, its
 * deltas (`thinking_delta` and `signature_delta`, `text_delta`, `input_json_delta`) and
 * `content_block_stop`, then `message_delta` with the stop reason and output tokens, and
 * `message_stop`.
 */
export function anthropicSse(request: RecordedRequest, reply: WireReply, deltaSize: number): EncodedResponse {
  const usage = usageOf(request, reply);
  const events = [
    sse({
      type: 'message_start',
      message: {
        id: derivedId('msg_', request, 'message'),
        type: 'message',
        role: 'assistant',
        model: modelOf(request),
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { ...usage, output_tokens: 1 },
      },
    }, 'message_start'),
  ];
  for (const [index, block] of blocksOf(request, reply).entries()) {
    const delta = (payload: Record<string, unknown>): string => sse({ type: 'content_block_delta', index, delta: payload }, 'content_block_delta');
    if (block.type === 'thinking') {
      events.push(sse({ type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '', signature: '' } }, 'content_block_start'));
      for (const piece of deltas(block.thinking, deltaSize)) events.push(delta({ type: 'thinking_delta', thinking: piece }));
      events.push(delta({ type: 'signature_delta', signature: block.signature }));
    } else if (block.type === 'text') {
      events.push(sse({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } }, 'content_block_start'));
      for (const piece of deltas(block.text, deltaSize)) events.push(delta({ type: 'text_delta', text: piece }));
    } else {
      events.push(sse({ type: 'content_block_start', index, content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } }, 'content_block_start'));
      for (const piece of deltas(JSON.stringify(block.input), deltaSize)) events.push(delta({ type: 'input_json_delta', partial_json: piece }));
    }
    events.push(sse({ type: 'content_block_stop', index }, 'content_block_stop'));
  }
  events.push(sse({ type: 'message_delta', delta: { stop_reason: stopReasonOf(reply), stop_sequence: null }, usage: { output_tokens: usage.output_tokens } }, 'message_delta'));
  events.push(sse({ type: 'message_stop' }, 'message_stop'));
  return sseResponse(events);
}

/** The API's error body: `{ type: 'error', error: { type, message } }`, its type chosen by status. */
export function anthropicError(error: WireError): EncodedResponse {
  const type =
    error.status === 429 ? 'rate_limit_error'
    : error.status === 529 ? 'overloaded_error'
    : error.status === 401 ? 'authentication_error'
    : error.status === 404 ? 'not_found_error'
    : error.status >= 500 ? 'api_error'
    : 'invalid_request_error';
  return jsonResponse({ type: 'error', error: { type, message: error.message ?? `stand-in error ${error.status}` } }, error.status, error.headers);
}
