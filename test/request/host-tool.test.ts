import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineHostTool } from '../../src/request/host-tool.js';
import { createToolRegistry } from '../../src/request/registry.js';
import { serializeTool } from '../../src/request/serialize.js';
import { defineTool } from '../../src/request/tool-args.js';

const readFile = defineHostTool({
  name: 'read_file',
  description: 'Read a text file of the project.',
  schema: z.object({ path: z.string().min(1), maxBytes: z.number().int().min(1).max(1_000_000).optional() }).strict(),
  capabilities: ['read'],
  hints: { path: 'a project-relative file path' },
});

function messageOf(outcome: { ok: boolean; error?: { message: string } } | Promise<unknown>): string {
  if (outcome instanceof Promise) throw new Error('a zod schema without async checks validates synchronously');
  const result = outcome;
  if (result.ok || result.error === undefined) throw new Error('expected a failure');
  return result.error.message;
}

describe('defineHostTool', () => {
  it('produces a frozen, canonical ToolSchema and keeps capabilities', () => {
    expect(readFile.schema).toEqual({
      name: 'read_file',
      description: 'Read a text file of the project.',
      inputSchema: {
        additionalProperties: false,
        properties: { maxBytes: { maximum: 1000000, minimum: 1, type: 'integer' }, path: { minLength: 1, type: 'string' } },
        required: ['path'],
        type: 'object',
      },
    });
    expect(Object.isFrozen(readFile.schema.inputSchema)).toBe(true);
    expect(readFile.capabilities).toEqual(['read']);
    expect(Object.isFrozen(readFile.capabilities)).toBe(true);
  });

  it('gives byte-identical schemas for equal definitions written in another key order', () => {
    const again = defineHostTool({
      name: 'read_file',
      description: 'Read a text file of the project.',
      schema: z.object({ maxBytes: z.number().int().max(1_000_000).min(1).optional(), path: z.string().min(1) }).strict(),
    });
    // Keys and checks were declared in another order; canonicalization makes the bytes agree.
    expect(serializeTool(again.schema)).toBe(serializeTool(readFile.schema));
    expect(again.capabilities).toEqual([]);
  });

  it('validates with hints and falls back to wording from the schema', () => {
    expect(readFile.parse({ path: 'src/a.ts' })).toStrictEqual({ ok: true, args: { path: 'src/a.ts' } });
    expect(messageOf(readFile.parse({ path: '' }))).toBe(
      'Invalid arguments for tool read_file: "path" is invalid: expected a project-relative file path; got "". Fix the arguments and call read_file again.',
    );
    expect(messageOf(readFile.parse({ path: 'a', maxBytes: 0 }))).toContain('"maxBytes" is invalid: expected a number at least 1; got 0.');
    expect(messageOf(readFile.parse({ path: 'a', maxBytes: 2_000_000 }))).toContain('expected a number at most 1000000; got 2000000.');
    expect(messageOf(readFile.parse({ path: 'a', maxBytes: 1.5 }))).toContain('expected an integer; got 1.5.');
  });

  it('registers next to the built-ins and refuses clashes', () => {
    const registry = createToolRegistry([readFile]);
    expect([...(registry as Map<string, unknown>).keys()]).toEqual(['Agent', 'send_message', 'list_agents', 'cancel_agent', 'close_agent', 'read_file']);
    expect(() => createToolRegistry([readFile, readFile.schema])).toThrow('Two tools are named read_file');
  });

  it('refuses reserved names, malformed names and empty descriptions', () => {
    const schema = z.object({});
    expect(() => defineHostTool({ name: 'send_message', description: 'x', schema })).toThrow('Tool name send_message is reserved for a built-in tool');
    expect(() => defineHostTool({ name: 'read file', description: 'x', schema })).toThrow('Tool name "read file" must be 1-64 letters, digits, "_" or "-"');
    expect(() => defineHostTool({ name: 'ok', description: '  ', schema })).toThrow('Tool ok needs a description');
  });
});

describe('generic error wording (no hints)', () => {
  const tool = defineTool({
    name: 'probe',
    description: 'Probe.',
    schema: z
      .object({
        code: z.string().min(3).max(5).optional(),
        tag: z.string().regex(/^[a-z]+$/).optional(),
        mail: z.email().optional(),
        mode: z.enum(['a', 'b']).optional(),
        level: z.literal(3).optional(),
        step: z.number().multipleOf(5).optional(),
        ratio: z.number().gt(0).lt(1).optional(),
        items: z.array(z.string()).min(1).max(2).optional(),
        either: z.union([z.string(), z.boolean()]).optional(),
        flag: z.boolean().optional(),
        even: z
          .number()
          .refine((n) => n % 2 === 0, { message: 'an even number' })
          .optional(),
      })
      .strict(),
  });

  it.each([
    [{ code: 'ab' }, '"code" is invalid: expected a string of at least 3 characters; got "ab".'],
    [{ code: 'abcdef' }, '"code" is invalid: expected a string of at most 5 characters; got "abcdef".'],
    [{ tag: 'A' }, '"tag" is invalid: expected a string matching /^[a-z]+$/; got "A".'],
    [{ mail: 'nope' }, '"mail" is invalid: expected a valid email; got "nope".'],
    [{ mode: 'c' }, '"mode" is invalid: expected one of "a", "b"; got "c".'],
    [{ level: 4 }, '"level" is invalid: expected one of 3; got 4.'],
    [{ step: 7 }, '"step" is invalid: expected a multiple of 5; got 7.'],
    [{ ratio: 0 }, '"ratio" is invalid: expected a number more than 0; got 0.'],
    [{ ratio: 1 }, '"ratio" is invalid: expected a number less than 1; got 1.'],
    [{ items: [] }, '"items" is invalid: expected a list of at least 1 item; got an empty array.'],
    [{ items: ['a', 'b', 'c'] }, '"items" is invalid: expected a list of at most 2 items; got an array of 3 items.'],
    [{ either: 1 }, '"either" is invalid: expected a value of one of the accepted types; got 1.'],
    [{ flag: 'yes' }, '"flag" is invalid: expected a boolean; got "yes".'],
    [{ even: 3 }, '"even" is invalid: expected an even number; got 3.'],
  ])('%o', (args, sentence) => {
    const result = tool.parse(args);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.message).toBe(`Invalid arguments for tool probe: ${sentence} Fix the arguments and call probe again.`);
  });

  it('turns a throwing refinement into a tool error instead of throwing', () => {
    const fragile = defineTool({
      name: 'fragile',
      description: 'Fragile.',
      schema: z.object({
        x: z.string().refine(() => {
          throw new Error('boom');
        }),
      }),
    });
    const result = fragile.parse({ x: 'a' });
    expect(result).toEqual({
      ok: false,
      error: {
        tool: 'fragile',
        issues: [{ field: '', problem: 'invalid', expected: 'arguments accepted by the tool (boom)' }],
        message: 'Invalid arguments for tool fragile: expected arguments accepted by the tool (boom). Fix the arguments and call fragile again.',
      },
    });
    const throwsString = defineTool({
      name: 'fragile2',
      description: 'Fragile.',
      schema: z.object({
        x: z.string().refine(() => {
          throw 'plain';
        }),
      }),
    });
    expect(messageOf(throwsString.parse({ x: 'a' }))).toContain('(plain)');
  });

  it('refuses a schema with no JSON Schema form when the tool is defined', () => {
    expect(() => defineTool({ name: 'dated', description: 'Dated.', schema: z.object({ when: z.date() }) })).toThrow();
  });
});
