/**
 * Fan-out in one reply: the parent's model answers with N `Agent` calls at once (caller
 * delivery, so every call returns its subagent's result) and then finishes. The model has
 * zero latency, so only the runtime is timed. Figures are µs per subagent as the slope of
 * total time between sizes, against two baselines measured in the same run:
 * - the floor: detached bare XState actors that each invoke one promise and finish;
 * - the machine alone: detached agent-machine actors, each with a one-shot task and a stand-in
 *   model that answers at once, and no runtime (no registry, spawning, delivery, requests or
 *   journal). It is the least one subagent can cost with the agent machine as it is, so its
 *   ratio to the floor bounds what the runtime's can reach;
 * - the machine's own fan-out: the same reply driven through the machine's embedding API alone
 *   (`subagent.spawn` events, `toolStepLogic`, a stand-in model), each call answered with its
 *   subagent's last text when the subagent's actor completes. What the runtime adds is the
 *   reply's cost over this one.
 */
import { performance } from 'node:perf_hooks';
import { assign, createActor, fromPromise, setup, type AnyActorLogic, type AnyActorRef } from 'xstate';
import { agentMachine } from '../machines/agent.machine.js';
import { createAgentInput } from '../machines/agent.input.js';
import type { AgentContext, SampleInput, SampleOutput } from '../machines/agent.types.js';
import { subagentOf } from '../machines/subagents.js';
import { toolStepLogic } from '../machines/tool-step.js';
import type { ToolCall } from '../src/dialogue/entry.js';
import { scriptedModel } from '../src/model/scripted.js';
import { createRuntime } from '../src/runtime/runtime.js';
import { interleavedSamples, median, medianOverReps, slopeUs } from './measure.js';
import type { BenchFigures } from './run.js';

/** ms for one parent reply with `n` Agent calls, from prompt to the parent's finished turn. */
export async function replyFanoutMs(n: number): Promise<number> {
  const calls = Array.from({ length: n }, (_, i) => ({ name: 'Agent', arguments: { task_name: `w${i}`, message: 'work' } }));
  const model = scriptedModel({ '/root': { 0: [{ toolCalls: calls }, { text: 'done' }] }, '**': { 0: [{ text: 'ok' }] } });
  const rt = createRuntime({ model, limits: { maxChildren: n, maxTotal: n, maxDepth: 2 } });
  const t0 = performance.now();
  const turn = new Promise<void>((resolve) => rt.on('turn', (report) => report.path === '/root' && resolve()));
  rt.prompt('go');
  await turn;
  const ms = performance.now() - t0;
  if (rt.results.length !== n) throw new Error(`expected ${n} subagent results, got ${rt.results.length}`);
  rt.stop();
  return ms;
}

/** ms for `n` detached actors of `logic`, started at once, until every one has finished. */
async function detachedMs(logic: AnyActorLogic, inputs: readonly unknown[]): Promise<number> {
  const t0 = performance.now();
  await Promise.all(
    inputs.map((input) => {
      const actor = createActor(logic, { input });
      const done = new Promise<void>((resolve, reject) => actor.subscribe({ complete: () => resolve(), error: reject }));
      actor.start();
      return done;
    }),
  );
  return performance.now() - t0;
}

const floorMachine = setup({ actors: { sample: fromPromise(async () => 'ok') } }).createMachine({
  context: { text: '' },
  initial: 'running',
  states: {
    running: { invoke: { src: 'sample', onDone: { target: 'done', actions: assign({ text: ({ event }) => event.output }) } } },
    done: { type: 'final' },
  },
});

/** ms for `n` detached bare actors that each invoke one promise and finish, all at once. */
export function xstateFloorMs(n: number): Promise<number> {
  return detachedMs(floorMachine, Array.from({ length: n }));
}

const USAGE = Object.freeze({ inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 });
const reply = (text: string, toolCalls: readonly ToolCall[] = []): SampleOutput =>
  Object.freeze({ response: Object.freeze({ text, toolCalls: Object.freeze(toolCalls), usage: USAGE }), compaction: undefined });
const REPLY = reply('ok');

/** The agent machine with only a stand-in model: every other side effect is the machine's own no-op placeholder. */
const machineOnly = agentMachine.provide({ actors: { sampleModel: fromPromise<SampleOutput, SampleInput>(async () => REPLY) } });

/** ms for `n` detached agent-machine actors, each with a task its stand-in model answers at once. */
export function machineOnlyMs(n: number): Promise<number> {
  // Inputs are built before timing: the figure is the machine's, a lower bound.
  const inputs = Array.from({ length: n }, (_, i) => createAgentInput({ model: 'm', task: 'work', path: `/root/w${i}` }));
  return detachedMs(machineOnly, inputs);
}

/**
 * ms for one parent reply with `n` Agent calls through the agent machine alone: the root's
 * stand-in model asks for `n` subagents, its step sends one `subagent.spawn` per call and
 * answers the call when that subagent's actor completes; then the root answers and ends.
 */
export async function machineReplyMs(n: number): Promise<number> {
  const calls: ToolCall[] = Array.from({ length: n }, (_, i) => ({ id: `call_${i}`, name: 'Agent', arguments: { task_name: `w${i}`, message: 'work' } }));
  const first = reply('', calls);
  const last = reply('done');
  // The step sends its spawns to the root, which exists once the logic does.
  const held: { root?: AnyActorRef } = {};
  const logic = agentMachine.provide({
    actors: {
      sampleModel: fromPromise<SampleOutput, SampleInput>(async ({ input }) => (input.path !== '/root' ? REPLY : input.step === 0 ? first : last)),
      runToolCalls: toolStepLogic(({ call }) => {
        const args = call.arguments as { task_name: string; message: string };
        const path = `/root/${args.task_name}`;
        held.root!.send({ type: 'subagent.spawn', input: createAgentInput({ model: 'm', task: args.message, path }) });
        const child = subagentOf(held.root!, path)!;
        return new Promise((resolve) =>
          child.subscribe({ complete: () => resolve({ content: (child.getSnapshot() as { context: AgentContext }).context.lastText, isError: false }) }),
        );
      }),
    },
  });
  const t0 = performance.now();
  const root = createActor(logic, { input: createAgentInput({ model: 'm', task: 'go', path: '/root' }) });
  held.root = root;
  const done = new Promise<void>((resolve, reject) => root.subscribe({ complete: () => resolve(), error: reject }));
  root.start();
  await done;
  const ms = performance.now() - t0;
  if (root.getSnapshot().context.lastText !== 'done') throw new Error('machine fan-out: the root did not finish its turn');
  return ms;
}

const REPS = 11;

export default async function (): Promise<BenchFigures> {
  // Below 1,000 a sample averages several runs (50 at N = 1, 10 at N = 100).
  const workloads = { reply: replyFanoutMs, floor: xstateFloorMs, machine: machineOnlyMs, machineReply: machineReplyMs };
  const s = await interleavedSamples(workloads, [1, 100, 1000], REPS, (n) => (n >= 1000 ? 1 : n >= 100 ? 10 : 50), 4);
  // Per-subagent figures: slopes of the median totals. Ratios: the median over repetitions of
  // the ratio within each one, whose samples ran side by side.
  const slope = (key: keyof typeof workloads, n: number) => slopeUs((size) => median(s[key].get(size)!), n);
  const repSlope = (key: keyof typeof workloads, n: number, r: number) => slopeUs((size) => s[key].get(size)![r]!, n);
  const ratio = (a: keyof typeof workloads, b: keyof typeof workloads, nb = 1000) => medianOverReps(REPS, (r) => repSlope(a, 1000, r) / repSlope(b, nb, r));
  return [
    ['fanout.reply.us_per_subagent_100', slope('reply', 100)],
    ['fanout.reply.us_per_subagent_1000', slope('reply', 1000)],
    ['fanout.reply.linearity', ratio('reply', 'reply', 100)],
    ['fanout.xstate_floor.us_per_actor_1000', slope('floor', 1000)],
    ['fanout.reply.vs_xstate_floor.ratio', ratio('reply', 'floor')],
    ['fanout.machine_only.us_per_agent_1000', slope('machine', 1000)],
    ['fanout.machine_only.vs_xstate_floor.ratio', ratio('machine', 'floor')],
    ['fanout.machine_reply.us_per_subagent_1000', slope('machineReply', 1000)],
    ['fanout.machine_reply.vs_xstate_floor.ratio', ratio('machineReply', 'floor')],
    ['fanout.reply.vs_machine_reply.ratio', ratio('reply', 'machineReply')],
  ];
}
