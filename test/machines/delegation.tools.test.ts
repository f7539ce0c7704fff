/**
 * One tool type for every host (#23): a tool built with defineRuntimeTool runs under
 * delegatingAgent as under createRuntime, its arguments validated the same way, and the
 * older HarnessTool form still runs.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { createActor, toPromise } from 'xstate';
import { defineRuntimeTool, createRuntime, ZERO_USAGE, type RuntimeTool } from '../../src/index.js';
import { delegatingAgent, type DelegatingAgentOptions, type ModelResponse, type SampleInput } from '../../machines/index.js';
import { scriptedModel } from '../../src/model/scripted.js';
import type { JsonValue, ToolCall, ToolResultEntry } from '../../src/dialogue/entry.js';

const ran: string[] = [];
const readFile = defineRuntimeTool({
  name: 'read_file',
  description: 'Read a file of the project.',
  schema: z.object({ path: z.string() }),
  execute: async ({ path }) => (ran.push(path), `text of ${path}`),
});

/** Two calls in one step: one with good arguments, one without its path. */
const calls: ToolCall[] = [
  { id: 'call_good', name: 'read_file', arguments: { path: 'a.md' } },
  { id: 'call_bad', name: 'read_file', arguments: { file: 'b.md' } },
];

async function underDelegatingAgent(tool: RuntimeTool | NonNullable<DelegatingAgentOptions['tools']>[number]): Promise<ToolResultEntry[]> {
  let results: ToolResultEntry[] = [];
  const model = (request: SampleInput): ModelResponse => {
    const last = request.dialogue.at(-1);
    if (last?.kind === 'tool_result') {
      results = request.dialogue.log.toArray().flatMap((e) => (e.kind === 'tool_result' ? [e] : []));
      return { text: 'done', toolCalls: [], usage: ZERO_USAGE };
    }
    return { text: '', toolCalls: calls, usage: ZERO_USAGE };
  };
  const agents = delegatingAgent({ model, tools: [tool] });
  await toPromise(createActor(agents.logic, { input: agents.input({ task: 'read', model: 'm' }) }).start());
  return results;
}

describe('one tool type for createRuntime and delegatingAgent', () => {
  it('delegatingAgent takes a RuntimeTool', () => {
    expectTypeOf<typeof readFile>().toMatchTypeOf<NonNullable<DelegatingAgentOptions['tools']>[number]>();
  });

  it('validates arguments before execute, in the same words under both hosts', async () => {
    ran.length = 0;
    const delegated = await underDelegatingAgent(readFile);
    expect(ran).toEqual(['a.md']);
    const runtime = createRuntime({ model: scriptedModel({ '/root': { 0: [{ toolCalls: calls }, { text: 'done' }] } }, { strict: true }), tools: [readFile] });
    await runtime.prompt('read');
    expect(ran).toEqual(['a.md', 'a.md']);
    const hosted = runtime.transcript('/root')!.log.toArray().flatMap((e) => (e.kind === 'tool_result' ? [e] : []));
    const answers = (rs: ToolResultEntry[]) => rs.map((r) => [r.callId, r.isError, r.content]);
    expect(answers(delegated)).toEqual(answers(hosted));
    expect(delegated[1]).toMatchObject({ isError: true, content: expect.stringContaining('invalid_arguments') });
  });

  it('refuses a call that needs approval, as createRuntime does without an approver', async () => {
    const deploy = defineRuntimeTool({ name: 'read_file', description: 'Deploys.', schema: z.object({ path: z.string() }), needsApproval: true, execute: () => 'deployed' });
    const results = await underDelegatingAgent(deploy);
    expect(results[0]).toMatchObject({ isError: true, content: expect.stringContaining('approval_denied') });
  });

  it('asks a needsApproval function per call, and refuses only the calls it flags, naming the tool', async () => {
    const asked: string[] = [];
    const guarded = defineRuntimeTool({
      name: 'read_file',
      description: 'Reads, except secrets.',
      schema: z.object({ path: z.string() }),
      needsApproval: ({ path }, { path: agent }) => (asked.push(`${agent} ${path}`), path === 'a.md'),
      execute: ({ path }) => `read ${path}`,
    });
    const results = await underDelegatingAgent(guarded);
    expect(asked).toEqual(['/root a.md']);
    expect(results[0]).toMatchObject({ isError: true, content: "Error (approval_denied): read_file needs the host's approval (the tool needs approval) and no approver is configured" });
  });

  it('gives a tool the call’s path, id and signal, no external directories, and inherited extensions; an outcome object keeps its isError', async () => {
    const seen: unknown[] = [];
    const probe = (isError: boolean | undefined) =>
      defineRuntimeTool({
        name: 'read_file',
        description: 'Reports what it was given.',
        schema: z.object({ path: z.string() }),
        execute: (_args, context) => {
          seen.push({ path: context.path, callId: context.callId, aborted: context.signal.aborted, externalDirectories: context.externalDirectories, inheritsExtensions: context.inheritsExtensions });
          return isError === undefined ? { content: 'object outcome' } : { content: 'object outcome', isError };
        },
      });
    expect((await underDelegatingAgent(probe(undefined)))[0]).toMatchObject({ isError: false, content: 'object outcome' });
    expect((await underDelegatingAgent(probe(true)))[0]).toMatchObject({ isError: true, content: 'object outcome' });
    expect(seen[0]).toEqual({ path: '/root', callId: 'call_good', aborted: false, externalDirectories: [], inheritsExtensions: true });
  });

  it('still runs the deprecated HarnessTool form', async () => {
    const results = await underDelegatingAgent({
      name: 'read_file',
      description: 'Read a file.',
      inputSchema: { type: 'object', properties: { path: { type: 'string' } } },
      execute: async (args: JsonValue) => `bare ${JSON.stringify(args)}`,
    });
    expect(results.map((r) => r.content)).toEqual(['bare {"path":"a.md"}', 'bare {"file":"b.md"}']);
  });
});
