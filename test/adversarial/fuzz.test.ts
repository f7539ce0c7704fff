/**
 * The adversarial campaign, kept: fuzzed tool calls through the public API, random
 * interleavings of the runtime's operations, and a table of misbehaving models. Seeds are
 * fixed, so a failure reproduces; sizes are split over several tests so none nears the
 * per-test time budget on a loaded machine.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createRuntime, defineRuntimeTool } from '../../src/runtime/runtime.js';
import type { Runtime } from '../../src/runtime/types.js';
import { manualClock } from '../../src/model/clock.js';
import { hostileModel, toolResultsOf } from './helpers.js';

const usage = { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 };
const reply = (text: string) => ({ text, toolCalls: [], usage });

const PROTOTYPE_KEYS = Object.getOwnPropertyNames(Object.prototype).sort();

/** Object.prototype is exactly as it was, and nothing was polluted through it. */
function expectPrototypeUntouched(): void {
  expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(PROTOTYPE_KEYS);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
}

/**
 * Once the session stops every slot is free and every spawn has exactly one result (`spawned`
 * counts the spawns of each path: a name may be reused once its agent settled).
 */
function expectRegistryInvariants(rt: Runtime, spawned: ReadonlyMap<string, number>): void {
  rt.stop();
  expect(rt.slotsInUse).toBe(0);
  expect(rt.list()).toEqual([]);
  const paths = rt.results.map((r) => r.path).filter((p) => p !== rt.rootPath);
  for (const [path, count] of spawned) expect(paths.filter((p) => p === path)).toHaveLength(count);
  expect(paths.length).toBe([...spawned.values()].reduce((a, b) => a + b, 0));
}

/** Counts spawns per path from the runtime's change events (a spawn's first event). */
function countSpawns(rt: Runtime): Map<string, number> {
  const counts = new Map<string, number>();
  const live = new Set<string>();
  rt.on('change', ({ path, state }) => {
    if (path === rt.rootPath) return;
    if (!live.has(path)) {
      live.add(path);
      counts.set(path, (counts.get(path) ?? 0) + 1);
    }
    if (state === 'settled' || state === 'cancelled') live.delete(path);
  });
  return counts;
}

const echo = defineRuntimeTool({ name: 'echo', description: 'Echoes text.', schema: z.object({ text: z.string() }), execute: ({ text }) => text });

const toolName = fc.constantFrom('Agent', 'send_message', 'list_agents', 'cancel_agent', 'close_agent', 'echo', 'nope', '__proto__', 'constructor', 'toString');
const key = fc.constantFrom('task_name', 'message', 'context', 'role', 'agent_id', 'attachments', 'model', 'effort', 'text', '__proto__', 'constructor', 'polluted');
const value = fc.oneof(
  fc.constantFrom('w', 'x-1', '/root', '/root/w', '/root/../root', 'all', 'summary', 'none', 2, 0, -1, 1.5, '', 'polluted'),
  fc.jsonValue({ maxDepth: 2 }),
  fc.anything({ maxDepth: 2 }),
);
const args = fc.oneof(fc.dictionary(key, value, { maxKeys: 5 }), fc.jsonValue({ maxDepth: 2 }), fc.string());
const call = fc.record({ id: fc.oneof(fc.constantFrom('c1', 'c2'), fc.string({ minLength: 1, maxLength: 4 })), name: toolName, arguments: args });

/** One root turn whose first reply makes `calls`; subagents answer at once. */
async function runCalls(calls: ReadonlyArray<{ id: string; name: string; arguments: unknown }>): Promise<void> {
  const model = hostileModel(({ agentPath, step }) => (agentPath === '/root' && step === 0 ? { text: '', toolCalls: calls, usage } : reply('ok')));
  const rt = createRuntime({ model, tools: [echo], limits: { maxChildren: 4, maxTotal: 6, maxDepth: 2 } });
  const spawned = countSpawns(rt);
  rt.prompt('go');
  await rt.whenQuiet();
  // The turn ended: either every call got a result and the model answered, or the reply was refused.
  const root = rt.stateOf(rt.rootPath);
  expect(root === 'running.idle' || root === undefined).toBe(true);
  const second = model.calls.find((c) => c.context.agentPath === '/root' && c.context.step === 1);
  if (second) expect(toolResultsOf(second.request)).toHaveLength(calls.length);
  expectRegistryInvariants(rt, spawned);
  expectPrototypeUntouched();
}

describe('fuzzed tool calls through the public API', () => {
  // 2,000 runs in four seeded slices.
  for (const seed of [16, 17, 18, 19]) {
    it(`seed ${seed}: a typed error or a result every time, invariants intact`, async () => {
      await fc.assert(fc.asyncProperty(fc.array(call, { minLength: 1, maxLength: 3 }), runCalls), { seed, numRuns: 500 });
    });
  }
});

type Op =
  | { kind: 'spawn'; name: number; continuable: boolean }
  | { kind: 'answer'; fail: boolean }
  | { kind: 'cancel'; target: number }
  | { kind: 'send'; target: number }
  | { kind: 'close'; target: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('spawn' as const), name: fc.nat(5), continuable: fc.boolean() }),
  fc.record({ kind: fc.constant('answer' as const), fail: fc.boolean() }),
  fc.record({ kind: fc.constant('cancel' as const), target: fc.nat(5) }),
  fc.record({ kind: fc.constant('send' as const), target: fc.nat(5) }),
  fc.record({ kind: fc.constant('close' as const), target: fc.nat(5) }),
);

/** Runs `ops` against a model whose answers the ops release one at a time. */
async function interleave(ops: readonly Op[]): Promise<void> {
  const pending: Array<{ resolve: (value: unknown) => void; reject: (error: unknown) => void }> = [];
  const model = hostileModel(() => new Promise((resolve, reject) => pending.push({ resolve, reject })));
  const rt = createRuntime({ model, limits: { maxChildren: 3, maxTotal: 4, maxDepth: 2 } });
  const spawned = new Map<string, number>();
  const results: Array<Promise<unknown>> = [];
  const ignore = (): void => {};
  for (const step of ops) {
    const path = `/root/w${'target' in step ? step.target : step.kind === 'spawn' ? step.name : 0}`;
    switch (step.kind) {
      case 'spawn':
        await rt.spawn('/root', { task_name: `w${step.name}`, message: 'work' }, { lifetime: step.continuable ? 'continuable' : 'one-shot' }).then(
          (handle) => {
            spawned.set(handle.path, (spawned.get(handle.path) ?? 0) + 1);
            results.push(handle.result);
          },
          (error: unknown) => expect(error).toHaveProperty('code'),
        );
        break;
      case 'answer': {
        const next = pending.shift();
        if (step.fail) next?.reject(new Error('provider down'));
        else next?.resolve(reply('done'));
        break;
      }
      case 'cancel':
        rt.cancel(path);
        break;
      case 'send':
        try {
          rt.send('/root', path, 'ping');
        } catch (error) {
          expect(error).toHaveProperty('code');
        }
        break;
      case 'close':
        try {
          rt.close(path);
        } catch (error) {
          expect(error).toHaveProperty('code');
        }
        break;
    }
    await Promise.resolve();
  }
  // Drain: answer whatever is still asked, then stop.
  while (pending.length > 0) pending.shift()!.resolve(reply('late'));
  rt.stop();
  while (pending.length > 0) pending.shift()!.resolve(reply('after stop'));
  await Promise.all(results.map((r) => r.then(ignore)));
  expectRegistryInvariants(rt, spawned);
}

describe('random interleavings of spawn, answers, failures, cancel, messages and close', () => {
  for (const seed of [160, 161, 162]) {
    it(`seed ${seed}: one result per agent, slots freed, nothing unhandled`, async () => {
      await fc.assert(fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 14 }), interleave), { seed, numRuns: 100 });
    });
  }
});

describe('misbehaving models', () => {
  // The fourth column marks a model that never answers: the test then lets the per-request timeout pass.
  const table: Array<[string, (step: number) => unknown, RegExp | 'completed', 'hangs'?]> = [
    ['missing text', () => ({ toolCalls: [], usage }), 'completed'],
    ['missing usage', () => ({ text: 'no usage' }), 'completed'],
    ['bad usage', () => ({ text: 'bad usage', usage: { inputTokens: Number.NaN, outputTokens: '3', cacheReadTokens: -4, cacheWriteTokens: {} } }), 'completed'],
    ['null reply', () => null, /instead of a reply/],
    ['tool calls that are not a list', () => ({ text: '', toolCalls: 'echo', usage }), /not a list/],
    ['non-JSON arguments', (step) => (step === 0 ? { text: '', toolCalls: [{ id: 'a', name: 'echo', arguments: '{not json' }], usage } : reply('handled')), 'completed'],
    ['duplicate call ids', () => ({ text: '', toolCalls: [{ id: 'd', name: 'echo', arguments: { text: 'a' } }, { id: 'd', name: 'echo', arguments: { text: 'b' } }], usage }), /cannot hold/],
    ['a call without a name', () => ({ text: '', toolCalls: [{ id: 'n', arguments: {} }], usage }), /without an id or name/],
    ['reasoning that is not a list', () => ({ text: 'x', reasoning: 'thinking', usage }), /reasoning that is not a list/],
    ['reasoning metadata that is not JSON', () => ({ text: 'x', reasoning: [{ text: 't', providerMetadata: { p: { n: Number.NaN } } }], usage }), /not JSON/],
    ['tool call metadata that is not an object', () => ({ text: '', toolCalls: [{ id: 'm', name: 'echo', arguments: { text: 'a' }, providerMetadata: 'sig' }], usage }), /tool call 0 with provider metadata that is not an object/],
    ['never resolves', () => new Promise(() => undefined), /timed out after 1000 ms/, 'hangs'],
  ];

  it.each(table)('%s', async (_name, answer, expected, hangs) => {
    const clock = manualClock();
    const model = hostileModel(({ agentPath, step }) => (agentPath === '/root/w' ? answer(step) : reply('ok')));
    const rt = createRuntime({ model, tools: [echo], clock, requestTimeoutMs: 1_000, retry: { maxRetries: 0 } });
    const handle = await rt.spawn('/root', { task_name: 'w', message: 'x' });
    if (hangs) {
      await clock.whenPending(1);
      clock.advance(1_000);
    }
    const result = await handle.result;
    if (expected === 'completed') expect(result.status).toBe('completed');
    else expect(result).toMatchObject({ status: 'failed', stopReason: 'model_error', error: expect.stringMatching(expected) });
    for (const n of Object.values(result.usage)) expect(Number.isFinite(n)).toBe(true);
    expect(rt.slotsInUse).toBe(0);
    // Nothing left waiting, and the session still answers.
    expect(clock.pending).toBe(0);
    await expect(rt.prompt('still there?')).resolves.toMatchObject({ status: 'completed', text: 'ok' });
  });

  it('a synchronous throw from sample is a model_error', async () => {
    const model = {
      name: 'sync-thrower',
      sample: (): never => {
        throw Object.create(null);
      },
    };
    const rt = createRuntime({ model });
    const result = await (await rt.spawn('/root', { task_name: 'w', message: 'x' })).result;
    expect(result).toMatchObject({ status: 'failed', stopReason: 'model_error' });
    expect(rt.slotsInUse).toBe(0);
  });

  it('a reply that arrives after the agent was cancelled is dropped', async () => {
    let answer!: (value: unknown) => void;
    let asked!: () => void;
    const sampling = new Promise<void>((resolve) => (asked = resolve));
    const model = hostileModel(({ agentPath }) => {
      if (agentPath !== '/root/w') return reply('ok');
      asked();
      return new Promise((resolve) => (answer = resolve));
    });
    const rt = createRuntime({ model });
    const handle = await rt.spawn('/root', { task_name: 'w', message: 'x' });
    await sampling;
    rt.cancel('/root/w');
    answer({ text: '', toolCalls: [{ id: 'late', name: 'Agent', arguments: { task_name: 'late', message: 'y' } }], usage });
    await expect(handle.result).resolves.toMatchObject({ status: 'cancelled' });
    await rt.whenQuiet();
    expect(rt.list().map((a) => a.path)).toEqual(['/root']);
    expect(rt.slotsInUse).toBe(0);
  });
});
