/**
 * One table of coordination scenarios, run against both hosts of the protocol, `createRuntime`
 * and `delegatingAgent`: every tool result the models read (and how each agent ended) must be
 * the same bytes in both. Each scenario is a model written once, per agent path and request
 * number; the hosts differ only in how the root is started.
 */
import { describe, expect, it } from 'vitest';
import { createActor, toPromise, type AnyActorRef } from 'xstate';
import { delegatingAgent, type ModelFunction } from '../../machines/index.js';
import { configureReports, reportPresenter, type ResultMetadataField } from '../../machines/subagent-reports.js';
import type { AgentContext, TurnReport } from '../../machines/agent.types.js';
import type { Entry, JsonValue, ToolCall } from '../../src/dialogue/entry.js';
import type { DialogueView } from '../../src/dialogue/types.js';
import type { ModelResponse } from '../../src/request/reply.js';
import { ZERO_USAGE } from '../../src/request/usage.js';
import { createRuntime } from '../../src/runtime/runtime.js';
import type { ModelAdapter } from '../../src/model/adapter.js';
import type { Summarizer } from '../../src/model/summarizer.js';

/** What a scenario's model sees of one request. */
interface Ask {
  readonly path: string;
  /** Zero-based number of this agent's request. */
  readonly n: number;
  /** The content of the request's last entry when it is a tool result. */
  readonly lastResult: string | undefined;
}

type Reply = ModelResponse | 'fail' | 'hang';

interface Scenario {
  readonly name: string;
  /** How the root runs: a one-shot root with a task, or an open root the host prompts (createRuntime's root). */
  readonly root: 'one-shot' | 'open';
  readonly reply: (ask: Ask) => Reply;
  /** Whether summaries are held (the subagent stays in preparingSummary). */
  readonly holdSummary?: boolean;
  /** A one-shot subagent spawned by the host stands in for createRuntime's one-shot root (it has none). */
  readonly hostSpawn?: boolean;
}

const reply = (text: string, toolCalls: ToolCall[] = []): ModelResponse => ({ text, toolCalls, usage: ZERO_USAGE });
const call = (id: string, name: string, args: { readonly [key: string]: JsonValue } = {}): ToolCall => ({ id, name, arguments: args });
const agent = (id: string, args: { readonly [key: string]: JsonValue }): ToolCall => call(id, 'Agent', args);

/** What one run of a scenario produced, host-neutrally. */
interface Observed {
  /** Every tool result any model read: `path callId isError content`, in the order first seen. */
  readonly answers: string[];
  /** How the agent under test ended its turn or its life: status, stop reason, error. */
  readonly ending: string | undefined;
}

function observer() {
  const answers: string[] = [];
  const seen = new Set<string>();
  const counts = new Map<string, number>();
  return {
    answers,
    /** Records the tool results of a request and numbers it. */
    ask(path: string, entries: readonly Entry[]): Ask {
      for (const e of entries) {
        if (e.kind !== 'tool_result') continue;
        const key = `${path} ${e.callId}`;
        if (seen.has(key)) continue;
        seen.add(key);
        answers.push(`${key} ${e.isError} ${e.content}`);
      }
      const n = counts.get(path) ?? 0;
      counts.set(path, n + 1);
      const last = entries.at(-1);
      return { path, n, lastResult: last?.kind === 'tool_result' ? last.content : undefined };
    },
  };
}

/** Turns a scenario reply into what a model function returns. */
async function answer(r: Reply, signal: AbortSignal): Promise<ModelResponse> {
  if (r === 'fail') throw new Error('the provider is down');
  if (r === 'hang') return new Promise<ModelResponse>((_, reject) => signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true }));
  return r;
}

function held(hold: boolean | undefined): { wait: () => Promise<void>; open: () => void } {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  return { wait: () => (hold ? gate : Promise.resolve()), open };
}

const ending = (e: { status: string; stopReason: string; error?: string | undefined }): string => JSON.stringify([e.status, e.stopReason, e.error ?? null]);

/**
 * The result metadata both hosts agree on byte for byte, session ids included (both derive
 * them from the tree id and the spawn count). Elapsed times are each host's own clock's, so
 * the table leaves them out.
 */
const SHARED_METADATA: readonly ResultMetadataField[] = ['agent_id', 'role', 'context', 'status', 'stop_reason', 'session_id', 'error'];

/** The tree id both hosts run each scenario under. */
const TREE_ID = 'session_scenario';

async function onDelegatingAgent(s: Scenario): Promise<Observed> {
  const seen = observer();
  const summaries = held(s.holdSummary);
  const model: ModelFunction = (request, signal) => answer(s.reply(seen.ask(request.path, request.dialogue.effective().toArray())), signal);
  const agents = delegatingAgent({
    model,
    summarize: async () => {
      await summaries.wait();
      return { text: 'background', usage: ZERO_USAGE };
    },
  });
  const turns: TurnReport[] = [];
  const logic = agents.logic.provide({ actions: { reportTurn: (_, { report }) => void turns.push(report) } });
  const path = s.hostSpawn ? '/root/w' : '/root';
  if (s.root === 'one-shot') {
    const root = createActor(logic, { input: agents.input({ task: 'Coordinate the work', model: 'm', path, sessionId: TREE_ID }) });
    configureReports(root, { presenter: reportPresenter(SHARED_METADATA) });
    root.start();
    const done = toPromise(root);
    if (s.holdSummary) await settledOnce(root, () => answeredCalls((root.getSnapshot().context as AgentContext).dialogue) >= 2);
    summaries.open();
    const result = await done;
    return { answers: seen.answers, ending: ending(result) };
  }
  const root = createActor(logic, { input: agents.input({ model: 'm', sessionId: TREE_ID }) });
  configureReports(root, { presenter: reportPresenter(SHARED_METADATA) });
  root.start();
  root.send({ type: 'inbox', item: { text: 'Coordinate the work', origin: { kind: 'person' } } });
  await settledOnce(root, () => turns.length > 0);
  summaries.open();
  root.stop();
  return { answers: seen.answers, ending: ending(turns[0]!) };
}

async function onCreateRuntime(s: Scenario): Promise<Observed> {
  const seen = observer();
  const summaries = held(s.holdSummary);
  const model: ModelAdapter = {
    name: 'scenario',
    sample: (request, context) => answer(s.reply(seen.ask(context.agentPath, request.messages.toArray())), context.signal),
  };
  const summarizer: Summarizer = {
    summarize: async () => {
      await summaries.wait();
      return { text: 'background', usage: ZERO_USAGE };
    },
  };
  const inspected = new Set<() => void>();
  const rt = createRuntime({ model, modelId: 'm', sessionId: TREE_ID, summarizer, retry: { maxRetries: 0 }, resultMetadata: SHARED_METADATA, inspect: () => inspected.forEach((f) => f()) });
  try {
    if (s.hostSpawn) {
      const handle = await rt.spawn('/root', { task_name: 'w', message: 'Coordinate the work' }, { lifetime: 'one-shot' });
      const result = await handle.result;
      return { answers: seen.answers, ending: ending(result) };
    }
    const outcome = rt.prompt('Coordinate the work');
    if (s.holdSummary) await until(inspected, () => answeredCalls(rt.transcript('/root')) >= 2);
    summaries.open();
    const turn = await outcome;
    await rt.whenQuiet();
    // The root's turn ends as the one-shot root does (or as the open root's turn does).
    return { answers: seen.answers, ending: ending(turn) };
  } finally {
    rt.stop();
  }
}

/** Resolves once `holds()` is true, checked after every snapshot of the tree's root. */
function settledOnce(root: AnyActorRef, holds: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    if (holds()) return resolve();
    const sub = root.system.inspect({
      next: () => {
        if (!holds()) return;
        sub.unsubscribe();
        resolve();
      },
    });
  });
}

/** Resolves once `holds()` is true, checked on every inspection event of the runtime. */
function until(inspected: Set<() => void>, holds: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    const check = (): void => {
      if (!holds()) return;
      inspected.delete(check);
      resolve();
    };
    inspected.add(check);
    check();
  });
}

/**
 * How many calls have their result: those written in the log, and those that finished but wait
 * for an earlier call of their step (results are written in call order).
 */
const answeredCalls = (dialogue: DialogueView | undefined): number =>
  dialogue === undefined
    ? 0
    : dialogue.log.toArray().filter((e) => e.kind === 'tool_result').length + dialogue.pendingCalls().filter((c) => !dialogue.isPendingCall(c.id)).length;

/** A root's n-th request: the scripted reply, else its final answer. */
const rootSays = (ask: Ask, steps: readonly ModelResponse[]): ModelResponse => steps[ask.n] ?? reply(`root done after ${ask.n} requests`);

const SCENARIOS: readonly Scenario[] = [
  ...(['none', 'all', 2, 'summary'] as const).map(
    (context): Scenario => ({
      name: `spawn with context ${String(context)}`,
      root: 'one-shot',
      reply: (ask) => (ask.path === '/root' ? rootSays(ask, [reply('', [agent('c1', { task_name: 'w', message: 'Do the work', context })])]) : reply(`w answered (${String(context)})`)),
    }),
  ),
  {
    name: 'a message to a subagent still preparing its summary, and list_agents meanwhile',
    root: 'one-shot',
    holdSummary: true,
    reply: (ask) =>
      ask.path === '/root'
        ? rootSays(ask, [reply('', [agent('c1', { task_name: 'sum', message: 'Write the fix', context: 'summary' }), call('m1', 'send_message', { agent_id: '/root/sum', message: 'Also the tests' }), call('l1', 'list_agents')])])
        : reply('sum answered'),
  },
  {
    name: 'a message to an unknown agent and to one that is not a path',
    root: 'one-shot',
    reply: (ask) =>
      ask.path === '/root'
        ? rootSays(ask, [reply('', [call('m1', 'send_message', { agent_id: '/root/nobody', message: 'Hello?' }), call('m2', 'send_message', { agent_id: 'nobody', message: 'Hello?' }), call('m3', 'send_message', { agent_id: '/root', message: 'Me' })])])
        : reply('unused'),
  },
  {
    name: 'a message outside the sender’s scope (its grandparent)',
    root: 'one-shot',
    reply: (ask) => {
      if (ask.path === '/root') return rootSays(ask, [reply('', [agent('c1', { task_name: 'a', message: 'Delegate further' })])]);
      if (ask.path === '/root/a') return ask.n === 0 ? reply('', [agent('c2', { task_name: 'b', message: 'Tell the root' })]) : reply(`a heard: ${ask.lastResult ?? ''}`);
      return ask.n === 0 ? reply('', [call('m1', 'send_message', { agent_id: '/root', message: 'Skipping a' })]) : reply('b done');
    },
  },
  {
    name: 'list, close a continuable fork, cancel a subtree of forks',
    root: 'one-shot',
    reply: (ask) => {
      if (ask.path === '/root') {
        return rootSays(ask, [
          reply('', [agent('c1', { task_name: 'mid', message: 'Look deeper', context: 'all' }), agent('c2', { task_name: 'side', message: 'Look aside', context: 'all' })]),
          reply('', [call('l1', 'list_agents'), call('x1', 'close_agent', { agent_id: '/root/side' }), call('x2', 'cancel_agent', { agent_id: '/root/mid' }), call('x3', 'close_agent', { agent_id: '/root/ghost' }), call('x4', 'cancel_agent', { agent_id: '/root' })]),
        ]);
      }
      if (ask.path === '/root/mid') return ask.n === 0 ? reply('', [agent('c3', { task_name: 'leaf', message: 'Look deepest', context: 'all' })]) : reply('mid answered');
      return reply(`${ask.path} answered`);
    },
  },
  {
    name: 'messages, closes and cancels aimed at subagents that finished, were cancelled or were closed',
    root: 'one-shot',
    reply: (ask) => {
      if (ask.path === '/root') {
        return rootSays(ask, [
          reply('', [agent('c1', { task_name: 'done', message: 'Finish at once' }), agent('c2', { task_name: 'fork', message: 'Stay around', context: 'all' }), agent('c3', { task_name: 'slow', message: 'Never ends' }), call('x1', 'cancel_agent', { agent_id: '/root/slow' })]),
          reply('', [call('m1', 'send_message', { agent_id: '/root/done', message: 'More?' }), call('x2', 'cancel_agent', { agent_id: '/root/done' }), call('x3', 'close_agent', { agent_id: '/root/done' }), call('m2', 'send_message', { agent_id: '/root/slow', message: 'Still there?' }), call('x4', 'close_agent', { agent_id: '/root/fork' })]),
          reply('', [call('m3', 'send_message', { agent_id: '/root/fork', message: 'One more thing' }), call('x5', 'cancel_agent', { agent_id: '/root/fork' }), call('l1', 'list_agents'), call('m4', 'send_message', { agent_id: '/root/done', message: '   ' })]),
        ]);
      }
      if (ask.path === '/root/slow') return 'hang';
      return reply(`${ask.path} answered`);
    },
  },
  {
    name: 'a grandchild lists the tree and messages its parent, and a subagent cancels and closes outside its subtree',
    root: 'one-shot',
    reply: (ask) => {
      if (ask.path === '/root') return rootSays(ask, [reply('', [agent('c1', { task_name: 'a', message: 'Delegate further', context: 'all' }), agent('c2', { task_name: 'side', message: 'Wait aside', context: 'all' })])]);
      if (ask.path === '/root/a') {
        if (ask.n === 0) return reply('', [agent('c3', { task_name: 'b', message: 'Look around', context: 'all' })]);
        if (ask.n === 1) return reply('', [call('x1', 'cancel_agent', { agent_id: '/root/side' }), call('x2', 'close_agent', { agent_id: '/root/a' }), call('x3', 'cancel_agent', { agent_id: '/root/ab' })]);
        return reply(`a heard: ${ask.lastResult ?? ''}`);
      }
      if (ask.path === '/root/a/b') return ask.n === 0 ? reply('', [call('l1', 'list_agents'), call('m1', 'send_message', { agent_id: '/root/a', message: 'Found it' })]) : reply('b done');
      return reply(`${ask.path} answered`);
    },
  },
  {
    name: 'a name a running sibling holds, and a context that does not parse',
    root: 'one-shot',
    reply: (ask) =>
      ask.path === '/root'
        ? rootSays(ask, [reply('', [agent('c1', { task_name: 'w', message: 'Work' }), agent('c2', { task_name: 'w', message: 'Again' }), agent('c3', { task_name: 'x', message: 'Odd', context: 'yesterday' })])])
        : reply('w answered'),
  },
  {
    name: 'a model error in a subagent',
    root: 'one-shot',
    reply: (ask) => (ask.path === '/root' ? rootSays(ask, [reply('', [agent('c1', { task_name: 'w', message: 'Work' })])]) : 'fail'),
  },
  { name: 'a model error in a one-shot root', root: 'one-shot', hostSpawn: true, reply: () => 'fail' },
  { name: 'a model error in a host-run root', root: 'open', reply: () => 'fail' },
];

describe('the coordination protocol answers the same in every host', () => {
  it.each(SCENARIOS.map((s) => [s.name, s] as const))('%s', async (_name, scenario) => {
    const viaMachine = await onDelegatingAgent(scenario);
    const viaRuntime = await onCreateRuntime(scenario);
    expect(viaRuntime).toEqual(viaMachine);
    // What both answered, pinned: a change of wording shows here once, for both hosts.
    expect(viaMachine).toMatchSnapshot();
  });
});
