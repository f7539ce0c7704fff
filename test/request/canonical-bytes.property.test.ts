/**
 * `canonicalJsonBytes` counts the canonical text's UTF-8 bytes without building it, and
 * `messageBytes` a message frame's: both must give exactly what measuring the built text gives,
 * for any text (escapes, multi-byte characters, paired and unpaired surrogates), and refuse
 * what the writer refuses with the writer's error.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assistantEntry, toolResultEntry, userEntry, type JsonValue } from '../../src/dialogue/entry.js';
import { canonicalJson, canonicalJsonBytes, CanonicalJsonError } from '../../src/request/canonical.js';
import { messageBytes, serializeMessage } from '../../src/request/serialize.js';
import { thrown } from '../thrown.js';

const built = (value: object): number => Buffer.byteLength(canonicalJson(value), 'utf8');

/** Strings of any UTF-16 code units: lone surrogates and control characters included. */
const anyText = fc.string({ unit: 'binary' });
const anyUnits = fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)) });

describe('canonicalJsonBytes', () => {
  it('is the byte length of the canonical text, for any JSON value (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const wrapped = { value };
        expect(canonicalJsonBytes(wrapped)).toBe(built(wrapped));
      }),
      { numRuns: 1_000 },
    );
  });

  it('counts every string as JSON.stringify writes it, surrogates and control characters included (property)', () => {
    fc.assert(
      fc.property(fc.oneof(anyText, anyUnits), fc.oneof(anyText, anyUnits), (key, text) => {
        const value = { [key]: text, list: [text, key] };
        expect(canonicalJsonBytes(value)).toBe(built(value));
      }),
      { numRuns: 2_000 },
    );
  });

  it('counts the edge characters of the escapes exactly', () => {
    for (const text of ['"', '\\', '\b\f\n\r\t', '\u0000\u001f\u007f', '\u0080\u07ff\u0800\uffff', '\ud83d\ude00', '\ud83d', '\ude00', 'a\ud83dz', '\ude00\ud83d']) {
      expect(canonicalJsonBytes({ text })).toBe(built({ text }));
    }
  });

  it("throws the writer's error, with its path, for what the writer refuses", () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic['self'] = cyclic;
    const deep: unknown[] = [];
    let at = deep;
    for (let i = 0; i < 80; i++) at.push((at = []));
    for (const bad of [{ a: undefined }, { n: Number.NaN }, { d: new Date(0) }, cyclic, { f: (): void => undefined }]) {
      const ours = thrown(() => canonicalJsonBytes(bad), CanonicalJsonError);
      expect(ours.message).toBe(thrown(() => canonicalJson(bad), CanonicalJsonError).message);
    }
    // Deeper than the count goes, but plain: measured on the writer's text.
    expect(canonicalJsonBytes({ deep })).toBe(built({ deep }));
  });
});

describe('messageBytes', () => {
  it("is the byte length of the entry's message frame, built or not (property)", () => {
    fc.assert(
      fc.property(anyText, anyText, fc.jsonValue(), fc.boolean(), (text, name, args, buildFirst) => {
        const entries = [
          userEntry({ text, origin: { kind: 'message', from: name }, attachments: name === '' ? [] : [{ name, content: text }] }),
          assistantEntry({ text, toolCalls: [{ id: 'c1', name: 'Read', arguments: { args: args as JsonValue } }] }),
          toolResultEntry({ callId: 'c1', toolName: name, content: text, isError: buildFirst }),
        ];
        for (const entry of entries) {
          if (buildFirst) serializeMessage(entry);
          expect(messageBytes(entry)).toBe(Buffer.byteLength(serializeMessage(entry), 'utf8'));
        }
      }),
      { numRuns: 500 },
    );
  });
});
