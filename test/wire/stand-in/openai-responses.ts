/**
 * OpenAI Responses API replies (`POST /v1/responses`), JSON and SSE: `reasoning` (with a
 * summary), `message` (`output_text`) and `function_call` output items, and usage with
 * `input_tokens_details.cached_tokens`.
 */
import { callId, CREATED_AT, deltas, derivedId, jsonResponse, replyUsage, sse, sseResponse, type EncodedResponse } from './reply-parts.js';
import type { RecordedRequest, WireReply } from './types.js';

type OutputItem =
  | { type: 'reasoning'; id: string; summary: { type: 'summary_text'; text: string }[]; encrypted_content?: string }
  | { type: 'message'; id: string; status: 'completed'; role: 'assistant'; content: { type: 'output_text'; text: string; annotations: [] }[] }
  | { type: 'function_call'; id: string; call_id: string; name: string; arguments: string; status: 'completed' };

function itemsOf(request: RecordedRequest, reply: WireReply): OutputItem[] {
  const items: OutputItem[] = [];
  for (const [index, part] of (reply.reasoning ?? []).entries()) {
    items.push({
      type: 'reasoning',
      id: derivedId('rs_', request, `reasoning:${index}`),
      summary: [{ type: 'summary_text', text: part.text }],
      ...(part.encryptedContent !== undefined ? { encrypted_content: part.encryptedContent } : {}),
    });
  }
  if (reply.text !== undefined && reply.text !== '') {
    items.push({ type: 'message', id: derivedId('msg_', request, 'message'), status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: reply.text, annotations: [] }] });
  }
  for (const [index, call] of (reply.toolCalls ?? []).entries()) {
    items.push({ type: 'function_call', id: derivedId('fc_', request, `call:${index}`), call_id: callId('call_', request, call, index), name: call.name, arguments: JSON.stringify(call.arguments), status: 'completed' });
  }
  return items;
}

function usageOf(request: RecordedRequest, reply: WireReply) {
  const usage = replyUsage(request, reply);
  const input = usage.input + usage.cacheRead + usage.cacheWrite;
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: usage.cacheRead },
    output_tokens: usage.output,
    output_tokens_details: { reasoning_tokens: usage.reasoning },
    total_tokens: input + usage.output,
  };
}

function responseOf(request: RecordedRequest, reply: WireReply, status: 'in_progress' | 'completed') {
  const done = status === 'completed';
  return {
    id: derivedId('resp_', request, 'response'),
    object: 'response',
    created_at: CREATED_AT,
    status,
    model: typeof request.body['model'] === 'string' ? request.body['model'] : 'gpt-stand-in',
    output: done ? itemsOf(request, reply) : [],
    incomplete_details: null,
    error: null,
    usage: done ? usageOf(request, reply) : null,
  };
}

/** The reply as one `response` object. */
export function responsesJson(request: RecordedRequest, reply: WireReply): EncodedResponse {
  return jsonResponse(responseOf(request, reply, 'completed'));
}

/**
 * The reply as the API streams it: `response.created`, then per output item
 * `response.output_item.added`, its deltas (reasoning summary parts and text, output text in a
 * content part, function-call arguments) and `response.output_item.done`, then
 * `response.completed` with the usage. Every event carries its `sequence_number`.
 */
export function responsesSse(request: RecordedRequest, reply: WireReply, deltaSize: number): EncodedResponse {
  let sequence = 0;
  const events: string[] = [];
  const emit = (type: string, payload: Record<string, unknown>): void => {
    events.push(sse({ type, sequence_number: sequence++, ...payload }, type));
  };
  emit('response.created', { response: responseOf(request, reply, 'in_progress') });
  for (const [outputIndex, item] of itemsOf(request, reply).entries()) {
    const at = { item_id: item.id, output_index: outputIndex };
    if (item.type === 'reasoning') {
      emit('response.output_item.added', { output_index: outputIndex, item: { ...item, summary: [] } });
      for (const [summaryIndex, part] of item.summary.entries()) {
        emit('response.reasoning_summary_part.added', { ...at, summary_index: summaryIndex, part: { type: 'summary_text', text: '' } });
        for (const piece of deltas(part.text, deltaSize)) emit('response.reasoning_summary_text.delta', { ...at, summary_index: summaryIndex, delta: piece });
        emit('response.reasoning_summary_text.done', { ...at, summary_index: summaryIndex, text: part.text });
        emit('response.reasoning_summary_part.done', { ...at, summary_index: summaryIndex, part });
      }
    } else if (item.type === 'message') {
      emit('response.output_item.added', { output_index: outputIndex, item: { ...item, status: 'in_progress', content: [] } });
      for (const [contentIndex, part] of item.content.entries()) {
        emit('response.content_part.added', { ...at, content_index: contentIndex, part: { ...part, text: '' } });
        for (const piece of deltas(part.text, deltaSize)) emit('response.output_text.delta', { ...at, content_index: contentIndex, delta: piece, logprobs: [] });
        emit('response.output_text.done', { ...at, content_index: contentIndex, text: part.text, logprobs: [] });
        emit('response.content_part.done', { ...at, content_index: contentIndex, part });
      }
    } else {
      emit('response.output_item.added', { output_index: outputIndex, item: { ...item, arguments: '', status: 'in_progress' } });
      for (const piece of deltas(item.arguments, deltaSize)) emit('response.function_call_arguments.delta', { ...at, delta: piece });
      emit('response.function_call_arguments.done', { ...at, arguments: item.arguments });
    }
    emit('response.output_item.done', { output_index: outputIndex, item });
  }
  emit('response.completed', { response: responseOf(request, reply, 'completed') });
  return sseResponse(events);
}
