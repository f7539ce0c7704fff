import { jsonSchema, zodSchema } from 'ai';
import { type } from 'arktype';
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import * as v from 'valibot';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z as z4 } from 'zod';
import { z as z3 } from 'zod3';
import { defineHostTool, type HostTool } from '../../src/request/host-tool.js';
import type { ToolParseResult } from '../../src/request/tool-args.js';
import type { JsonObject } from '../../src/request/types.js';

/** The expected model-facing schema of every `read_file` variant below. */
const READ_FILE_SCHEMA = {
  properties: { maxBytes: { type: 'integer' }, path: { minLength: 1, type: 'string' } },
  required: ['path'],
  type: 'object',
};

const variants: ReadonlyArray<readonly [string, HostTool<{ path: string; maxBytes?: number }>]> = [
  ['zod 3', defineHostTool({ name: 'read_file', description: 'Reads a file.', schema: z3.object({ path: z3.string().min(1), maxBytes: z3.number().int().optional() }) })],
  ['zod 4', defineHostTool({ name: 'read_file', description: 'Reads a file.', schema: z4.object({ path: z4.string().min(1), maxBytes: z4.int().optional() }) })],
  [
    'valibot',
    defineHostTool({
      name: 'read_file',
      description: 'Reads a file.',
      schema: toStandardJsonSchema(v.object({ path: v.pipe(v.string(), v.minLength(1)), maxBytes: v.optional(v.pipe(v.number(), v.integer())) })),
    }),
  ],
  ['arktype', defineHostTool({ name: 'read_file', description: 'Reads a file.', schema: type({ path: 'string > 0', 'maxBytes?': 'number.integer' }) })],
];

function settled<T>(result: ToolParseResult<T> | Promise<ToolParseResult<T>>): ToolParseResult<T> {
  if (result instanceof Promise) throw new Error('expected synchronous validation');
  return result;
}

function messageOf<T>(result: ToolParseResult<T> | Promise<ToolParseResult<T>>): string {
  const done = settled(result);
  if (done.ok) throw new Error('expected a failure');
  return done.error.message;
}

describe.each(variants)('a %s schema', (_library, tool) => {
  it('gives the model a JSON Schema of the object, with no $schema marker', () => {
    const { inputSchema } = tool.schema;
    expect(inputSchema['$schema']).toBeUndefined();
    expect(inputSchema['type']).toBe('object');
    expect(inputSchema['required']).toEqual(['path']);
    expect(inputSchema['properties']).toMatchObject(READ_FILE_SCHEMA.properties);
    expect(Object.isFrozen(inputSchema)).toBe(true);
  });

  it('validates through the library and returns its output', () => {
    expect(settled(tool.parse({ path: 'src/a.ts', maxBytes: 10 }))).toStrictEqual({ ok: true, args: { path: 'src/a.ts', maxBytes: 10 } });
  });

  it('words argument errors for the model: field, expectation, what it got', () => {
    expect(messageOf(tool.parse({ path: '' }))).toBe(
      'Invalid arguments for tool read_file: "path" is invalid: expected a non-empty string; got "". Fix the arguments and call read_file again.',
    );
    expect(messageOf(tool.parse({ maxBytes: 3 }))).toBe('Invalid arguments for tool read_file: "path" is required: expected a non-empty string. Fix the arguments and call read_file again.');
    expect(messageOf(tool.parse({ path: 'a', maxBytes: 1.5 }))).toContain('"maxBytes" is invalid: expected an integer; got 1.5.');
    expect(messageOf(tool.parse('src/a.ts'))).toBe(
      'Invalid arguments for tool read_file: the arguments must be a JSON object with the fields path, maxBytes; got "src/a.ts". Fix the arguments and call read_file again.',
    );
  });
});

describe('schemas from other libraries than the runtime uses', () => {
  it('types execute arguments from a zod 3 schema and validates it (no crash reading its internals)', () => {
    const tool = defineHostTool({ name: 'bash', description: 'Runs a command.', schema: z3.object({ command: z3.string(), timeout: z3.number().default(30) }) });
    expectTypeOf(tool).toEqualTypeOf<HostTool<{ command: string; timeout: number }>>();
    // zod 3 defaults apply: execute sees the library's output, not the raw arguments.
    expect(settled(tool.parse({ command: 'ls' }))).toStrictEqual({ ok: true, args: { command: 'ls', timeout: 30 } });
  });

  it('takes the JSON Schema from `jsonSchema` when the library cannot convert (plain valibot)', () => {
    const schema = v.object({ city: v.string() });
    expect(() => defineHostTool({ name: 'weather', description: 'Weather.', schema })).toThrow(
      'Tool weather: a valibot schema offers no JSON Schema conversion; pass the JSON Schema the model should see as `jsonSchema`',
    );
    const tool = defineHostTool({ name: 'weather', description: 'Weather.', schema, jsonSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } });
    expect(tool.schema.inputSchema).toEqual({ properties: { city: { type: 'string' } }, required: ['city'], type: 'object' });
    expect(messageOf(tool.parse({ city: 3 }))).toContain('"city" is invalid: expected a string; got 3.');
  });

  it('reports an unknown field of a strict schema the same way for every library', () => {
    const expected = '"extra" is not accepted: no such field in the arguments; allowed fields: path.';
    const strict3 = defineHostTool({ name: 't3', description: 'T.', schema: z3.object({ path: z3.string() }).strict() });
    const strictV = defineHostTool({ name: 'tv', description: 'T.', schema: toStandardJsonSchema(v.strictObject({ path: v.string() })) });
    const strictA = defineHostTool({ name: 'ta', description: 'T.', schema: type({ '+': 'reject', path: 'string' }) });
    for (const tool of [strict3, strictV, strictA]) expect(messageOf(tool.parse({ path: 'a', extra: 1 }))).toContain(expected);
  });

  it('awaits a schema that validates asynchronously', async () => {
    const tool = defineHostTool({
      name: 'lookup',
      description: 'Looks up.',
      schema: z4.object({ id: z4.string().refine(async (id) => id.startsWith('u_'), { message: 'an id starting with u_' }) }),
      hints: { id: 'a user id such as u_42' },
    });
    const ok = tool.parse({ id: 'u_1' });
    expect(ok).toBeInstanceOf(Promise);
    await expect(ok).resolves.toStrictEqual({ ok: true, args: { id: 'u_1' } });
    const bad = await tool.parse({ id: 'x' });
    expect(bad.ok ? '' : bad.error.message).toContain('"id" is invalid: expected a user id such as u_42; got "x".');
  });

  it('turns a throwing check into a tool error, for zod 3 (synchronous) and zod 4 (retried asynchronously)', async () => {
    const boom = (): boolean => {
      throw new Error('boom');
    };
    const t3 = defineHostTool({ name: 'f3', description: 'F.', schema: z3.object({ x: z3.string().refine(boom) }) });
    const t4 = defineHostTool({ name: 'f4', description: 'F.', schema: z4.object({ x: z4.string().refine(boom) }) });
    for (const tool of [t3, t4]) {
      const result = await tool.parse({ x: 'a' });
      expect(result.ok ? '' : result.error.message).toBe(
        `Invalid arguments for tool ${tool.name}: expected arguments accepted by the tool (boom). Fix the arguments and call ${tool.name} again.`,
      );
    }
  });

  it('refuses schemas that do not describe an object, or have no JSON Schema form', () => {
    expect(() => defineHostTool({ name: 'n', description: 'N.', schema: z3.string() })).toThrow('Tool n: its arguments schema must describe an object');
    expect(() => defineHostTool({ name: 'd', description: 'D.', schema: z4.object({ when: z4.date() }) })).toThrow('Tool d: its arguments schema has no JSON Schema form');
    expect(() => defineHostTool({ name: 'x', description: 'X.', schema: null as never })).toThrow('Tool x: schema must be a Standard Schema');
  });
});

describe('an AI SDK schema (the same object an AI SDK tool() takes)', () => {
  it('uses jsonSchema<T>() with its validate, typed by T', async () => {
    const tool = defineHostTool({
      name: 'weather',
      description: 'Weather.',
      schema: jsonSchema<{ city: string }>(
        { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
        { validate: (value) => (typeof (value as { city?: unknown }).city === 'string' ? { success: true, value: value as { city: string } } : { success: false, error: new Error('city must be a string') }) },
      ),
    });
    expectTypeOf(tool).toEqualTypeOf<HostTool<{ city: string }>>();
    expect(tool.schema.inputSchema).toEqual({ properties: { city: { type: 'string' } }, required: ['city'], type: 'object' });
    expect(await tool.parse({ city: 'Oslo' })).toStrictEqual({ ok: true, args: { city: 'Oslo' } });
    expect(messageOf(tool.parse({ city: 1 }))).toBe('Invalid arguments for tool weather: expected city must be a string; got an object. Fix the arguments and call weather again.');
  });

  it('validates a jsonSchema() without validate against its JSON Schema, and reads the issues of zodSchema()', async () => {
    const bare = defineHostTool({ name: 'bare', description: 'Bare.', schema: jsonSchema<{ n: number }>({ type: 'object', properties: { n: { type: 'integer', minimum: 1 } }, required: ['n'] }) });
    expect(messageOf(bare.parse({ n: 0 }))).toContain('"n" is invalid: expected an integer at least 1; got 0.');
    const wrapped = defineHostTool({ name: 'wrapped', description: 'Wrapped.', schema: zodSchema(z4.object({ path: z4.string().min(1) })) });
    const result = await wrapped.parse({ path: '' });
    expect(result.ok ? '' : result.error.message).toContain('"path" is invalid: expected a non-empty string; got "".');
  });
});

describe('a plain JSON Schema', () => {
  const tool = defineHostTool({
    name: 'search',
    description: 'Searches.',
    schema: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: {
        query: { type: 'string', minLength: 2 },
        limit: { type: 'integer', minimum: 1, maximum: 50 },
        mode: { enum: ['exact', 'fuzzy'] },
        tags: { type: 'array', items: { type: 'string' }, maxItems: 3 },
      },
      required: ['query'],
      additionalProperties: false,
    },
  });

  it('is validated with Ajv and its arguments reach the tool unchanged', () => {
    expectTypeOf(tool).toEqualTypeOf<HostTool<JsonObject>>();
    expect(tool.schema.inputSchema['$schema']).toBeUndefined();
    expect(settled(tool.parse({ query: 'kite', limit: 5 }))).toStrictEqual({ ok: true, args: { query: 'kite', limit: 5 } });
  });

  it.each([
    [{}, '"query" is required: expected a string of at least 2 characters.'],
    [{ query: 'k' }, '"query" is invalid: expected a string of at least 2 characters; got "k".'],
    [{ query: 'kite', limit: 0 }, '"limit" is invalid: expected an integer at least 1 and at most 50; got 0.'],
    [{ query: 'kite', mode: 'regex' }, '"mode" is invalid: expected one of "exact", "fuzzy"; got "regex".'],
    [{ query: 'kite', tags: ['a', 'b', 'c', 'd'] }, '"tags" is invalid: expected a list of at most 3 items; got an array of 4 items.'],
    [{ query: 'kite', tags: ['a', 2] }, '"tags[1]" is invalid: expected a string; got 2.'],
    [{ query: 'kite', page: 2 }, '"page" is not accepted: no such field in the arguments; allowed fields: query, limit, mode, tags.'],
  ])('%o', (args, sentence) => {
    expect(messageOf(tool.parse(args))).toBe(`Invalid arguments for tool search: ${sentence} Fix the arguments and call search again.`);
  });

  it('refuses a schema Ajv cannot compile when the tool is defined', () => {
    expect(() => defineHostTool({ name: 'bad', description: 'Bad.', schema: { type: 'object', properties: { a: { type: 'strin' } } } })).toThrow(
      'Tool bad: its arguments schema is not valid JSON Schema',
    );
  });
});
