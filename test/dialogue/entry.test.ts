import { describe, expect, it } from 'vitest';
import { assistantEntry, compactionEntry, toolResultEntry, userEntry } from '../../src/dialogue/entry.js';
import { deepFreeze } from '../../src/dialogue/freeze.js';
import { isDeepFrozen } from './helpers.js';

describe('entry factories', () => {
  it('fill defaults and generate prefixed ids', () => {
    const u = userEntry({ text: 'hi' });
    expect(u).toMatchObject({ kind: 'user', text: 'hi', origin: { kind: 'person' }, opensTurn: true, attachments: [] });
    expect(u.id).toMatch(/^u_/);
    const a = assistantEntry({});
    expect(a).toMatchObject({ kind: 'assistant', text: '', toolCalls: [] });
    expect(a.id).toMatch(/^a_/);
    const r = toolResultEntry({ callId: 'c1', toolName: 't', content: 'x' });
    expect(r).toMatchObject({ kind: 'tool_result', callId: 'c1', isError: false });
    expect(r.id).toMatch(/^r_/);
    const c = compactionEntry({ summary: 's', anchorId: null });
    expect(c.id).toMatch(/^c_/);
  });

  it('keep given fields and return deeply frozen values', () => {
    const attachments = [{ name: 'f', content: 'body' }];
    const u = userEntry({ id: 'u1', text: 't', origin: { kind: 'task', from: '/root' }, opensTurn: false, attachments });
    expect(u.attachments).toEqual(attachments);
    expect(u.attachments).not.toBe(attachments);
    const a = assistantEntry({ id: 'a1', text: 'x', toolCalls: [{ id: 'c1', name: 'n', arguments: { deep: [1, { k: 'v' }] } }] });
    const r = toolResultEntry({ id: 'r1', callId: 'c1', toolName: 'n', content: 'e', isError: true });
    const c = compactionEntry({ id: 's1', summary: 's', anchorId: 'u1' });
    for (const e of [u, a, r, c]) expect(isDeepFrozen(e)).toBe(true);
    expect(r.isError).toBe(true);
  });
});

describe('assistantEntry', () => {
  it('keeps provider metadata and argument errors only where they were given', () => {
    const metadata = { anthropic: { signature: 'sig' } };
    const a = assistantEntry({
      text: 'x',
      reasoning: [{ text: 'plain' }, { text: 'signed', providerMetadata: metadata }],
      toolCalls: [
        { id: 'c1', name: 'n', arguments: {} },
        { id: 'c2', name: 'n', arguments: {}, providerMetadata: metadata, argumentsError: 'not JSON' },
      ],
    });
    expect(a.reasoning).toEqual([{ text: 'plain' }, { text: 'signed', providerMetadata: metadata }]);
    expect(Object.keys(a.reasoning![0]!)).toEqual(['text']);
    expect(a.toolCalls[0]).toEqual({ id: 'c1', name: 'n', arguments: {} });
    expect(Object.keys(a.toolCalls[0]!)).toEqual(['id', 'name', 'arguments']);
    expect(a.toolCalls[1]).toEqual({ id: 'c2', name: 'n', arguments: {}, providerMetadata: metadata, argumentsError: 'not JSON' });
  });

  it('leaves empty reasoning out, so the entry equals one made without it', () => {
    const withEmpty = assistantEntry({ id: 'a1', text: 'x', reasoning: [] });
    expect(withEmpty).toEqual(assistantEntry({ id: 'a1', text: 'x' }));
    expect('reasoning' in withEmpty).toBe(false);
  });
});

describe('deepFreeze', () => {
  it('freezes nested values, walks into already frozen shells, and tolerates cycles', () => {
    const inner = { n: 1 };
    const shell = Object.freeze({ inner });
    deepFreeze(shell);
    expect(Object.isFrozen(inner)).toBe(true);
    const cyclic: Record<string, unknown> = { a: [1, 2] };
    cyclic.self = cyclic;
    expect(deepFreeze(cyclic)).toBe(cyclic);
    expect(Object.isFrozen(cyclic.a)).toBe(true);
    expect(deepFreeze(5)).toBe(5);
    expect(deepFreeze(null)).toBeNull();
  });
});
