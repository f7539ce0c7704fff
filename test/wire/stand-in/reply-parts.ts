/**
 * What the three API encoders share: deterministic ids, usage figures and SSE framing.
 */
import { createHash } from 'node:crypto';
import type { RecordedRequest, WireReply, WireToolCall } from './types.js';

/**
 * An id derived from the request's bytes and a label, so identical sessions get identical ids
 * whatever order their requests reach the server in.
 */
export function derivedId(prefix: string, request: RecordedRequest, label: string): string {
  return `${prefix}${createHash('sha256').update(request.rawBody).update('\u0000').update(label).digest('hex').slice(0, 24)}`;
}

/** The id of a scripted call: its own, or one derived from the request and its index. */
export function callId(prefix: string, request: RecordedRequest, call: WireToolCall, index: number): string {
  return call.id ?? derivedId(prefix, request, `call:${index}`);
}

/** Tokens for a byte count, at the 4 bytes a token the library also estimates with. */
const tokensOf = (bytes: number): number => Math.ceil(bytes / 4);

/** The usage a reply reports: what the script says, the rest estimated from the bytes. */
export function replyUsage(request: RecordedRequest, reply: WireReply): Required<NonNullable<WireReply['usage']>> {
  const given = reply.usage ?? {};
  const replyBytes = (reply.text ?? '').length + (reply.toolCalls ?? []).reduce((sum, call) => sum + JSON.stringify(call.arguments).length, 0);
  const reasoning = given.reasoning ?? tokensOf((reply.reasoning ?? []).reduce((sum, part) => sum + part.text.length, 0));
  const cacheRead = given.cacheRead ?? 0;
  const cacheWrite = given.cacheWrite ?? 0;
  return {
    input: given.input ?? Math.max(0, tokensOf(Buffer.byteLength(request.rawBody)) - cacheRead - cacheWrite),
    output: given.output ?? tokensOf(replyBytes) + reasoning,
    cacheRead,
    cacheWrite,
    reasoning,
  };
}

/** Splits text into deltas of at most `size` characters (code points), as a provider streams it. */
export function deltas(text: string, size: number): string[] {
  const chars = [...text];
  const pieces: string[] = [];
  for (let at = 0; at < chars.length; at += size) pieces.push(chars.slice(at, at + size).join(''));
  return pieces;
}

/** One server-sent event: an `event:` line when the API names its events, then the data. */
export function sse(data: unknown, event?: string): string {
  return `${event !== undefined ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;
}

/** A response the server writes: status, headers and the body (JSON text, or SSE events). */
export interface EncodedResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

export const jsonResponse = (body: unknown, status = 200, headers: Readonly<Record<string, string>> = {}): EncodedResponse => ({
  status,
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});

export const sseResponse = (events: readonly string[]): EncodedResponse => ({
  status: 200,
  headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' },
  body: events.join(''),
});

/** Seconds since the epoch, fixed: the stand-in's replies must not depend on the clock. */
export const CREATED_AT = 1_767_225_600;
