/**
 * Output schemas under load (the second campaign's fourth defect). Every spawn compiled its
 * schema again into the one shared Ajv instance, which keeps each compiled schema forever
 * (about 6 KB each, and about 1 s of blocking for 5,000 properties), and a schema with `$id`
 * worked for the first spawn only: the second compile of the same `$id` was refused. Now a
 * schema is compiled once per content, shared by every spawn, and `$id` never clashes.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createRuntime } from '../../src/runtime/runtime.js';
import { jsonSchemaAjv } from '../../src/request/json-schema-validator.js';
import { checkOutput, checkOutputSchema, OutputSchemaError } from '../../src/request/output-schema.js';
import type { JsonObject } from '../../src/request/types.js';
import { parseDefinition } from '../../src/policy/parse-definition.js';
import { DefinitionError } from '../../src/policy/definition-error.js';
import { hostileModel, toolResultsOf } from './helpers.js';

const usage = { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 };
const reply = (text: string) => ({ text, toolCalls: [], usage });

/** A fresh copy of a schema with `$id` and a `$ref` to its own definitions (as a spawn policy builds it). */
const withId = (): JsonObject => ({
  $id: 'https://example.com/schemas/finding.json',
  type: 'object',
  properties: { file: { $ref: '#/$defs/path' }, line: { type: 'integer' } },
  required: ['file', 'line'],
  $defs: { path: { type: 'string', minLength: 1 } },
});

/** Runs `count` subagents of the root one after another, each with `schema()`. */
async function spawnMany(count: number, schema: () => JsonObject, answer = '{"file":"a.ts","line":1}') {
  const model = hostileModel(({ agentPath, step }) => {
    if (agentPath !== '/root') return reply(answer);
    return step < count ? { text: '', toolCalls: [{ id: `s${step}`, name: 'Agent', arguments: { task_name: `w${step}`, message: 'find it' } }], usage } : reply('done');
  });
  const rt = createRuntime({ model, spawnPolicy: () => ({ output: schema() }) });
  await rt.prompt('go');
  const results = await Promise.all(Array.from({ length: count }, (_, i) => rt.result(`/root/w${i}`)));
  return { rt, model, results };
}

afterEach(() => vi.restoreAllMocks());

describe('output schemas are compiled once per content', () => {
  it('a schema with $id works for every spawn, not only the first', async () => {
    const { results, model } = await spawnMany(4, withId);
    for (const result of results) expect(result).toMatchObject({ status: 'completed', value: { file: 'a.ts', line: 1 } });
    expect(toolResultsOf(model.calls.at(-1)!.request).every((r) => !r.isError)).toBe(true);
  });

  it('two different schemas sharing one $id both work', () => {
    const a = checkOutputSchema({ $id: 'https://example.com/shared.json', type: 'string' }, 'a');
    const b = checkOutputSchema({ $id: 'https://example.com/shared.json', type: 'integer' }, 'b');
    expect(checkOutput('"x"', a)).toMatchObject({ valid: true });
    expect(checkOutput('7', b)).toMatchObject({ valid: true });
    expect(checkOutput('7', a)).toMatchObject({ valid: false });
  });

  it('many spawns of one content compile it once and share one frozen schema', async () => {
    const compile = vi.spyOn(jsonSchemaAjv(), 'compile');
    const wide = (): JsonObject => ({ type: 'object', properties: Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`p${i}`, { type: 'string' }])), 'x-run': 'compile-once' });
    const { model, results } = await spawnMany(12, wide, '{"p0":"a"}');
    expect(results.every((r) => r.status === 'completed')).toBe(true);
    expect(compile).toHaveBeenCalledTimes(1);
    const outputs = new Set(model.calls.filter((c) => c.context.agentPath !== '/root').map((c) => c.request.output));
    expect(outputs.size).toBe(1);
  });

  it('the same content in another key order is the same schema', () => {
    const a = checkOutputSchema({ type: 'object', required: ['k'], properties: { k: { type: 'number' } } }, 'a');
    const b = checkOutputSchema({ properties: { k: { type: 'number' } }, required: ['k'], type: 'object' }, 'b');
    expect(b).toBe(a);
    expect(Object.isFrozen(a)).toBe(true);
  });

  it('a validator evicted from the cache still checks the agents that hold its schema', () => {
    const first = checkOutputSchema({ type: 'string', 'x-evict': 0 }, 'first');
    for (let i = 1; i <= 300; i++) checkOutputSchema({ type: 'string', 'x-evict': i }, `s${i}`);
    expect(checkOutput('"ok"', first)).toMatchObject({ valid: true });
    expect(checkOutput('1', first)).toMatchObject({ valid: false });
  });
});

describe('output schemas are held to maxSchemaDepth and maxSchemaBytes', () => {
  const deep = (levels: number): JsonObject => {
    let schema: JsonObject = { type: 'string' };
    for (let i = 0; i < levels; i++) schema = { type: 'object', properties: { a: schema } };
    return schema;
  };

  it('a schema 5,000 levels deep is a typed error naming the limit, at spawn and in a role file', async () => {
    expect(() => checkOutputSchema(deep(5_000), 'spawn output')).toThrow(OutputSchemaError);
    expect(() => checkOutputSchema(deep(5_000), 'spawn output')).toThrow(/spawn output: the output schema is invalid: \$\.properties\.a.*nested deeper than 64 levels \(limit maxSchemaDepth\)/);
    const model = hostileModel(({ agentPath, step }) =>
      agentPath === '/root' && step === 0 ? { text: '', toolCalls: [{ id: 'a', name: 'Agent', arguments: { task_name: 'w', message: 'm' } }], usage } : reply('done'),
    );
    const rt = createRuntime({ model, spawnPolicy: () => ({ output: deep(5_000) }) });
    expect(await rt.prompt('go')).toMatchObject({ status: 'completed', text: 'done' });
    const [seen] = toolResultsOf(model.calls.at(-1)!.request);
    expect(seen).toMatchObject({ isError: true, content: expect.stringMatching(/invalid_output_schema.*limit maxSchemaDepth/) });
    const role = `---\nname: r\ndescription: d\noutput: '${'{"type":"object","properties":{"a":'.repeat(5_000)}{"type":"string"}${'}}'.repeat(5_000)}'\n---\nDo it.\n`;
    expect(() => parseDefinition(role, { file: 'r.md', scope: 'project' })).toThrow(DefinitionError);
    expect(() => parseDefinition(role, { file: 'r.md', scope: 'project' })).toThrow(/limit maxSchemaDepth/);
    expect(rt.slotsInUse).toBe(0);
  });

  it('a host’s lower limits apply', async () => {
    const model = hostileModel(({ agentPath, step }) =>
      agentPath === '/root' && step === 0 ? { text: '', toolCalls: [{ id: 'a', name: 'Agent', arguments: { task_name: 'w', message: 'm' } }], usage } : reply('done'),
    );
    const rt = createRuntime({ model, limits: { maxSchemaBytes: 100 }, spawnPolicy: () => ({ output: { type: 'string', description: 'd'.repeat(200) } }) });
    await rt.prompt('go');
    expect(toolResultsOf(model.calls.at(-1)!.request)[0]!.content).toMatch(/larger than 100 bytes of JSON \(limit maxSchemaBytes\)/);
  });
});
