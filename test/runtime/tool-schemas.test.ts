/**
 * Host tools whose schemas come from other libraries than the runtime's own zod run in a
 * session like any other: their arguments are validated, transformed and typed by the host's
 * library, and a bad call is a tool error the model reads.
 */
import { type } from 'arktype';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z as z3 } from 'zod3';
import { createRuntime, defineRuntimeTool } from '../../src/runtime/runtime.js';
import { scriptedModel } from '../../src/model/scripted.js';

describe('host tools with foreign schemas in a session', () => {
  it('runs zod 3, arktype and JSON Schema tools with validated arguments, and words bad calls for the model', async () => {
    const seen: unknown[] = [];
    const bash = defineRuntimeTool({
      name: 'bash',
      description: 'Runs a command.',
      schema: z3.object({ command: z3.string().min(1), cwd: z3.string().default('.') }),
      capabilities: ['shell'],
      permission: { kind: 'command', subject: (args) => args.command },
      execute: ({ command, cwd }) => {
        expectTypeOf(cwd).toEqualTypeOf<string>();
        seen.push({ command, cwd });
        return `ran ${command} in ${cwd}`;
      },
    });
    const grep = defineRuntimeTool({
      name: 'grep',
      description: 'Searches.',
      schema: type({ pattern: 'string', 'limit?': 'number.integer >= 1' }),
      execute: ({ pattern, limit }) => `${pattern}:${limit ?? 'all'}`,
    });
    const note = defineRuntimeTool({
      name: 'note',
      description: 'Takes a note.',
      schema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false },
      execute: (args) => `noted ${String(args['text'])}`,
    });
    const model = scriptedModel({
      '/root/w': {
        0: [
          {
            toolCalls: [
              { name: 'bash', id: 'a', arguments: { command: 'ls' } },
              { name: 'bash', id: 'b', arguments: { command: '' } },
              { name: 'grep', id: 'c', arguments: { pattern: 'TODO', limit: 0 } },
              { name: 'note', id: 'd', arguments: { text: 'hi' } },
              { name: 'note', id: 'e', arguments: { txt: 'hi' } },
            ],
          },
          { text: 'done' },
        ],
      },
    });
    const rt = createRuntime({ model, tools: [bash, grep, note] });
    await (await rt.spawn('/root', { task_name: 'w', message: 'go' })).result;
    const results = new Map(
      model.calls[1]!.request.messages.toArray().flatMap((e) => (e.kind === 'tool_result' ? [[e.callId, { content: e.content, isError: e.isError }] as const] : [])),
    );
    expect(seen).toEqual([{ command: 'ls', cwd: '.' }]);
    expect(results.get('a')).toEqual({ content: 'ran ls in .', isError: false });
    expect(results.get('b')?.isError).toBe(true);
    expect(results.get('b')?.content).toContain('"command" is invalid: expected a non-empty string; got "".');
    expect(results.get('c')?.content).toContain('"limit" is invalid: expected an integer at least 1; got 0.');
    expect(results.get('d')).toEqual({ content: 'noted hi', isError: false });
    expect(results.get('e')?.content).toContain('"txt" is not accepted: no such field in the arguments; allowed fields: text.');
    // The model saw each tool's JSON Schema in the head.
    const head = model.calls[0]!.request.system.tools.map((t) => [t.name, t.inputSchema['required']]);
    expect(head).toEqual(expect.arrayContaining([['bash', ['command']], ['grep', ['pattern']], ['note', ['text']]]));
  });
});
