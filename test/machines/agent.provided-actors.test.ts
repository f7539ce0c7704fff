/**
 * Every actor a harness provides may fail, synchronously or by rejecting: the agent still ends
 * with exactly one result (through `releaseAndReport` and as its output), never with a silent
 * actor error.
 */
import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, fromPromise } from 'xstate';
import { agentMachine, createAgentInput, toolStepLogic, type AgentInput, type SampleInput, type SampleOutput } from '../../machines/index.js';
import type { AgentResult } from '../../machines/agent.types.js';
import { ZERO_USAGE } from '../../src/model/adapter.js';

const callTool: SampleOutput = { response: { text: '', toolCalls: [{ id: 'c1', name: 'lookup', arguments: {} }], usage: ZERO_USAGE }, compaction: undefined };
const boom = (): never => {
  throw new Error('the provided actor broke');
};

type Case = { name: string; input: AgentInput; actors: Record<string, unknown>; expected: [AgentResult['status'], AgentResult['stopReason']] };

const task = (extra: Partial<AgentInput> = {}): AgentInput => ({ ...createAgentInput({ model: 'm', task: 'work', path: '/root/w' }), ...extra });
const cases: Case[] = [
  { name: 'runTaskHooks', input: task({ hasTaskHooks: true }), actors: { runTaskHooks: fromPromise(async () => boom()) }, expected: ['cancelled', 'hook_failed'] },
  { name: 'generateSummary', input: task({ contextMode: 'summary' }), actors: { generateSummary: fromPromise(async () => boom()) }, expected: ['cancelled', 'summary_failed'] },
  { name: 'sampleModel', input: task(), actors: { sampleModel: fromPromise<SampleOutput, SampleInput>(async () => boom()) }, expected: ['failed', 'model_error'] },
  {
    name: 'runToolCalls (throws while starting)',
    input: task(),
    actors: { sampleModel: fromPromise(async () => callTool), runToolCalls: fromCallback(() => boom()) },
    expected: ['failed', 'internal_error'],
  },
  {
    name: 'runToolCalls (a call that throws is an error result, the agent goes on)',
    input: task(),
    actors: {
      sampleModel: fromPromise<SampleOutput, SampleInput>(async ({ input }) => (input.step === 0 ? callTool : { response: { text: 'recovered', toolCalls: [], usage: ZERO_USAGE }, compaction: undefined })),
      runToolCalls: toolStepLogic(() => boom()),
    },
    expected: ['completed', 'completed'],
  },
];

describe('a provided actor that fails', () => {
  for (const c of cases) {
    it(`${c.name}: one result, no actor error`, async () => {
      const results: AgentResult[] = [];
      const logic = agentMachine.provide({ actors: c.actors as never, actions: { releaseAndReport: (_, { result }) => void results.push(result) } });
      const agent = createActor(logic, { input: c.input });
      const errors: unknown[] = [];
      const done = new Promise<void>((resolve) => agent.subscribe({ complete: () => resolve(), error: (e) => (errors.push(e), resolve()) }));
      agent.start();
      await done;
      expect(errors).toEqual([]);
      expect(agent.getSnapshot().status).toBe('done');
      expect(results.map((r) => [r.status, r.stopReason])).toEqual([c.expected]);
      expect(agent.getSnapshot().output).toMatchObject({ status: c.expected[0], stopReason: c.expected[1], path: '/root/w' });
    });
  }
});
