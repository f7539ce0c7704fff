/**
 * Property: a fork built with its parent's system configuration and the parent's messages
 * plus its wrapped task begins with the parent's serialized request minus the parent's
 * trailing model frame; so `sharedRequestPrefix` covers at least the head and every inherited
 * message, whatever the dialogue holds (multibyte text, tool calls, compactions) and whatever
 * effort either side asks for.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assistantEntry, compactionEntry, toolResultEntry, userEntry, type Entry, type JsonValue } from '../../src/dialogue/entry.js';
import { assembleRequest, comparePrefix } from '../../src/request/prefix.js';
import { resolvePreset } from '../../src/request/preset.js';
import { buildSystemConfiguration } from '../../src/request/system.js';
import { createToolRegistry } from '../../src/request/registry.js';
import { requestPrefixBytes, serializeHead, serializeMessages, serializeRequest, sharedRequestPrefix } from '../../src/request/serialize.js';
import type { Effort } from '../../src/request/types.js';
import { forkTaskWrapper } from '../../src/request/wrapper.js';
import { ALL_TOOLS, seq } from './helpers.js';

const registry = createToolRegistry();
const presets = {
  base: { name: 'base', systemPrompt: 'Tu es un ingénieur prudent. 慎重に。', tools: [...ALL_TOOLS] },
  lean: { name: 'lean', extends: 'base', tools: ['Agent', 'send_message'] },
};
const systems = [
  buildSystemConfiguration({ preset: resolvePreset('base', presets), registry }),
  buildSystemConfiguration({ preset: resolvePreset('lean', presets), registry }),
  buildSystemConfiguration({ preset: resolvePreset('base', presets), registry, filter: { deny: ['send_message'] } }),
];

const text = fc.string({ unit: 'grapheme', maxLength: 24 });
const id = fc.stringMatching(/^[a-z0-9]{1,8}$/);
const entry: fc.Arbitrary<Entry> = fc.oneof(
  fc.record({ id, text }).map((e) => userEntry(e)),
  fc
    .record({
      id,
      text,
      calls: fc.array(
        fc.record(
          {
            id,
            name: fc.constantFrom('shell', 'read_file'),
            arguments: fc.jsonValue({ maxDepth: 2 }).map((v) => v as JsonValue),
            providerMetadata: fc.record({ google: fc.record({ thoughtSignature: id }) }),
          },
          { requiredKeys: ['id', 'name', 'arguments'] },
        ),
        { maxLength: 2 },
      ),
      // Reasoning parts with opaque provider metadata travel with the reply and back to the provider.
      reasoning: fc.array(fc.record({ text, providerMetadata: fc.option(fc.record({ anthropic: fc.record({ signature: id }) }), { nil: undefined }) }, { requiredKeys: ['text'] }), { maxLength: 2 }),
    })
    .map((e) => assistantEntry({ id: e.id, text: e.text, toolCalls: e.calls, reasoning: e.reasoning })),
  fc.record({ id, callId: id, content: text, isError: fc.boolean() }).map((e) => toolResultEntry({ ...e, toolName: 'shell' })),
  fc.record({ id, summary: text }).map((e) => compactionEntry({ ...e, anchorId: null })),
);
const effort = fc.constantFrom<Effort | undefined>('low', 'medium', 'high', undefined);

describe('fork request prefix (property)', () => {
  it('a fork shares at least the head and all inherited messages with its parent', () => {
    fc.assert(
      fc.property(
        fc.array(entry, { maxLength: 8 }),
        fc.constantFrom(...systems),
        effort,
        effort,
        text,
        (parentMessages, system, parentEffort, childEffort, task) => {
          const parent = assembleRequest({ system, messages: seq(parentMessages), model: 'm', effort: parentEffort });
          const wrapped = forkTaskWrapper({ task, parentPath: '/root', contextMode: 'all', visibleTools: system });
          const taskEntry = userEntry({ id: 't', text: wrapped, origin: { kind: 'task', from: '/root' } });
          const child = assembleRequest({ system, messages: seq([...parentMessages, taskEntry]), model: 'm', effort: childEffort });

          const inherited = serializeHead(system) + serializeMessages(parentMessages);
          expect(serializeRequest(parent).startsWith(inherited)).toBe(true);
          expect(serializeRequest(child).startsWith(inherited)).toBe(true);
          expect(requestPrefixBytes(parent)).toBe(Buffer.byteLength(inherited, 'utf8'));
          expect(sharedRequestPrefix(parent, child)).toBeGreaterThanOrEqual(requestPrefixBytes(parent));
          expect(comparePrefix({ system, model: 'm' }, { system, model: 'm' })).toEqual({ shared: true });
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a different model keeps the bytes but is reported', () => {
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 5 }), (parentMessages) => {
        const [system] = systems;
        if (system === undefined) throw new Error('no system');
        const parent = assembleRequest({ system, messages: seq(parentMessages), model: 'm-large' });
        const child = assembleRequest({ system, messages: seq([...parentMessages, userEntry({ id: 't', text: 'T' })]), model: 'm-small' });
        expect(sharedRequestPrefix(parent, child)).toBeGreaterThanOrEqual(requestPrefixBytes(parent));
        expect(comparePrefix({ system, model: 'm-large' }, { system, model: 'm-small' })).toEqual({ shared: false, reasons: ['different_model'] });
      }),
      { numRuns: 100 },
    );
  });
});
