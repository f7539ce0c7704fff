/**
 * Request-layer benchmarks. Every figure is a ratio measured in one run:
 * - `request.head_memo_speedup`: serializing a head from scratch vs fetching the memoized one
 *   (how much the per-configuration WeakMap saves on every request).
 * - `request.messages_memo_speedup`: serializing 1,000 frozen entries the first time vs again.
 * - `request.fork_shared_fraction`: bytes a fork of a 200-entry dialogue shares with its
 *   parent's request, over the fork's request bytes (close to 1: only the task is new).
 * - `request.shared_prefix_scaling_10x`: time of `sharedPrefixBytes` on 10x longer requests
 *   over the shorter ones (about 10: linear).
 */
import { assistantEntry, toolResultEntry, userEntry, type Entry } from '../src/dialogue/entry.js';
import type { EntrySeq } from '../src/dialogue/types.js';
import { assembleRequest } from '../src/request/prefix.js';
import { resolvePreset } from '../src/request/preset.js';
import { buildSystemConfiguration } from '../src/request/system.js';
import { createToolRegistry } from '../src/request/registry.js';
import { serializeHead, serializeMessage, serializeRequest, sharedPrefixBytes, sharedRequestPrefix } from '../src/request/serialize.js';
import { forkTaskWrapper } from '../src/request/wrapper.js';
import type { BenchFigures } from './run.js';
import { medianMs } from './measure.js';

function seq(entries: readonly Entry[]): EntrySeq {
  const items = Object.freeze([...entries]);
  return { length: items.length, at: (i) => items.at(i), toArray: () => items, [Symbol.iterator]: () => items[Symbol.iterator]() };
}

function dialogue(turns: number): Entry[] {
  const out: Entry[] = [];
  for (let i = 0; i < turns; i++) {
    out.push(userEntry({ text: `Turn ${i}: look at módulo ${i} — 检查.` }));
    out.push(assistantEntry({ text: 'Reading.', toolCalls: [{ id: `call_${i}`, name: 'read_file', arguments: { path: `src/m${i}.ts` } }] }));
    out.push(toolResultEntry({ callId: `call_${i}`, toolName: 'read_file', content: 'export const x = 1;\n'.repeat(20) }));
    out.push(assistantEntry({ text: `Module ${i} is fine.` }));
  }
  return out;
}

export default async function bench(): Promise<BenchFigures> {
  const presets = { base: { name: 'base', systemPrompt: 'You are a careful engineer.\n'.repeat(20), tools: ['Agent', 'send_message', 'list_agents', 'cancel_agent', 'close_agent'] } };
  const system = buildSystemConfiguration({ preset: resolvePreset('base', presets), registry: createToolRegistry() });

  // A thawed copy is never memoized, so it measures serializing from scratch.
  const thawed = { ...system, tools: system.tools.map((t) => ({ ...t })) };
  const cold = medianMs(() => void serializeHead(thawed), 31, 200);
  const warm = medianMs(() => void serializeHead(system), 31, 200);

  const firstPass = medianMs(() => {
    const fresh = dialogue(250); // 1,000 new frozen entries each sample
    for (const e of fresh) serializeMessage(e);
  }, 15);
  const entries = dialogue(250);
  const repeatPass = medianMs(() => {
    for (const e of entries) serializeMessage(e);
  }, 15);
  const building = medianMs(() => void dialogue(250), 15);

  const parentEntries = dialogue(50);
  const parent = assembleRequest({ system, messages: seq(parentEntries), model: 'm', effort: 'high' });
  const task = userEntry({ text: forkTaskWrapper({ task: 'Check module 3.', parentPath: '/root', contextMode: 'all', visibleTools: system }), origin: { kind: 'task', from: '/root' } });
  const fork = assembleRequest({ system, messages: seq([...parentEntries, task]), model: 'm', effort: 'high' });
  const sharedFraction = sharedRequestPrefix(parent, fork) / Buffer.byteLength(serializeRequest(fork), 'utf8');

  const small = serializeRequest(assembleRequest({ system, messages: seq(dialogue(20)), model: 'm', effort: undefined }));
  const large = serializeRequest(assembleRequest({ system, messages: seq(dialogue(200)), model: 'm', effort: undefined }));
  const smallTwin = `${small.slice(0, -2)}!`;
  const largeTwin = `${large.slice(0, -2)}!`;
  const tSmall = medianMs(() => void sharedPrefixBytes(small, smallTwin), 31, 20);
  const tLarge = medianMs(() => void sharedPrefixBytes(large, largeTwin), 31, 20);

  return [
    ['request.head_memo_speedup', cold / warm],
    ['request.messages_memo_speedup', Math.max(firstPass - building, 1e-9) / repeatPass],
    ['request.fork_shared_fraction', sharedFraction],
    ['request.shared_prefix_scaling_10x', tLarge / tSmall],
  ];
}
