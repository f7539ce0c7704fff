/**
 * The README's "Embedding the machine" example, run as a test: a harness that drives the agent
 * machine with its own model call and its own result handling, without createRuntime.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createActor, fromPromise, type AnyActorRef } from 'xstate';
import { ZERO_USAGE, type AgentResult } from '../src/index.js';
import { agentMachine, createAgentInput, type AgentContext, type SampleInput, type SampleOutput } from '../machines/index.js';
import type { ModelResponse } from '../src/request/reply.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

describe('embedding the machine', () => {
  it('runs one agent with harness-provided actors and reports its result once', async () => {
    const results: AgentResult[] = [];
    const myHarness = { deliver: (result: AgentResult) => void results.push(result) };
    // Your own model call: here a canned reply that echoes the task.
    const callMyModel = async (input: SampleInput, signal: AbortSignal): Promise<SampleOutput> => {
      signal.throwIfAborted();
      const task = input.dialogue.at(-1);
      const text = task?.kind === 'user' ? `done: ${task.text}` : 'done';
      return { response: { text, toolCalls: [], usage: ZERO_USAGE }, compaction: undefined };
    };

    const logic = agentMachine.provide({
      actors: {
        sampleModel: fromPromise<SampleOutput, SampleInput>(async ({ input, signal }) => callMyModel(input, signal)),
        // runTaskHooks, generateSummary, executeTool: provide the ones your agents use
      },
      actions: {
        releaseAndReport: (_, { result }) => myHarness.deliver(result), // exactly once per agent
      },
    });
    const input = createAgentInput({ task: 'summarize the changelog', model: 'my-model', systemPrompt: 'You are a worker.' });
    const agent = createActor(logic, { input }).start();

    await new Promise<void>((resolve) => agent.subscribe({ complete: () => resolve() }));
    expect(agent.getSnapshot().value).toBe('settled');
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ status: 'completed', text: 'done: summarize the changelog', path: '/root' });
    expect(agent.getSnapshot().output).toMatchObject({ status: 'completed' });
  });
});

describe("the README's embedding example", () => {
  it('runs exactly as written, delegation included, given only a model function and a tool', async () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('### Embedding the machine'));
    const block = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
    expect(block).toContain('delegatingAgent(');
    // The block as written; only the package name points at this checkout, and the two
    // harness functions it calls come from the test.
    const source = [
      'const { callMyModel, readProjectFile } = (globalThis as unknown as { readmeHarness: Record<string, never> }).readmeHarness;',
      block!.replaceAll("'subagent-actors/machine'", `'${join(root, 'machines/index.js')}'`).replaceAll("'subagent-actors'", `'${join(root, 'src/index.js')}'`),
      'export { root, result };',
    ].join('\n');
    const file = join(root, 'test', `.readme-embedding-${process.pid}.generated.ts`);
    const requests: string[] = [];
    const reads: string[] = [];
    // The root delegates to a reader, which reads the changelog and answers; the root then
    // answers with what its Agent call returned.
    const callMyModel = async (request: SampleInput): Promise<ModelResponse> => {
      requests.push(request.path);
      const last = request.dialogue.at(-1);
      const usage = ZERO_USAGE;
      if (request.path === '/root') {
        if (last?.kind === 'tool_result') return { text: `summary: ${last.content}`, toolCalls: [], usage };
        return { text: '', toolCalls: [{ id: 'call_agent', name: 'Agent', arguments: { task_name: 'reader', message: 'Read CHANGELOG.md and say what changed.' } }], usage };
      }
      if (last?.kind === 'tool_result') return { text: `it says: ${last.content}`, toolCalls: [], usage };
      return { text: '', toolCalls: [{ id: 'call_read', name: 'read_file', arguments: { path: 'CHANGELOG.md' } }], usage };
    };
    (globalThis as unknown as { readmeHarness: unknown }).readmeHarness = {
      callMyModel,
      readProjectFile: async (path: string) => (reads.push(path), `v2: faster forks (${path})`),
    };
    writeFileSync(file, source);
    try {
      const { root: actor, result } = (await import(/* @vite-ignore */ file)) as { root: AnyActorRef; result: AgentResult };
      expect(reads).toEqual(['CHANGELOG.md']);
      expect(requests).toEqual(['/root', '/root/reader', '/root/reader', '/root']);
      expect(result).toMatchObject({ status: 'completed', path: '/root' });
      // The reader's answer reached the root as its Agent call's result, once.
      const answer = (actor.getSnapshot().context as AgentContext).dialogue.effective().toArray().filter((e) => e.kind === 'tool_result' && e.callId === 'call_agent');
      expect(answer).toHaveLength(1);
      expect(answer[0]).toMatchObject({ isError: false });
      expect(JSON.parse(answer[0]!.kind === 'tool_result' ? answer[0]!.content : '{}')).toMatchObject({
        agent_id: '/root/reader',
        status: 'completed',
        result: 'it says: v2: faster forks (CHANGELOG.md)',
      });
      expect(result.text).toContain('it says: v2: faster forks (CHANGELOG.md)');
    } finally {
      rmSync(file, { force: true });
    }
  });
});
