/**
 * Prefix figures on the wire: a provider's request body read in that provider's cache order,
 * as a list of blocks, so two requests can be compared as the provider's cache compares them.
 *
 * - Anthropic Messages: each tool, each system block, a settings block (`tool_choice`,
 *   `thinking` and `output_config.format`, when present), then each content block of each
 *   message (a string content is one block). `cache_control` is left out of every block; the
 *   blocks that carried one are the request's breakpoints.
 * - OpenAI Chat Completions: each tool, the `response_format` (when present), each message.
 * - OpenAI Responses: each tool, the `text.format` (when present), the `instructions` (when
 *   present), each input item.
 *
 * Blocks are measured as the provider writes them (`JSON.stringify`). A block is kept as its UTF-8 size and a digest of everything up to and including it, so a
 * request costs a few dozen bytes a block to remember and two requests share exactly the
 * leading blocks whose digests agree.
 */
import { hash } from 'node:crypto';

/** The provider APIs whose bodies are read in their cache order. */
export type WireApi = 'anthropic-messages' | 'openai-chat' | 'openai-responses';

/** Anthropic reads a cached prefix only at a breakpoint or at most this many blocks before one. */
export const ANTHROPIC_LOOKBACK_BLOCKS = 20;

/** What an adapter hands the runtime about the body its provider sent (`ModelResponse.wire`). */
export interface WireBody {
  /** The model's provider id (`anthropic.messages`, `openai.chat`, `openai.responses`). */
  readonly provider: string;
  /** The request body the provider built (the AI SDK's `request.body`): an object or its JSON text. */
  readonly body: unknown;
  /**
   * How many parts the request's last entry became when it is a user entry (its text and
   * its attachments), else 0: the blocks a subagent's task takes at the end of its first request.
   */
  readonly taskParts: number;
}

/** One block of a request in cache order. */
export interface WireBlock {
  /** UTF-8 bytes of the block. */
  readonly bytes: number;
  /** A digest of the request up to and including this block. */
  readonly key: string;
  /** Whether the block carried a cache breakpoint (`cache_control`, Anthropic). */
  readonly breakpoint: boolean;
  /** Which part of the request it belongs to. */
  readonly part: 'tools' | 'system' | 'format' | 'settings' | 'messages';
}

/** A request as its provider's cache sees it. */
export interface WireRequest {
  readonly api: WireApi;
  readonly blocks: readonly WireBlock[];
  /** UTF-8 bytes of all blocks. */
  readonly totalBytes: number;
  /** Trailing blocks that hold the request's last user entry (a subagent's task, in its first request). */
  readonly taskBlocks: number;
  /** Whether any tool definition carries Anthropic's `eager_input_streaming`. */
  readonly eagerToolStreaming: boolean;
  /** A digest of the native structured-output format the request asks for, when it asks for one. */
  readonly nativeFormat: string | undefined;
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** `value` without its `cache_control` field (and whether it had one). */
function withoutCacheControl(value: unknown): { readonly block: unknown; readonly marked: boolean } {
  if (!isObject(value) || !('cache_control' in value)) return { block: value, marked: false };
  const { cache_control: marker, ...rest } = value;
  return { block: rest, marked: marker !== undefined && marker !== null };
}

interface RawBlock {
  readonly value: unknown;
  readonly part: WireBlock['part'];
  readonly breakpoint: boolean;
}

function anthropicBlocks(body: Json): { blocks: RawBlock[]; eager: boolean; format: unknown } {
  const blocks: RawBlock[] = [];
  let eager = false;
  for (const tool of list(body['tools'])) {
    const { block, marked } = withoutCacheControl(tool);
    if (isObject(tool) && tool['eager_input_streaming'] !== undefined) eager = true;
    blocks.push({ value: { tool: block }, part: 'tools', breakpoint: marked });
  }
  const system = body['system'];
  if (typeof system === 'string') blocks.push({ value: { system }, part: 'system', breakpoint: false });
  for (const entry of list(system)) {
    const { block, marked } = withoutCacheControl(entry);
    blocks.push({ value: { system: block }, part: 'system', breakpoint: marked });
  }
  const outputConfig = isObject(body['output_config']) ? body['output_config'] : undefined;
  // A `json` tool forced by tool_choice is how the provider asks models without native output for a format.
  const choice = isObject(body['tool_choice']) ? body['tool_choice'] : undefined;
  const format = outputConfig?.['format'] ?? (choice?.['type'] === 'tool' && choice['name'] === 'json' ? choice : undefined);
  const settings = { tool_choice: body['tool_choice'], thinking: body['thinking'], format: outputConfig?.['format'] };
  if (settings.tool_choice !== undefined || settings.thinking !== undefined || settings.format !== undefined) blocks.push({ value: { settings }, part: 'settings', breakpoint: false });
  for (const message of list(body['messages'])) {
    if (!isObject(message)) continue;
    const role = message['role'];
    const content = message['content'];
    if (typeof content === 'string') {
      blocks.push({ value: { role, block: { type: 'text', text: content } }, part: 'messages', breakpoint: false });
      continue;
    }
    for (const entry of list(content)) {
      const { block, marked } = withoutCacheControl(entry);
      blocks.push({ value: { role, block }, part: 'messages', breakpoint: marked });
    }
  }
  return { blocks, eager, format };
}

function openaiBlocks(api: 'openai-chat' | 'openai-responses', body: Json): { blocks: RawBlock[]; format: unknown } {
  const blocks: RawBlock[] = [];
  for (const tool of list(body['tools'])) blocks.push({ value: { tool }, part: 'tools', breakpoint: false });
  const text = isObject(body['text']) ? body['text'] : undefined;
  const format = api === 'openai-chat' ? body['response_format'] : text?.['format'];
  if (format !== undefined) blocks.push({ value: { format }, part: 'format', breakpoint: false });
  if (api === 'openai-responses' && body['instructions'] !== undefined) blocks.push({ value: { instructions: body['instructions'] }, part: 'system', breakpoint: false });
  for (const message of list(body[api === 'openai-chat' ? 'messages' : 'input'])) blocks.push({ value: message, part: 'messages', breakpoint: false });
  return { blocks, format };
}

/** The API a provider id speaks, or undefined for one whose bodies are not read. */
export function wireApiOf(provider: string): WireApi | undefined {
  if (provider.includes('anthropic')) return 'anthropic-messages';
  if (provider.startsWith('openai.chat') || provider === 'openai') return 'openai-chat';
  if (provider.startsWith('openai.responses')) return 'openai-responses';
  return undefined;
}

const digest = (text: string): string => hash('sha256', text, 'base64url');

/**
 * A provider's request body in its cache order, or `undefined` when the provider is not one
 * whose bodies are read or the body is not a JSON object.
 *
 * @example
 * ```ts
 * const wire = wireRequestOf({ provider: 'openai.chat', body: { messages: [{ role: 'user', content: 'hi' }] }, taskParts: 1 });
 * wire?.blocks.length; // 1
 * ```
 */
export function wireRequestOf(sent: WireBody): WireRequest | undefined {
  const api = wireApiOf(sent.provider);
  let body = sent.body;
  if (typeof body === 'string') {
    try {
      body = JSON.parse(body) as unknown;
    } catch {
      return undefined;
    }
  }
  if (api === undefined || !isObject(body)) return undefined;
  const read = api === 'anthropic-messages' ? anthropicBlocks(body) : { ...openaiBlocks(api, body), eager: false };
  const blocks: WireBlock[] = [];
  let key = '';
  let totalBytes = 0;
  for (const raw of read.blocks) {
    // As the provider writes it: JSON.stringify, in its key order, undefined fields left out.
    const text = JSON.stringify(raw.value) ?? 'null';
    const bytes = Buffer.byteLength(text, 'utf8');
    key = digest(`${key}\n${text}`);
    totalBytes += bytes;
    blocks.push(Object.freeze({ bytes, key, breakpoint: raw.breakpoint, part: raw.part }));
  }
  const parts = Math.max(0, Math.trunc(sent.taskParts));
  const taskBlocks = parts === 0 ? 0 : Math.min(blocks.length, api === 'anthropic-messages' ? parts : 1);
  return Object.freeze({
    api,
    blocks: Object.freeze(blocks),
    totalBytes,
    taskBlocks,
    eagerToolStreaming: read.eager,
    nativeFormat: read.format === undefined ? undefined : digest(JSON.stringify(read.format) ?? 'null'),
  });
}

/** How many leading blocks two requests have in common. */
export function sharedBlocks(a: WireRequest, b: WireRequest): number {
  const n = Math.min(a.blocks.length, b.blocks.length);
  let i = 0;
  while (i < n && a.blocks[i]?.key === b.blocks[i]?.key) i++;
  return i;
}

/** UTF-8 bytes of the first `count` blocks of `request`. */
export function blockBytes(request: WireRequest, count: number): number {
  let bytes = 0;
  for (let i = 0; i < count && i < request.blocks.length; i++) bytes += (request.blocks[i] as WireBlock).bytes;
  return bytes;
}

/**
 * UTF-8 bytes of `next` that its provider's cache can serve from what `earlier` requests
 * wrote. OpenAI caches any prefix it has seen: the longest prefix shared with one of them.
 * Anthropic writes at breakpoints only and reads from a breakpoint of `next`, or from a
 * position at most {@link ANTHROPIC_LOOKBACK_BLOCKS} blocks before one, that an earlier
 * request wrote (its own breakpoint there, over the same leading blocks).
 *
 * @example
 * ```ts
 * readableBytes(parentNext, [parentLast]) === blockBytes(parentNext, sharedBlocks(parentLast, parentNext)); // breakpoints in reach
 * ```
 */
export function readableBytes(next: WireRequest, earlier: readonly WireRequest[]): number {
  if (next.api !== 'anthropic-messages') {
    let best = 0;
    for (const request of earlier) best = Math.max(best, sharedBlocks(request, next));
    return blockBytes(next, best);
  }
  const written = new Set<string>();
  for (const request of earlier) for (const block of request.blocks) if (block.breakpoint) written.add(block.key);
  let best = -1;
  next.blocks.forEach((block, b) => {
    if (!block.breakpoint) return;
    for (let w = b; w >= 0 && b - w < ANTHROPIC_LOOKBACK_BLOCKS; w--) {
      if (written.has((next.blocks[w] as WireBlock).key)) {
        best = Math.max(best, w);
        return;
      }
    }
  });
  return blockBytes(next, best + 1);
}
