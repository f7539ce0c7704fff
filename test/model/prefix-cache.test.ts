import { describe, expect, it } from 'vitest';
import { assistantEntry, userEntry } from '../../src/dialogue/entry.js';
import { bytesToTokens, PrefixCache } from '../../src/model/prefix-cache.js';
import { requestPrefixBytes, serializeRequest, sharedPrefixBytes } from '../../src/request/serialize.js';
import { request, system } from './helpers.js';

const u1 = userEntry({ text: 'Survey the repository.', id: 'u1' });
const a1 = assistantEntry({ text: 'It has three packages.', id: 'a1' });
const task = userEntry({ text: 'Subagent: review package two.', origin: { kind: 'task', from: '/root' }, id: 't1' });

describe('PrefixCache', () => {
  it('reads an identical request in full', () => {
    const cache = new PrefixCache();
    const req = request([u1, a1]);
    const first = cache.observe(req);
    expect(first.cacheReadTokens).toBe(0);
    expect(first.cacheWriteTokens).toBe(first.inputTokens);
    expect(first.totalBytes).toBe(Buffer.byteLength(serializeRequest(req), 'utf8'));
    expect(first.inputTokens).toBe(bytesToTokens(first.totalBytes));

    const again = cache.observe(request([u1, a1]));
    expect(again).toMatchObject({ cacheReadTokens: again.inputTokens, cacheWriteTokens: 0, prefixBytes: again.totalBytes });
    expect(cache.size).toBe(2);
  });

  it('reads the shared part of a fork that extends a seen request', () => {
    const cache = new PrefixCache();
    const parent = request([u1, a1]);
    cache.observe(parent);
    const child = request([u1, a1, task]);
    const usage = cache.observe(child);
    // Everything before the parent's model frame is shared, whole frames only.
    expect(usage.prefixBytes).toBe(requestPrefixBytes(parent));
    expect(usage.cacheReadTokens).toBe(Math.floor(requestPrefixBytes(parent) / 4));
    expect(usage.cacheWriteTokens).toBe(usage.inputTokens - usage.cacheReadTokens);
  });

  it('shares nothing with an unrelated request, nor across models', () => {
    const cache = new PrefixCache();
    cache.observe(request([u1, a1]));
    const other = { ...system, systemPrompt: 'A different persona.' };
    expect(cache.observe(request([u1], { system: other })).cacheReadTokens).toBe(0);
    expect(cache.observe(request([u1, a1], { model: 'another-model' })).cacheReadTokens).toBe(0);
  });

  it('finds the longest prefix among many recorded requests, not just the latest', () => {
    const cache = new PrefixCache({ chunkSize: 8 });
    const long = request([u1, a1]);
    cache.observe(long);
    for (let i = 0; i < 5; i++) cache.observe(request([userEntry({ text: `noise ${i}`, id: `n${i}` })]));
    const usage = cache.measure('test-model', serializeRequest(request([u1, a1, task])));
    expect(usage.prefixBytes).toBe(requestPrefixBytes(long));
    expect(cache.size).toBe(6);
  });

  it('rounds a hit inside a message down to the frame boundary, or keeps exact bytes under byte granularity', () => {
    const base = request([userEntry({ text: 'same start, then A', id: 'x' })]);
    const near = request([userEntry({ text: 'same start, then B', id: 'x' })]);
    const a = serializeRequest(base);
    const b = serializeRequest(near);
    const exact = sharedPrefixBytes(a, b);
    const headBytes = requestPrefixBytes(request([]));

    const frames = new PrefixCache({ chunkSize: 16 });
    frames.record('m', a);
    expect(frames.longestPrefixBytes('m', b)).toBe(headBytes);

    const bytes = new PrefixCache({ granularity: 'byte', chunkSize: 16 });
    bytes.record('m', a);
    expect(bytes.longestPrefixBytes('m', b)).toBe(exact);
    expect(exact).toBeGreaterThan(headBytes);
  });

  it('measures in UTF-8 bytes and never splits a surrogate pair into chunks', () => {
    const cache = new PrefixCache({ granularity: 'byte', chunkSize: 3 });
    const stored = 'ab😀cé-one';
    cache.record('m', stored);
    for (const probe of ['ab😀cè-two', 'ab😀cé-one', 'ab😁', 'xyz', 'ab']) {
      expect(cache.longestPrefixBytes('m', probe)).toBe(sharedPrefixBytes(stored, probe));
    }
    expect(cache.measure('m', 'ab😀cé-one').cacheWriteTokens).toBe(0);
  });

  it('is empty for an unknown model, and after clear()', () => {
    const cache = new PrefixCache();
    expect(cache.longestPrefixBytes('m', 'anything\n')).toBe(0);
    cache.record('m', 'line one\nline two\n');
    expect(cache.longestPrefixBytes('m', 'line one\nline three\n')).toBe(9);
    expect(cache.longestPrefixBytes('m', 'other\n')).toBe(0);
    cache.clear();
    expect(cache.size).toBe(0);
    expect(cache.longestPrefixBytes('m', 'line one\n')).toBe(0);
  });

  it('handles a request that is a strict prefix of a stored one, and many siblings', () => {
    const cache = new PrefixCache({ granularity: 'byte', chunkSize: 4 });
    cache.record('m', 'abcdefgh');
    expect(cache.longestPrefixBytes('m', 'abcd')).toBe(4);
    expect(cache.longestPrefixBytes('m', 'abc')).toBe(3);
    cache.record('m', 'abcdxy');
    cache.record('m', 'abcdefzz');
    expect(cache.longestPrefixBytes('m', 'abcdefgz')).toBe(7);
    expect(cache.longestPrefixBytes('m', 'abcdx')).toBe(5);
  });

  it('rejects a bad chunk size', () => {
    expect(() => new PrefixCache({ chunkSize: 0 })).toThrow(RangeError);
    expect(() => new PrefixCache({ chunkSize: 1.5 })).toThrow(/positive integer/);
  });

  it('charges a partial last token to writing', () => {
    const cache = new PrefixCache({ granularity: 'byte' });
    cache.record('m', 'abcdef');
    // 9 bytes → 3 tokens; 6 shared bytes → 1 token read (floor), 2 written.
    expect(cache.measure('m', 'abcdefghi')).toEqual({ inputTokens: 3, cacheReadTokens: 1, cacheWriteTokens: 2, totalBytes: 9, prefixBytes: 6 });
  });
});
