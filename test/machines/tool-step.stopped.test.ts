/**
 * A tool step (toolStepLogic) tells each call which agent runs it, and once it is stopped it
 * sends nothing back: calls that finish after an interrupt never reach the agent, even as
 * events it would ignore.
 */
import { describe, expect, it } from 'vitest';
import { createActor, type InspectionEvent } from 'xstate';
import { agentMachine } from '../../machines/agent.machine.js';
import { createAgentInput } from '../../machines/agent.input.js';
import type { ToolInput, ToolOutcome } from '../../machines/agent.types.js';
import { toolStepLogic, type ToolStepScope } from '../../machines/tool-step.js';
import { replyOutput } from '../../src/testing/agent-events.js';
import { afterMicrotasks, deferred, type Deferred } from '../../src/testing/deferred.js';
import { StandIns } from '../../src/testing/stand-ins.js';

describe('a stopped tool step', () => {
  it('sends no result of a call that finishes after the step was stopped', async () => {
    const calls: Array<{ input: ToolInput; done: Deferred<ToolOutcome> }> = [];
    const standIns = new StandIns();
    const logic = agentMachine.provide({
      actors: {
        sampleModel: standIns.promise('sampleModel'),
        runToolCalls: toolStepLogic((input) => {
          const done = deferred<ToolOutcome>();
          calls.push({ input, done });
          return done.promise;
        }),
      } as never,
    });
    const received: string[] = [];
    const inspect = (e: InspectionEvent) => {
      if (e.type === '@xstate.event' && e.event.type === 'tool.result' && e.actorRef === agent) received.push(String((e.event as { callId?: unknown }).callId));
    };
    const agent = createActor(logic, { input: createAgentInput({ model: 'm', task: 't', path: '/root/w', lifetime: 'continuable' }), inspect }).start();
    standIns.pending('model')!.result.resolve(replyOutput({ toolCalls: [{ name: 'a' }, { name: 'b' }] }, { turnsCompleted: 0, step: 0 }));
    await afterMicrotasks();
    expect(calls.map((c) => [c.input.path, c.input.call.name])).toEqual([
      ['/root/w', 'a'],
      ['/root/w', 'b'],
    ]);
    calls[0]!.done.resolve({ content: 'a in time', isError: false });
    await afterMicrotasks();
    expect(received).toEqual([calls[0]!.input.call.id]);

    agent.send({ type: 'interrupt', reason: 'stop' });
    calls[1]!.done.resolve({ content: 'b too late', isError: false });
    await afterMicrotasks();
    expect(received).toEqual([calls[0]!.input.call.id]);
    agent.stop();
  });

  it("owns its calls' order and one stop list: each registered function runs once when it stops, one unregistered or registered late as it says", async () => {
    const seen: Array<{ input: ToolInput; step: ToolStepScope }> = [];
    const standIns = new StandIns();
    const logic = agentMachine.provide({
      actors: {
        sampleModel: standIns.promise('sampleModel'),
        runToolCalls: toolStepLogic((input, _signal, step) => {
          seen.push({ input, step });
          return new Promise<ToolOutcome>(() => {});
        }),
      } as never,
    });
    const agent = createActor(logic, { input: createAgentInput({ model: 'm', task: 't', path: '/root/w', lifetime: 'continuable' }) }).start();
    standIns.pending('model')!.result.resolve(replyOutput({ toolCalls: [{ name: 'a' }, { name: 'b' }, { name: 'c' }] }, { turnsCompleted: 0, step: 0 }));
    await afterMicrotasks();
    const step = seen[0]!.step;
    // One scope per step, and it knows which call came first.
    expect(seen.map((s) => s.step === step)).toEqual([true, true, true]);
    expect(seen.map((s) => step.calls.indexOf(s.input.call))).toEqual([0, 1, 2]);
    const stopped: string[] = [];
    step.onStop(() => stopped.push('a'));
    const forget = step.onStop(() => stopped.push('b'));
    step.onStop(() => stopped.push('c'));
    forget();
    expect(stopped).toEqual([]);
    agent.send({ type: 'interrupt', reason: 'stop' });
    expect(stopped).toEqual(['a', 'c']);
    step.onStop(() => stopped.push('late'));
    expect(stopped).toEqual(['a', 'c', 'late']);
    agent.stop();
    expect(stopped).toEqual(['a', 'c', 'late']);
  });
});
