import { describe, expect, it } from 'vitest';
import { assistantEntry, compactionEntry, toolResultEntry, userEntry, type Entry } from '../../src/dialogue/entry.js';
import { assembleRequest } from '../../src/request/prefix.js';
import {
  requestHeadHash,
  requestPrefixBytes,
  serializeHead,
  serializeMessage,
  serializeMessages,
  serializeModelFrame,
  serializeRequest,
  serializeTool,
  sharedRequestPrefix,
} from '../../src/request/serialize.js';
import type { SystemConfiguration, ToolSchema } from '../../src/request/types.js';
import { parentDialogue, seq } from './helpers.js';

const tool: ToolSchema = Object.freeze({
  name: 'read_file',
  description: 'Read a file.',
  inputSchema: Object.freeze({ type: 'object', properties: Object.freeze({ path: Object.freeze({ type: 'string' }) }) }),
});
const system: SystemConfiguration = Object.freeze({ preset: 'p', systemPrompt: 'Be brief.', tools: Object.freeze([tool]) });

describe('serializeHead', () => {
  it('is a system frame then one tool frame per tool, each a canonical JSON line', () => {
    expect(serializeHead(system)).toBe(
      '{"frame":"system","text":"Be brief."}\n' +
        '{"description":"Read a file.","frame":"tool","inputSchema":{"properties":{"path":{"type":"string"}},"type":"object"},"name":"read_file"}\n',
    );
  });

  it('serializes a frozen configuration once and reuses the same string', () => {
    expect(serializeHead(system)).toBe(serializeHead(system));
    expect(serializeTool(tool)).toBe(serializeTool(tool));
  });

  it('does not cache a configuration that is not frozen (it could still change)', () => {
    const mutable = { preset: 'p', systemPrompt: 'one', tools: [] as ToolSchema[] };
    const before = serializeHead(mutable);
    mutable.systemPrompt = 'two';
    expect(serializeHead(mutable)).not.toBe(before);
    expect(serializeHead(mutable)).toContain('"two"');
  });

  it('leaves the preset name out: equal prompts and tools are equal bytes', () => {
    const other = Object.freeze({ ...system, preset: 'another' });
    expect(serializeHead(other)).toBe(serializeHead(system));
    expect(requestHeadHash(other)).toBe(requestHeadHash(system));
  });
});

describe('requestHeadHash', () => {
  it('is the hex sha256 of the head bytes, stable and memoized', () => {
    const hash = requestHeadHash(system);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(requestHeadHash(system)).toBe(hash);
    expect(requestHeadHash({ ...system, systemPrompt: 'Be long.' })).not.toBe(hash);
  });
});

describe('serializeMessage', () => {
  it('writes each entry kind as a message frame, ids of entries left out', () => {
    const [u1, a1, r1, a2] = parentDialogue();
    expect(serializeMessage(u1 as Entry)).toBe('{"frame":"message","origin":{"kind":"person"},"role":"user","text":"Check the build."}\n');
    expect(serializeMessage(a1 as Entry)).toBe(
      '{"frame":"message","role":"assistant","text":"Running it.","toolCalls":[{"arguments":{"cmd":"npm test"},"id":"call_1","name":"shell"}]}\n',
    );
    expect(serializeMessage(r1 as Entry)).toBe(
      '{"callId":"call_1","content":"2 failing","frame":"message","isError":false,"role":"tool","toolName":"shell"}\n',
    );
    expect(serializeMessage(a2 as Entry)).toBe('{"frame":"message","role":"assistant","text":"Two tests fail."}\n');
  });

  it("keeps an assistant entry's reasoning with its provider metadata (it is sent back); none leaves the frame as it was", () => {
    const withReasoning = assistantEntry({ id: 'a5', text: 'Done.', reasoning: [{ text: 'think', providerMetadata: { anthropic: { signature: 's1' } } }] });
    expect(serializeMessage(withReasoning)).toBe(
      '{"frame":"message","reasoning":[{"providerMetadata":{"anthropic":{"signature":"s1"}},"text":"think"}],"role":"assistant","text":"Done."}\n',
    );
    expect(serializeMessage(assistantEntry({ id: 'a6', text: 'Done.', reasoning: [] }))).toBe('{"frame":"message","role":"assistant","text":"Done."}\n');
    const signed = assistantEntry({ id: 'a8', toolCalls: [{ id: 'c', name: 't', arguments: {}, providerMetadata: { google: { thoughtSignature: 'x' } } }] });
    expect(serializeMessage(signed)).toBe('{"frame":"message","role":"assistant","text":"","toolCalls":[{"arguments":{},"id":"c","name":"t","providerMetadata":{"google":{"thoughtSignature":"x"}}}]}\n');
    expect(serializeMessage(withReasoning)).not.toBe(serializeMessage(assistantEntry({ id: 'a7', text: 'Done.', reasoning: [{ text: 'think', providerMetadata: { anthropic: { signature: 's2' } } }] })));
  });

  it('writes a compaction as its summary in a user-role message', () => {
    const c = compactionEntry({ id: 'c9', summary: 'So far: nothing.', anchorId: null });
    expect(serializeMessage(c)).toBe('{"compaction":true,"frame":"message","role":"user","text":"So far: nothing."}\n');
  });

  it('keeps attachments and origin, which the model sees', () => {
    const u = userEntry({
      id: 'u7',
      text: 'Look.',
      origin: { kind: 'message', from: '/root/a' },
      attachments: [{ name: 'x.txt', content: 'hi' }],
    });
    expect(serializeMessage(u)).toBe(
      '{"attachments":[{"content":"hi","name":"x.txt"}],"frame":"message","origin":{"from":"/root/a","kind":"message"},"role":"user","text":"Look."}\n',
    );
  });

  it('is a pure function of content: entry ids do not matter, tool-call ids do', () => {
    expect(serializeMessage(userEntry({ id: 'x1', text: 'same' }))).toBe(serializeMessage(userEntry({ id: 'x2', text: 'same' })));
    const call = (id: string) => assistantEntry({ id: 'a', toolCalls: [{ id, name: 't', arguments: null }] });
    expect(serializeMessage(call('c1'))).not.toBe(serializeMessage(call('c2')));
    const result = (id: string) => toolResultEntry({ callId: id, toolName: 't', content: '' });
    expect(serializeMessage(result('c1'))).not.toBe(serializeMessage(result('c2')));
  });

  it('memoizes per frozen entry and recomputes unfrozen ones', () => {
    const frozen = userEntry({ id: 'm1', text: 'hello' });
    expect(serializeMessage(frozen)).toBe(serializeMessage(frozen));
    const loose = { kind: 'user', id: 'm2', text: 'a', origin: { kind: 'person' }, opensTurn: true, attachments: [] } as { text: string } & Entry;
    expect(serializeMessage(loose)).toContain('"text":"a"');
    loose.text = 'b';
    expect(serializeMessage(loose)).toContain('"text":"b"');
  });

  it('refuses an entry of unknown kind', () => {
    expect(() => serializeMessage({ kind: 'weird', id: 'w' } as unknown as Entry)).toThrow('Cannot serialize an entry of unknown kind "weird"');
  });
});

describe('serializeRequest', () => {
  const messages = seq(parentDialogue());

  it('is head, messages in order, then the model frame last', () => {
    const req = assembleRequest({ system, messages, model: 'm-large', effort: 'high' });
    const text = serializeRequest(req);
    expect(text.startsWith(serializeHead(system) + serializeMessages(messages))).toBe(true);
    expect(text.endsWith('{"effort":"high","frame":"model","model":"m-large"}\n')).toBe(true);
    // One frame per line: head (2) + messages (5) + model (1).
    expect(text.split('\n').filter((line) => line !== '')).toHaveLength(2 + 5 + 1);
  });

  it('writes an absent effort as null', () => {
    expect(serializeModelFrame('m', undefined)).toBe('{"effort":null,"frame":"model","model":"m"}\n');
  });

  it('lets requests that differ only in model or effort share head and messages', () => {
    const a = assembleRequest({ system, messages, model: 'm-large', effort: 'high' });
    const b = assembleRequest({ system, messages, model: 'm-small', effort: 'low' });
    expect(sharedRequestPrefix(a, b)).toBeGreaterThanOrEqual(requestPrefixBytes(a));
    expect(requestPrefixBytes(a)).toBe(Buffer.byteLength(serializeHead(system) + serializeMessages(messages), 'utf8'));
  });

  it('measures shared prefixes in UTF-8 bytes', () => {
    const uni = Object.freeze({ preset: 'p', systemPrompt: 'Réponds en français 😀.', tools: Object.freeze([]) });
    const a = assembleRequest({ system: uni, messages: seq([userEntry({ id: 'u', text: 'été' })]), model: 'm' });
    const b = assembleRequest({ system: uni, messages: seq([userEntry({ id: 'u', text: 'hiver' })]), model: 'm' });
    const head = serializeHead(uni);
    const common = '{"frame":"message","origin":{"kind":"person"},"role":"user","text":"';
    expect(sharedRequestPrefix(a, b)).toBe(Buffer.byteLength(head + common, 'utf8'));
    expect(Buffer.byteLength(head, 'utf8')).toBeGreaterThan(head.length);
  });
});
