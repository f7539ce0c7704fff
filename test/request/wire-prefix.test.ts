/**
 * Reading provider bodies in cache order, and measuring a subagent's prefix on them: the
 * blocks, the breakpoints' reach, and the reasons the wire adds.
 */
import { describe, expect, it } from 'vitest';
import type { PrefixReuse } from '../../src/request/prefix-reuse.js';
import { ANTHROPIC_LOOKBACK_BLOCKS, blockBytes, readableBytes, sharedBlocks, wireRequestOf, type WireRequest } from '../../src/request/wire-prefix.js';
import { wirePrefixReuse } from '../../src/request/wire-reuse.js';

const tool = (name: string, extra: Record<string, unknown> = {}) => ({ name, description: `${name} tool`, input_schema: { type: 'object' }, ...extra });
const text = (t: string, marked = false) => ({ type: 'text', text: t, ...(marked ? { cache_control: { type: 'ephemeral' } } : {}) });

/** An Anthropic body with `blocks` user text blocks, breakpoints on the blocks at `marks`. */
function anthropic(blocks: number, marks: readonly number[], extra: Record<string, unknown> = {}): WireRequest {
  const content = Array.from({ length: blocks }, (_, i) => text(`block ${i}`, marks.includes(i)));
  const body = { model: 'claude', max_tokens: 10, tools: [tool('read')], system: [text('be brief', true)], messages: [{ role: 'user', content }], ...extra };
  return wireRequestOf({ provider: 'anthropic.messages', body, taskParts: 1 })!;
}

const canonical: PrefixReuse = { sharedBytes: 100, sharedTokens: 25, sharedRatio: 0.5, inputBytes: 200, inheritedBytes: 100, reasons: [] };

describe('wire bodies in cache order', () => {
  it('reads Anthropic tools, system, settings and message blocks, ignoring cache_control', () => {
    const marked = anthropic(3, [2]);
    const plain = anthropic(3, []);
    // tool, system, settings? (none here), 3 message blocks
    expect(marked.blocks.map((b) => b.part)).toEqual(['tools', 'system', 'messages', 'messages', 'messages']);
    expect(marked.blocks.map((b) => b.breakpoint)).toEqual([false, true, false, false, true]);
    expect(sharedBlocks(marked, plain)).toBe(5);
    expect(marked.totalBytes).toBe(plain.totalBytes);
    expect(marked.taskBlocks).toBe(1);
  });

  it('reads OpenAI bodies as tools, format, messages, and JSON text as well as objects', () => {
    const body = { model: 'gpt', tools: [{ type: 'function', function: { name: 'read' } }], response_format: { type: 'json_object' }, messages: [{ role: 'user', content: 'hi' }] };
    const chat = wireRequestOf({ provider: 'openai.chat', body: JSON.stringify(body), taskParts: 1 })!;
    expect(chat.blocks.map((b) => b.part)).toEqual(['tools', 'format', 'messages']);
    expect(chat.nativeFormat).toBeDefined();
    const responses = wireRequestOf({ provider: 'openai.responses', body: { tools: [], instructions: 'be brief', input: [{ role: 'user', content: 'hi' }] }, taskParts: 1 })!;
    expect(responses.blocks.map((b) => b.part)).toEqual(['system', 'messages']);
  });

  it('a body it cannot read, or a provider it does not know, gives no wire request', () => {
    expect(wireRequestOf({ provider: 'openai.chat', body: '{not json', taskParts: 0 })).toBeUndefined();
    expect(wireRequestOf({ provider: 'openai.chat', body: [1, 2], taskParts: 0 })).toBeUndefined();
    expect(wireRequestOf({ provider: 'mistral.chat', body: { messages: [] }, taskParts: 0 })).toBeUndefined();
  });

  it(`Anthropic reads from a breakpoint at most ${ANTHROPIC_LOOKBACK_BLOCKS} blocks back`, () => {
    // The earlier request wrote at its last block (message block 4, block 6 of the request).
    const earlier = anthropic(5, [4]);
    const near = anthropic(5 + ANTHROPIC_LOOKBACK_BLOCKS - 1, [5 + ANTHROPIC_LOOKBACK_BLOCKS - 2]);
    const far = anthropic(5 + ANTHROPIC_LOOKBACK_BLOCKS, [5 + ANTHROPIC_LOOKBACK_BLOCKS - 1]);
    expect(readableBytes(near, [earlier])).toBe(earlier.totalBytes);
    // Too far from the written block: only the system breakpoint (tools and system) is read.
    expect(readableBytes(far, [earlier])).toBe(blockBytes(far, 2));
    // A breakpoint in reach of it reads it again.
    expect(readableBytes(anthropic(5 + ANTHROPIC_LOOKBACK_BLOCKS, [10, 5 + ANTHROPIC_LOOKBACK_BLOCKS - 1]), [earlier])).toBe(earlier.totalBytes);
  });
});

describe('a prefix measured on the wire', () => {
  it('names streaming_tool_definition when only one side streamed its tools', () => {
    const parent = anthropic(3, [2], { tools: [tool('read', { eager_input_streaming: true })] });
    const child = anthropic(4, [3]);
    const reuse = wirePrefixReuse(canonical, parent, child);
    expect(reuse.sharedBytes).toBe(0);
    expect(reuse.reasons).toEqual(['streaming_tool_definition']);
    expect(reuse.canonical).toEqual(canonical);
    expect(reuse.wire).toEqual({ api: 'anthropic-messages', readableBytes: 0 });
  });

  it('names breakpoint_out_of_reach when the shared bytes lie beyond its breakpoints', () => {
    const parent = anthropic(3, []);
    const child = anthropic(3 + ANTHROPIC_LOOKBACK_BLOCKS + 1, [3 + ANTHROPIC_LOOKBACK_BLOCKS]);
    const reuse = wirePrefixReuse(canonical, parent, child);
    expect(reuse.sharedBytes).toBe(parent.totalBytes);
    expect(reuse.reasons).toContain('breakpoint_out_of_reach');
  });

  it('shares nothing across models, whatever the bytes', () => {
    const request = anthropic(3, [2]);
    const reuse = wirePrefixReuse({ ...canonical, sharedBytes: 0, reasons: ['different_model'] }, request, request);
    expect(reuse.sharedBytes).toBe(0);
    expect(reuse.reasons).toEqual(['different_model']);
  });
});
