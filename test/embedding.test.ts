/**
 * The README's "Embedding the machine" example, run as a test: a harness that drives the agent
 * machine with its own model call and its own result handling, without createRuntime.
 */
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { ZERO_USAGE, type AgentResult } from '../src/index.js';
import { agentMachine, type AgentInput, type SampleInput, type SampleOutput } from '../machines/index.js';

describe('embedding the machine', () => {
  it('runs one agent with harness-provided actors and reports its result once', async () => {
    const results: AgentResult[] = [];
    const logic = agentMachine.provide({
      actors: {
        // Your own model call: here a canned reply that echoes the task.
        sampleModel: fromPromise<SampleOutput, SampleInput>(async ({ input }) => {
          const task = input.dialogue.at(-1);
          const text = task?.kind === 'user' ? `done: ${task.text}` : 'done';
          return { response: { text, toolCalls: [], usage: ZERO_USAGE }, compaction: undefined };
        }),
      },
      actions: {
        releaseAndReport: (_, { result }) => void results.push(result),
      },
    });
    const input: AgentInput = {
      path: '/root/worker',
      parentPath: '/root',
      sessionId: 'my-session',
      treeId: 'my-tree',
      role: undefined,
      task: 'summarize the changelog',
      snapshot: undefined,
      contextLabel: 'none',
      contextMode: 'none',
      framing: undefined,
      system: { preset: 'mine', systemPrompt: 'You are a worker.', tools: [] },
      model: 'my-model',
      effort: undefined,
      lifetime: 'one-shot',
      delivery: 'caller',
      maxSteps: 8,
      prefix: { shared: true, reasons: [] },
      hasTaskHooks: false,
      startedAt: Date.now(),
    };
    const actor = createActor(logic, { input }).start();
    await new Promise<void>((resolve) => actor.subscribe({ complete: () => resolve() }));
    expect(actor.getSnapshot().value).toBe('settled');
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ status: 'completed', text: 'done: summarize the changelog', path: '/root/worker' });
    expect(actor.getSnapshot().output).toMatchObject({ status: 'completed' });
  });
});
