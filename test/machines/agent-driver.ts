/**
 * Drives one agent machine by hand for behaviour tests: every side-effecting actor is a
 * stand-in the test settles, and the runtime hooks record what the agent reports (turns,
 * its one result). Tests read what a host would see: reports, the machine's output, the
 * inputs of the requests, hooks and summaries it started, and the dialogue it would send.
 */
import { createActor } from 'xstate';
import { agentMachine } from '../../machines/agent.machine.js';
import type { AgentContext, AgentEvent, AgentInput, AgentResult, TaskHookInput, SampleInput, SampleOutput, SummaryActorInput, TaskHookDecision, TurnReport } from '../../machines/agent.types.js';
import type { Entry } from '../../src/dialogue/entry.js';
import { replyOutput, type ReplyTemplate } from '../../src/testing/agent-events.js';
import { agentStateKey } from '../../src/testing/agent-state.js';
import { afterMicrotasks } from '../../src/testing/deferred.js';
import { StandIns } from '../../src/testing/stand-ins.js';
import { ZERO_USAGE } from '../../src/request/usage.js';

/** The agent machine's side-effecting actors as stand-ins the test settles. */
export function standInActors(standIns: StandIns): NonNullable<Parameters<typeof agentMachine.provide>[0]['actors']> {
  return {
    runTaskHooks: standIns.promise('runTaskHooks'),
    generateSummary: standIns.promise('generateSummary'),
    sampleModel: standIns.promise('sampleModel'),
    runToolCalls: standIns.callback('runToolCalls'),
  } as never;
}

/** A started agent on stand-ins. */
export function driveAgent(input: AgentInput, overrides: Parameters<typeof agentMachine.provide>[0] = {}) {
  const standIns = new StandIns();
  const turns: TurnReport[] = [];
  const results: AgentResult[] = [];
  let published = 0;
  const logic = agentMachine
    .provide({
      actors: standInActors(standIns),
      actions: {
        publishInDirectory: () => void published++,
        reportTurn: (_, { report }) => void turns.push(report),
        releaseAndReport: (_, { result }) => void results.push(result),
      },
    })
    .provide(overrides);
  const actor = createActor(logic, { input }).start();
  const context = () => actor.getSnapshot().context as AgentContext;

  const settle = async (id: string, how: (i: NonNullable<ReturnType<StandIns['pending']>>) => void): Promise<void> => {
    const pending = standIns.pending(id);
    if (!pending) throw new Error(`no pending "${id}" actor in ${agentStateKey(actor.getSnapshot())}`);
    how(pending);
    await afterMicrotasks();
  };

  return {
    actor,
    standIns,
    turns,
    results,
    published: () => published,
    context,
    key: () => agentStateKey(actor.getSnapshot()),
    /** The dialogue's entries. */
    entries: (): readonly Entry[] => context().dialogue.log.toArray(),
    /** Inputs of every model request, oldest first. */
    requests: (): SampleInput[] => standIns.invocations.filter((i) => i.src === 'sampleModel').map((i) => i.input as SampleInput),
    hookInputs: (): TaskHookInput[] => standIns.invocations.filter((i) => i.src === 'runTaskHooks').map((i) => i.input as TaskHookInput),
    summaryInputs: (): SummaryActorInput[] => standIns.invocations.filter((i) => i.src === 'generateSummary').map((i) => i.input as SummaryActorInput),
    send: (event: AgentEvent) => actor.send(event),
    /** Answers the pending model request with a reply template (call ids as the path tests make them) or an output. */
    reply: (reply: ReplyTemplate | SampleOutput) =>
      settle('model', (i) => i.result.resolve('response' in reply ? reply : replyOutput(reply, context()))),
    failModel: (error: unknown) => settle('model', (i) => i.result.reject(error)),
    hooks: (decision: TaskHookDecision) => settle('hooks', (i) => i.result.resolve(decision)),
    failHooks: (error: unknown) => settle('hooks', (i) => i.result.reject(error)),
    summary: (text: string, usage = ZERO_USAGE) => settle('summary', (i) => i.result.resolve({ text, usage })),
    failSummary: (error: unknown) => settle('summary', (i) => i.result.reject(error)),
    /** Answers every call of the running tool step, in order. */
    answerTools: async (content = (id: string) => `result of ${id}`) => {
      const step = standIns.children.findLast((c) => c.src === 'runToolCalls' && !c.stopped);
      if (!step) throw new Error('no running tool step');
      for (const call of (step.input as { calls: { id: string; name: string }[] }).calls) {
        step.sendBack({ type: 'tool.result', callId: call.id, toolName: call.name, content: content(call.id), isError: false } as never);
      }
      await afterMicrotasks();
    },
    failToolStep: async (error: unknown) => {
      const step = standIns.children.findLast((c) => c.src === 'runToolCalls' && !c.stopped);
      if (!step) throw new Error('no running tool step');
      step.fail(error);
      await afterMicrotasks();
    },
  };
}

export type DrivenAgent = ReturnType<typeof driveAgent>;
