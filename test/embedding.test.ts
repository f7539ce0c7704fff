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
import { agentMachine, createAgentInput, type SampleInput, type SampleOutput } from '../machines/index.js';

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
  it('runs exactly as written, given only a model function and a place to deliver results', async () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('### Embedding the machine'));
    const block = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
    expect(block).toContain('agentMachine.provide');
    // The block as written; only the package name points at this checkout, and the two
    // harness functions it calls come from the test.
    const source = [
      'const { callMyModel, myHarness } = (globalThis as unknown as { readmeHarness: Record<string, never> }).readmeHarness;',
      block!.replaceAll("'subagent-actors/machine'", `'${join(root, 'machines/index.js')}'`),
      'export { agent };',
    ].join('\n');
    const file = join(root, 'test', `.readme-embedding-${process.pid}.generated.ts`);
    const results: AgentResult[] = [];
    (globalThis as unknown as { readmeHarness: unknown }).readmeHarness = {
      callMyModel: async (input: SampleInput): Promise<SampleOutput> => {
        const task = input.dialogue.at(-1);
        return { response: { text: `done: ${task?.kind === 'user' ? task.text : ''}`, toolCalls: [], usage: ZERO_USAGE }, compaction: undefined };
      },
      myHarness: { deliver: (result: AgentResult) => void results.push(result) },
    };
    writeFileSync(file, source);
    try {
      const { agent } = (await import(/* @vite-ignore */ file)) as { agent: AnyActorRef };
      if (agent.getSnapshot().status === 'active') await new Promise<void>((resolve) => agent.subscribe({ complete: () => resolve() }));
      expect(results).toHaveLength(1);
      expect(results[0]).toMatchObject({ status: 'completed', text: 'done: summarize the changelog' });
    } finally {
      rmSync(file, { force: true });
    }
  });
});
