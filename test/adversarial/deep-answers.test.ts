/**
 * Hostile structured answers (the second campaign's second defect): a subagent with an output
 * schema answers with JSON thousands of levels deep. Before the answer limits, 3,000 levels
 * ended the root as `internal_error` (the parent's report overflowed the stack) and 8,000
 * levels failed the subagent with an untyped "Maximum call stack size exceeded". Now the
 * answer is refused against `maxAnswerDepth` / `maxAnswerBytes` before it is parsed: the
 * subagent gets its one repair request naming the limit, then fails as `invalid_output`, and
 * its parent goes on.
 */
import { describe, expect, it } from 'vitest';
import { createRuntime } from '../../src/runtime/runtime.js';
import type { JsonObject } from '../../src/request/types.js';
import { expectNothingHeld, hostileModel, toolResultsOf, userTextsOf } from './helpers.js';

const usage = { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 };
const reply = (text: string) => ({ text, toolCalls: [], usage });
const spawn = (id: string, taskName: string) => ({ text: '', toolCalls: [{ id, name: 'Agent', arguments: { task_name: taskName, message: 'answer' } }], usage });
const deepObjects = (levels: number) => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);
const deepArrays = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);

const CASES: ReadonlyArray<[string, string, JsonObject]> = [
  ['8,000 levels of objects, schema {}', deepObjects(8_000), {}],
  ['8,000 levels of objects, an object schema', deepObjects(8_000), { type: 'object' }],
  ['3,000 levels of objects, schema {}', deepObjects(3_000), {}],
  ['8,000 levels of arrays, an array schema', deepArrays(8_000), { type: 'array' }],
  ['65 levels, one past the default', deepObjects(65), {}],
];

describe('a deep structured answer never crashes its parent', () => {
  it.each(CASES)('%s: the subagent fails as invalid_output naming maxAnswerDepth; the root completes', async (_name, deep, schema) => {
    const model = hostileModel(({ agentPath, step }) => {
      if (agentPath === '/root') return step === 0 ? spawn('a', 'w') : reply('root done');
      return reply(deep);
    });
    const rt = createRuntime({ model, spawnPolicy: () => ({ output: schema }) });
    const turn = await rt.prompt('go');
    expect(turn).toMatchObject({ status: 'completed', text: 'root done' });
    const result = await rt.result('/root/w');
    expect(result).toMatchObject({ status: 'failed', stopReason: 'invalid_output' });
    expect(result.error).toMatch(/the final answer is nested deeper than 64 levels \(limit maxAnswerDepth\)/);
    expect(result.value).toBeUndefined();
    // The one repair request named the limit.
    const repair = model.calls.filter((c) => c.context.agentPath === '/root/w')[1]!;
    expect(userTextsOf(repair.request).at(-1)).toMatch(/nested deeper than 64 levels \(limit maxAnswerDepth\)/);
    // The parent model read a typed failure.
    const seen = toolResultsOf(model.calls.at(-1)!.request).at(-1)!;
    expect(seen.isError).toBe(true);
    expect(JSON.parse(seen.content)).toMatchObject({ agent_id: '/root/w', status: 'failed', stop_reason: 'invalid_output' });
    expectNothingHeld(rt);
    rt.stop();
    expect(rt.slotsInUse).toBe(0);
  });

  it('a grandchild’s deep answer leaves its parent subagent running, which answers the root', async () => {
    const model = hostileModel(({ agentPath, step }) => {
      if (agentPath === '/root') return step === 0 ? spawn('a', 'mid') : reply('root done');
      if (agentPath === '/root/mid') return step === 0 ? spawn('b', 'leaf') : reply('mid done');
      return reply(deepObjects(3_000));
    });
    const rt = createRuntime({ model, spawnPolicy: ({ parentPath }) => (parentPath === '/root/mid' ? { output: {} } : undefined) });
    await rt.prompt('go');
    expect(await rt.result('/root/mid/leaf')).toMatchObject({ status: 'failed', stopReason: 'invalid_output' });
    expect(await rt.result('/root/mid')).toMatchObject({ status: 'completed', text: 'mid done' });
  });

  it('holds answers to a lower maxAnswerDepth and maxAnswerBytes the host sets', async () => {
    const answers: Record<string, string> = { deep: '{"a":{"b":{"c":1}}}', large: JSON.stringify({ text: 'é'.repeat(100) }), fine: '{"a":{"b":1}}' };
    const model = hostileModel(({ agentPath, step }) => {
      if (agentPath === '/root') return step === 0 ? { text: '', toolCalls: Object.keys(answers).map((name) => spawn(name, name).toolCalls[0]!), usage } : reply('ok');
      return reply(answers[agentPath.slice('/root/'.length)]!);
    });
    const rt = createRuntime({ model, spawnPolicy: () => ({ output: {} }), limits: { maxAnswerDepth: 2, maxAnswerBytes: 150 } });
    await rt.prompt('go');
    expect((await rt.result('/root/deep')).error).toMatch(/nested deeper than 2 levels \(limit maxAnswerDepth\)/);
    // 100 two-byte characters: 112 UTF-16 units, 212 UTF-8 bytes.
    expect((await rt.result('/root/large')).error).toMatch(/larger than 150 bytes \(limit maxAnswerBytes\)/);
    expect(await rt.result('/root/fine')).toMatchObject({ status: 'completed', value: { a: { b: 1 } } });
  });

  it('names at most 20 schema problems in a repair request', async () => {
    const wide = JSON.stringify(Array.from({ length: 5_000 }, (_, i) => i));
    const model = hostileModel(({ agentPath, step }) => (agentPath === '/root' ? (step === 0 ? spawn('a', 'w') : reply('ok')) : reply(wide)));
    const rt = createRuntime({ model, spawnPolicy: () => ({ output: { type: 'array', items: { type: 'string' } } }) });
    await rt.prompt('go');
    const error = (await rt.result('/root/w')).error!;
    expect(error.match(/must be string/g)).toHaveLength(20);
    expect(error).toContain('and 4980 more problems');
  });
});
