import { describe, expect, it } from 'vitest';
import { compactionEntry, userEntry } from '../../src/dialogue/entry.js';
import { EntryView } from '../../src/dialogue/entry-seq.js';
import { estimateTokens, measurePrefixReuse } from '../../src/request/prefix-reuse.js';
import type { ModelRequest, SystemConfiguration } from '../../src/request/types.js';
import { leadingBytes, requestBytes, sharedFrameBytes } from './frames.js';

const tool = (name: string) => Object.freeze({ name, description: `The ${name} tool, with a non-ASCII note: é中😀.`, inputSchema: Object.freeze({ type: 'object' }) });
const head = (tools: string[], systemPrompt = 'You are an agent.'): SystemConfiguration => Object.freeze({ preset: 'default', systemPrompt, tools: Object.freeze(tools.map(tool)) });
const request = (system: SystemConfiguration, messages: ReturnType<typeof userEntry | typeof compactionEntry>[], model = 'm'): ModelRequest =>
  Object.freeze({ system, messages: EntryView.of(messages), model, effort: undefined });
const side = (r: ModelRequest) => ({ system: r.system, model: r.model });

describe('measurePrefixReuse', () => {
  const first = userEntry({ text: 'first question' });
  const second = userEntry({ text: 'second question' });

  it('counts the leading whole frames both requests hold, and the share of the input that is', () => {
    const system = head(['a', 'b']);
    const parent = request(system, [first, second]);
    const child = request(system, [first, second, userEntry({ text: 'the task' })]);
    const reuse = measurePrefixReuse({ parent: side(parent), parentLast: parent, child, inherited: 2 });
    const shared = sharedFrameBytes(parent, child);
    expect(reuse).toEqual({
      sharedBytes: shared,
      sharedTokens: Math.floor(shared / 4),
      sharedRatio: shared / requestBytes(child),
      inputBytes: requestBytes(child),
      inheritedBytes: leadingBytes(child, 2),
      reasons: [],
    });
    expect(shared).toBe(leadingBytes(child, 2));
  });

  it('a head narrowed at its end shares the system frame and the tools before the first difference', () => {
    const parent = request(head(['a', 'b', 'c']), [first]);
    const narrowed = Object.freeze({ ...head(['a', 'b']), removedTools: Object.freeze(['c']) });
    const child = request(narrowed, [userEntry({ text: 'task' })]);
    const reuse = measurePrefixReuse({ parent: side(parent), parentLast: parent, child, inherited: 0 });
    expect(reuse.sharedBytes).toBe(sharedFrameBytes(parent, child));
    expect(reuse.sharedBytes).toBe(leadingBytes(child, 0));
    expect(reuse.reasons).toEqual(['tool_filter']);
  });

  it('a first request that begins with its own compaction names it', () => {
    const system = head(['a']);
    const parent = request(system, [first, second]);
    const child = request(system, [compactionEntry({ summary: 'earlier work', anchorId: null }), userEntry({ text: 'task' })]);
    const reuse = measurePrefixReuse({ parent: side(parent), parentLast: parent, child, inherited: 2 });
    expect(reuse.reasons).toEqual(['compacted']);
    expect(reuse.sharedBytes).toBe(leadingBytes(child, 0));
  });

  it('without a parent request nothing is shared, and the head reasons still show', () => {
    const parent = request(head(['a'], 'One prompt.'), []);
    const child = request(head(['a'], 'Another prompt.'), [userEntry({ text: 'task' })]);
    const reuse = measurePrefixReuse({ parent: side(parent), parentLast: undefined, child, inherited: 0 });
    expect(reuse).toMatchObject({ sharedBytes: 0, sharedRatio: 0, reasons: ['different_system_prompt', 'no_parent_request'] });
    expect(reuse.inputBytes).toBe(requestBytes(child));
  });

  it('estimates 4 bytes a token, rounded down', () => {
    expect([0, 3, 4, 9].map(estimateTokens)).toEqual([0, 0, 1, 2]);
  });
});
