/**
 * The crash campaign's scripted session: forks, a summary subagent, a continuable subagent, a
 * parent-delivery subagent with its own fork, a host cancel, a task hook, a repeatable host
 * tool. Every step that depends on another agent's progress waits on it (the model's reply is
 * gated on a result), so the session's final journal is the same however its work interleaves,
 * across any crash. The host driver reads its progress back from the runtime, so it can pick
 * up a resumed session where it stopped.
 */
import { z } from 'zod';
import { createRuntime, defineRuntimeTool, resumeRuntime, ZERO_USAGE } from '../../src/index.js';
import type { ModelAdapter, ModelRequest, ModelResponse, Runtime, RuntimeOptions, SampleContext, Summarizer, SessionStore } from '../../src/index.js';

interface Step {
  readonly text?: string;
  readonly calls?: ReadonlyArray<{ readonly name: string; readonly arguments: Record<string, unknown> }>;
  /** Path whose result the reply waits for. */
  readonly after?: string;
  /** Never answers (until aborted). */
  readonly hang?: boolean;
}

const agent = (task_name: string, message: string, context: string | number) => ({ name: 'Agent', arguments: { task_name, message, context } });

type Script = Readonly<Record<string, Readonly<Record<number, readonly Step[]>>>>;

/** Replies by agent path, turn and step; `/root/fork_a` looks `lookups` topics up, one per step. */
export function scenarioScript(lookups: number): Script {
  const steps: Step[] = [];
  for (let i = 0; i < lookups; i++) steps.push({ calls: [{ name: 'lookup', arguments: { q: `topic ${i}` } }] });
  return { ...SCRIPT, '/root/fork_a': { 0: [...steps, { text: 'The parser drops nested braces.' }] } };
}

const SCRIPT: Script = {
  '/root': {
    0: [
      { calls: [agent('fork_a', 'Check the parser.', 'all')] },
      { calls: [agent('sum_b', 'Review the changelog.', 'summary')] },
      { calls: [agent('cont_c', 'Keep an eye on CI.', 'none')] },
      { calls: [agent('slow', 'Run the whole benchmark suite.', 'none')] },
      { calls: [agent('bg_d', 'Draft the release notes.', 2)] },
      { text: 'Waiting for the release notes.', after: '/root/bg_d' },
      { text: 'The release notes are in.' },
    ],
    1: [{ text: 'CI watch closed; all done.' }],
  },
  '/root/fork_a': { 0: [{ calls: [{ name: 'lookup', arguments: { q: 'parser' } }] }, { text: 'The parser drops nested braces.' }] },
  '/root/sum_b': { 0: [{ text: 'The changelog misses two entries.' }] },
  '/root/cont_c': { 0: [{ text: 'CI is green.' }], 1: [{ text: 'Still green after the merge.' }] },
  '/root/slow': { 0: [{ hang: true }] },
  '/root/bg_d': { 0: [{ calls: [agent('inner', 'List who is working.', 'all')] }, { text: 'Release notes drafted.' }] },
  '/root/bg_d/inner': { 0: [{ calls: [{ name: 'list_agents', arguments: {} }] }, { text: 'Everyone is busy.' }] },
};

const USAGE = { ...ZERO_USAGE, inputTokens: 10, outputTokens: 3 };

/** The scripted model: replies from {@link SCRIPT}; gated steps wait for a result. */
export function scenarioModel(runtimeRef: { current: Runtime | undefined }, script: Script = SCRIPT): ModelAdapter & Summarizer {
  return {
    name: 'scenario',
    async sample(_request: ModelRequest, context: SampleContext): Promise<ModelResponse> {
      const step = script[context.agentPath]?.[context.turn]?.[context.step];
      if (!step) return { text: `(unscripted ${context.agentPath} ${context.turn}/${context.step})`, toolCalls: [], usage: USAGE };
      if (step.hang) {
        await new Promise<never>((_, reject) => context.signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true }));
      }
      // Let the event loop turn, as a real provider would (and so journal writes interleave).
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (step.after) await runtimeRef.current!.result(step.after);
      const toolCalls = (step.calls ?? []).map((c, i) => ({ id: `call_${context.agentPath.replaceAll('/', '_')}_${context.turn}_${context.step}_${i}`, name: c.name, arguments: c.arguments as never }));
      return { text: step.text ?? '', toolCalls, usage: USAGE };
    },
    async summarize(input) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      return { text: `Background for ${input.agentPath}: ${input.entries.length} entries.`, usage: { ...ZERO_USAGE, inputTokens: 7 } };
    },
  };
}

/** The runtime options of the scenario (the model aside). */
export function scenarioOptions(model: ModelAdapter & Summarizer, store: SessionStore): RuntimeOptions {
  return {
    model,
    store,
    now: () => 0,
    sessionId: store.sessionId,
    // fork_a's lookups are one step each: more than the default step cap. The scenario's
    // forks (fork_a, bg_d, inner) answer once: one-shot, not the forks' continuable default.
    defaults: { maxSteps: 500, lifetime: 'one-shot' },
    tools: [
      defineRuntimeTool({
        name: 'lookup',
        description: 'Looks a topic up in the project notes.',
        schema: z.object({ q: z.string() }),
        execute: ({ q }) => `notes on ${q}: nested braces are dropped`,
      }),
    ],
    idempotentTools: ['lookup'],
    taskHooks: [(input) => ({ allow: true, task: `${input.task} (vetted)` })],
    spawnPolicy: ({ taskName }) =>
      taskName === 'cont_c' ? { lifetime: 'continuable' } : taskName === 'bg_d' ? { delivery: 'parent' } : undefined,
  };
}

function hasPersonEntry(runtime: Runtime, path: string): boolean {
  const dialogue = runtime.transcript(path);
  if (!dialogue) return false;
  for (const entry of dialogue.log) if (entry.kind === 'user' && entry.origin.kind === 'person') return true;
  return false;
}

/** The host's part: prompt, cancel the slow subagent, follow up with and close the continuable one. */
export async function drive(runtime: Runtime): Promise<void> {
  const cancelSlow = (): void => {
    if (runtime.stateOf('/root/slow') !== undefined) runtime.cancel('/root/slow', 'too slow');
  };
  runtime.on('change', ({ path }) => {
    if (path === '/root/slow') cancelSlow();
  });
  cancelSlow();
  if (!hasPersonEntry(runtime, '/root')) void runtime.prompt('Prepare the release.');
  await runtime.whenQuiet();
  if (runtime.stateOf('/root/cont_c') !== undefined && !hasPersonEntry(runtime, '/root/cont_c')) {
    void runtime.prompt('Is it still green?', { to: '/root/cont_c' });
    await runtime.whenQuiet();
  }
  if (runtime.stateOf('/root/cont_c') !== undefined) {
    runtime.close('/root/cont_c');
    await runtime.whenQuiet();
  }
}

/** Runs the scenario on `store`: a new session, or the resumption of the one it holds. */
export async function runScenario(store: SessionStore, mode: 'fresh' | 'resume', lookups = 1): Promise<Runtime> {
  const ref: { current: Runtime | undefined } = { current: undefined };
  const options = scenarioOptions(scenarioModel(ref, scenarioScript(lookups)), store);
  const runtime = mode === 'fresh' ? createRuntime(options) : resumeRuntime({ ...options, store });
  ref.current = runtime;
  await drive(runtime);
  return runtime;
}
