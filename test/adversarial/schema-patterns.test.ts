/**
 * Output-schema patterns against hostile answers (the second campaign's twelfth defect). Ajv ran
 * `pattern` on JavaScript's backtracking RegExp, so a pattern such as `^(a+)+$` and an answer
 * the model chose could block the event loop for the whole runtime: 26 characters took 0.65 s
 * and each one more doubled it. Patterns now run on RE2 (re2js), whose time is linear in the
 * text, so the 40- and 100,000-character answers below are checked at once; before, this file
 * never finished. A pattern RE2 cannot run (lookahead, backreference) is refused when its
 * schema is compiled, with a typed error.
 */
import { describe, expect, it } from 'vitest';
import { createRuntime, defineRuntimeTool } from '../../src/runtime/runtime.js';
import { checkOutput, checkOutputSchema, OutputSchemaError } from '../../src/request/output-schema.js';
import { linearRegExp, UnsupportedPatternError } from '../../src/request/linear-regexp.js';
import type { JsonObject } from '../../src/request/types.js';
import { hostileModel, toolResultsOf } from './helpers.js';

const usage = { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 };
const reply = (text: string) => ({ text, toolCalls: [], usage });
const EVIL = '^(a+)+$';
const evilText = (n: number) => `${'a'.repeat(n)}!`;

async function answerWith(schema: JsonObject, answer: string) {
  const model = hostileModel(({ agentPath, step }) => {
    if (agentPath !== '/root') return reply(answer);
    return step === 0 ? { text: '', toolCalls: [{ id: 'a', name: 'Agent', arguments: { task_name: 'w', message: 'answer' } }], usage } : reply('root done');
  });
  const rt = createRuntime({ model, spawnPolicy: () => ({ output: schema }) });
  const turn = await rt.prompt('go');
  return { turn, result: await rt.result('/root/w') };
}

describe('a pattern cannot be driven into catastrophic backtracking', () => {
  it.each([
    ['pattern, 40 characters', { type: 'string', pattern: EVIL }, JSON.stringify(evilText(40))],
    ['pattern, 100,000 characters', { type: 'string', pattern: '^(a|a)*$' }, JSON.stringify(evilText(100_000))],
    ['patternProperties, a 40-character key', { type: 'object', patternProperties: { [EVIL]: { type: 'number' } }, additionalProperties: false }, JSON.stringify({ [evilText(40)]: 1 })],
    ['propertyNames, a 40-character key', { type: 'object', propertyNames: { pattern: EVIL } }, JSON.stringify({ [evilText(40)]: 1 })],
  ] as Array<[string, JsonObject, string]>)('%s: the answer is refused as invalid_output and the root completes', async (_name, schema, answer) => {
    const { turn, result } = await answerWith(schema, answer);
    expect(turn).toMatchObject({ status: 'completed', text: 'root done' });
    expect(result).toMatchObject({ status: 'failed', stopReason: 'invalid_output' });
    expect(result.error).toMatch(/must match pattern|must NOT have additional properties|property name must be valid/);
  });

  it('a host tool’s JSON Schema pattern checks the model’s arguments the same way', async () => {
    const lookup = defineRuntimeTool({
      name: 'lookup',
      description: 'Looks a word up.',
      schema: { type: 'object', properties: { word: { type: 'string', pattern: EVIL } }, required: ['word'] },
      execute: () => 'found',
    });
    const model = hostileModel(({ step }) =>
      step === 0 ? { text: '', toolCalls: [{ id: 'l', name: 'lookup', arguments: { word: evilText(40) } }, { id: 'm', name: 'lookup', arguments: { word: 'aaa' } }], usage } : reply('done'),
    );
    const rt = createRuntime({ model, tools: [lookup] });
    await rt.prompt('go');
    const [bad, good] = toolResultsOf(model.calls[1]!.request);
    expect(bad).toMatchObject({ isError: true, content: expect.stringMatching(/invalid_arguments/) });
    expect(good).toEqual({ content: 'found', isError: false });
  });
});

describe('patterns RE2 cannot run are refused when the schema is compiled', () => {
  it.each([
    ['a lookahead', '^(?=.*\\d)\\w+$'],
    ['a negative lookahead', '^(?!tmp)'],
    ['a backreference', '^(a)\\1$'],
    ['not a regular expression', '(unclosed'],
  ])('%s: an invalid_output_schema error naming the pattern', (_name, pattern) => {
    const compile = () => checkOutputSchema({ type: 'string', pattern }, 'spawn output');
    expect(compile).toThrow(OutputSchemaError);
    expect(compile).toThrow(`pattern ${JSON.stringify(pattern)} cannot run on the linear-time regular-expression engine`);
    expect(() => linearRegExp(pattern, 'u')).toThrow(UnsupportedPatternError);
  });

  it('a spawn whose schema has one is refused, holding nothing', async () => {
    const model = hostileModel(({ agentPath, step }) =>
      agentPath === '/root' && step === 0 ? { text: '', toolCalls: [{ id: 'a', name: 'Agent', arguments: { task_name: 'w', message: 'm' } }], usage } : reply('done'),
    );
    const rt = createRuntime({ model, spawnPolicy: () => ({ output: { type: 'string', pattern: '(?=x)' } }) });
    await rt.prompt('go');
    expect(toolResultsOf(model.calls.at(-1)!.request)[0]!.content).toMatch(/invalid_output_schema.*linear-time/);
    expect(rt.slotsInUse).toBe(0);
  });
});

describe('ordinary patterns keep their ECMAScript meaning', () => {
  it.each([
    ['^[a-z]+\\.ts$', 'parser.ts', true],
    ['^[a-z]+\\.ts$', 'parser.tsx', false],
    ['\\d{3}', 'line 404 here', true],
    ['^\\p{L}+$', 'héllo', true],
    ['^\\p{L}+$', 'h3llo', false],
    ['^(?<year>\\d{4})-\\d{2}$', '2026-12', true],
    ['(?<=v)\\d+', 'v12', true],
    ['(?<!v)\\d+$', 'v', false],
    ['^a/b$', 'a/b', true],
    ['^\\u00e9$', 'é', true],
    ['^.$', '😀', true],
    ['^$', '', true],
  ])('%s on %j: %s', (pattern, text, matches) => {
    const schema = checkOutputSchema({ type: 'string', pattern }, 'spawn output');
    expect(checkOutput(JSON.stringify(text), schema).valid).toBe(matches);
    expect(linearRegExp(pattern, 'u').test(text)).toBe(new RegExp(pattern, 'u').test(text));
  });
});
