/**
 * Hostile tool-call arguments (the second campaign's first defect): NaN, ±Infinity,
 * `undefined`, values thousands of levels deep, cycles and non-JSON objects, followed by a
 * fork. Each bad call gets a typed tool error and nothing is reserved for it; the fork that
 * follows runs; after stop() no slot or path is held.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createRuntime, defineRuntimeTool } from '../../src/runtime/runtime.js';
import { assistantEntry, Dialogue, userEntry } from '../../src/dialogue/index.js';
import { resolveLimits } from '../../src/policy/limits.js';
import { MAX_NESTING_LIMIT } from '../../src/request/input-limits.js';
import { hostileModel, toolResultsOf } from './helpers.js';

const usage = { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 };
const reply = (text: string) => ({ text, toolCalls: [], usage });

function nested(levels: number, inArrays = false): unknown {
  let value: unknown = 1;
  for (let i = 0; i < levels; i++) value = inArrays ? [value] : { a: value };
  return value;
}
const cyclic = (): unknown => {
  const o: Record<string, unknown> = { a: 1 };
  o.self = o;
  return o;
};
const throwingGetter = (): unknown =>
  Object.defineProperty({}, 'x', {
    enumerable: true,
    get() {
      throw new Error('boom');
    },
  });

/** Bad values, each with what the error must name. */
const BAD: ReadonlyArray<[string, () => unknown, RegExp]> = [
  ['NaN', () => Number.NaN, /NaN is not a finite number/],
  ['Infinity', () => Infinity, /Infinity is not a finite number/],
  ['-Infinity', () => -Infinity, /-Infinity is not a finite number/],
  ['undefined', () => undefined, /undefined is not JSON/],
  ['5,000 levels of objects', () => nested(5_000), /nested deeper than 64 levels \(limit maxArgumentDepth\)/],
  ['3,000 levels of arrays', () => nested(3_000, true), /nested deeper than 64 levels/],
  ['a cycle', cyclic, /nested deeper than 64 levels/],
  ['a BigInt', () => 10n, /a bigint is not JSON/],
  ['a function', () => () => 1, /a function is not JSON/],
  ['a Date', () => new Date(0), /not a plain object/],
  ['a sparse array', () => Object.assign(new Array<number>(3), { 0: 1, 2: 3 }), /array hole/],
  ['a getter that throws', throwingGetter, /reading it failed \(boom\)/],
  ['2 MiB of text', () => 'x'.repeat(2 * 1_048_576), /larger than 1048576 bytes of JSON \(limit maxArgumentBytes\)/],
];

const echo = defineRuntimeTool({ name: 'echo', description: 'Echoes text.', schema: z.object({ text: z.string() }), execute: ({ text }) => text });
const TOOLS = ['list_agents', 'Agent', 'send_message', 'echo'] as const;

describe('hostile tool-call arguments, then a fork', () => {
  it.each(BAD)('%s: a typed tool error for each call, the fork runs, nothing held after stop()', async (_name, bad, named) => {
    const model = hostileModel(({ agentPath, step }) => {
      if (agentPath === '/root' && step === 0) {
        return { text: '', toolCalls: TOOLS.map((name, i) => ({ id: `bad${i}`, name, arguments: { task_name: `w${i}`, message: 'm', text: 't', x: bad() } })), usage };
      }
      if (agentPath === '/root' && step === 1) {
        return { text: '', toolCalls: [{ id: 'fork', name: 'Agent', arguments: { task_name: 'fork', message: 'go on', context: 'all' } }], usage };
      }
      return reply('done');
    });
    const rt = createRuntime({ model, tools: [echo] });
    const turn = await rt.prompt('go');
    expect(turn.status).toBe('completed');
    const second = model.calls.find((c) => c.context.agentPath === '/root' && c.context.step === 1)!;
    const refused = toolResultsOf(second.request);
    expect(refused).toHaveLength(TOOLS.length);
    for (const result of refused) {
      expect(result.isError).toBe(true);
      expect(result.content).toMatch(/^Error \(invalid_arguments\): the arguments of this \S+ call were refused before it ran: \$/);
      expect(result.content).toMatch(named);
    }
    // The fork inherited the refused calls (as {}) and ran; its answer reached the root.
    const forkSaw = model.calls.find((c) => c.context.agentPath === '/root/fork')!.request.messages.toArray();
    expect(forkSaw.some((e) => e.kind === 'assistant' && e.toolCalls.some((c) => c.id === 'bad0' && JSON.stringify(c.arguments) === '{}'))).toBe(true);
    const third = model.calls.find((c) => c.context.agentPath === '/root' && c.context.step === 2)!;
    expect(toolResultsOf(third.request).at(-1)).toMatchObject({ isError: false, content: expect.stringContaining('"result":"done"') });
    expect(model.calls.some((c) => c.context.agentPath.startsWith('/root/w'))).toBe(false);
    rt.stop();
    expect(rt.slotsInUse).toBe(0);
    expect(rt.list()).toEqual([]);
  });

  it('holds no slot across many runtimes of bad calls and forks', async () => {
    let leaked = 0;
    for (let run = 0; run < 40; run++) {
      const [, bad] = BAD[run % BAD.length]!;
      const model = hostileModel(({ agentPath, step }) => {
        if (agentPath !== '/root' || step > 1) return reply('ok');
        return step === 0
          ? { text: '', toolCalls: [{ id: 'b', name: 'echo', arguments: { text: bad() } }], usage }
          : { text: '', toolCalls: [{ id: 'f', name: 'Agent', arguments: { task_name: 'f', message: 'x', context: run % 2 === 0 ? 'all' : 1 } }], usage };
      });
      const rt = createRuntime({ model, tools: [echo] });
      await rt.prompt('go');
      rt.stop();
      leaked += rt.slotsInUse + rt.list().length;
    }
    expect(leaked).toBe(0);
  });

  it('checks a host’s callTool arguments the same way, reserving nothing', async () => {
    const model = hostileModel(() => reply('ok'));
    const rt = createRuntime({ model });
    const outcome = await rt.callTool('/root', { id: 'h', name: 'Agent', arguments: { task_name: 'w', message: 'x', extra: Number.NaN } as never });
    expect(outcome).toMatchObject({ isError: true, content: expect.stringMatching(/^Error \(invalid_arguments\).*\$\.extra: NaN is not a finite number/) });
    expect(rt.slotsInUse).toBe(0);
    expect(rt.list().map((a) => a.path)).toEqual(['/root']);
  });

  it('releases the reservation when taking the snapshot fails (a host-run root whose dialogue holds NaN)', async () => {
    // The host builds this dialogue itself, so nothing checked its arguments on arrival.
    const dialogue = Dialogue.of([
      userEntry({ text: 'q', origin: { kind: 'person' }, opensTurn: true }),
      assistantEntry({ text: '', toolCalls: [{ id: 'odd', name: 'list_agents', arguments: { n: Number.NaN } as never }] }),
    ]);
    const rt = createRuntime({ model: hostileModel(() => reply('ok')), hostRoot: { dialogue: () => dialogue, deliver: () => undefined } });
    const outcome = await rt.callTool('/root', { id: 'spawn', name: 'Agent', arguments: { task_name: 'probe', message: 'x', context: 'all' } });
    expect(outcome).toMatchObject({ isError: true, content: expect.stringContaining('Error (start_failed)') });
    expect(rt.slotsInUse).toBe(0);
    expect(rt.list().map((a) => a.path)).toEqual(['/root']);
    rt.stop();
    expect(rt.slotsInUse).toBe(0);
  });
});

describe('argument limits are the host’s to set', () => {
  it('refuses arguments past a lower maxArgumentDepth or maxArgumentBytes, naming the limit', async () => {
    const model = hostileModel(({ agentPath, step }) =>
      agentPath === '/root' && step === 0
        ? { text: '', toolCalls: [{ id: 'd', name: 'echo', arguments: { text: 'a', deep: { b: { c: 1 } } } }, { id: 's', name: 'echo', arguments: { text: 'y'.repeat(200) } }, { id: 'ok', name: 'echo', arguments: { text: 'fine' } }], usage }
        : reply('ok'),
    );
    const rt = createRuntime({ model, tools: [echo], limits: { maxArgumentDepth: 2, maxArgumentBytes: 100 } });
    await rt.prompt('go');
    const [deep, large, fine] = toolResultsOf(model.calls[1]!.request);
    expect(deep!.content).toMatch(/\$\.deep\.b: the value is nested deeper than 2 levels \(limit maxArgumentDepth\)/);
    expect(large!.content).toMatch(/larger than 100 bytes of JSON \(limit maxArgumentBytes\)/);
    expect(fine).toEqual({ content: 'fine', isError: false });
  });

  it('refuses a nesting limit the runtime could not honour without overflowing the stack', () => {
    expect(() => resolveLimits({ maxArgumentDepth: MAX_NESTING_LIMIT + 1 })).toThrow(`limit maxArgumentDepth may be at most ${MAX_NESTING_LIMIT}`);
    expect(() => resolveLimits({ maxAnswerBytes: 0 })).toThrow('limit maxAnswerBytes must be an integer of at least 1, got 0');
    expect(() => createRuntime({ model: hostileModel(() => reply('x')), limits: { maxSchemaDepth: 1.5 } })).toThrow(RangeError);
  });
});
