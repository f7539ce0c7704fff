/**
 * The README's "Embedding the machine" example, run as a test: a harness that drives the agent
 * machine with its own model call and its own result handling, without createRuntime.
 */
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { ZERO_USAGE, type AgentResult } from '../src/index.js';
import { agentMachine, createAgentInput, type SampleInput, type SampleOutput } from '../machines/index.js';

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
