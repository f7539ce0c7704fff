/**
 * `restoreAgent`: an agent image comes back in its phase, in whatever machine the host runs,
 * with the work that phase had pending, and an image that cannot come back is refused.
 */
import { createActor, createMachine, fromCallback, setup, type EventObject } from 'xstate';
import { describe, expect, it } from 'vitest';
import { AGENT_IMAGE_VERSION, agentPhaseOf, PHASE_COMEBACK, restoreAgent, RestoreError, type AgentImage } from '../../machines/agent.image.js';
import { agentMachine } from '../../machines/agent.machine.js';
import { AGENT_PHASES } from '../../machines/agent.meta.js';
import { createAgentInput } from '../../machines/agent.input.js';
import type { AgentContext, AgentEvent, TurnReport } from '../../machines/agent.types.js';
import { Dialogue } from '../../src/dialogue/dialogue.js';
import { assistantEntry, toolResultEntry, userEntry, type ToolCall } from '../../src/dialogue/entry.js';
import { ZERO_USAGE } from '../../src/request/usage.js';
import { afterMicrotasks } from '../../src/testing/deferred.js';
import { StandIns } from '../../src/testing/stand-ins.js';
import { renamedMachine } from '../fixtures/journal/renamed-machine.js';
import { standInActors } from './agent-driver.js';

const input = createAgentInput({ model: 'm', task: 'count the files', path: '/root/w', lifetime: 'continuable' });
const task = { kind: 'task' as const, from: '/root' };
const call = (id: string, name = 'grep'): ToolCall => ({ id, name, arguments: { q: id } });
const asked = Dialogue.empty().append(userEntry({ text: 'count the files', origin: task, opensTurn: true }));
const calling = asked.append(assistantEntry({ text: 'Looking.', toolCalls: [call('c1'), call('c2', 'deploy')] }));

function imageOf(over: Partial<AgentImage>): AgentImage {
  return {
    version: AGENT_IMAGE_VERSION,
    phase: 'idle',
    dialogue: asked,
    inbox: [],
    counters: { step: 0, usage: ZERO_USAGE, turns: 0, closeRequested: false, firstReportMade: false },
    acceptedTask: 'count the files',
    background: undefined,
    turnOpenedBy: task,
    rerun: [],
    ...over,
  };
}

/** The agent machine (or its renamed copy) on stand-ins, recording turn reports. */
function hosted(renamed: boolean) {
  const standIns = new StandIns();
  const turns: TurnReport[] = [];
  const provided = agentMachine.provide({ actors: standInActors(standIns), actions: { reportTurn: (_, { report }) => void turns.push(report) } });
  return { logic: renamed ? renamedMachine(provided) : provided, standIns, turns };
}

describe('restoreAgent', () => {
  it('has one way back for every phase', () => {
    expect(Object.keys(PHASE_COMEBACK).sort()).toEqual([...AGENT_PHASES].sort());
  });

  it.each([false, true])('brings an agent waiting on the model back with the request sent again (renamed machine: %s)', async (renamed) => {
    const { logic, standIns, turns } = hosted(renamed);
    const actor = restoreAgent(logic, imageOf({ phase: 'waiting_on_model', counters: { step: 1, usage: ZERO_USAGE, turns: 0, closeRequested: false, firstReportMade: false } }), { input }).start();
    expect(agentPhaseOf(actor.getSnapshot())).toBe('waiting_on_model');
    // The actor ids come from the machine: `model`, or `llm` in the renamed copy.
    const id = renamed ? 'llm' : 'model';
    expect(Object.keys(actor.getSnapshot().children).sort()).toEqual([id, 'subagents']);
    const request = standIns.pending(id)!;
    expect(request.input).toMatchObject({ path: '/root/w', step: 1, turn: 0 });
    expect((request.input as { dialogue: Dialogue }).dialogue).toBe(asked);
    request.result.resolve({ response: { text: 'There are 42 files.', toolCalls: [], usage: ZERO_USAGE } });
    await afterMicrotasks();
    expect(agentPhaseOf(actor.getSnapshot())).toBe('idle');
    expect(turns.map((t) => t.text)).toEqual(['There are 42 files.']);
    actor.stop();
  });

  it.each([false, true])('brings an agent running tools back with only its rerun calls started again (renamed machine: %s)', async (renamed) => {
    const { logic, standIns } = hosted(renamed);
    const actor = restoreAgent(logic, imageOf({ phase: 'running_tools', dialogue: calling, rerun: [call('c1')] }), { input }).start();
    expect(agentPhaseOf(actor.getSnapshot())).toBe('running_tools');
    const step = standIns.child(renamed ? 'toolStep' : 'tools')!;
    expect(step.input).toEqual({ path: '/root/w', calls: [call('c1')] });
    // The host answers the other call; once both are in, the next request goes out.
    actor.send({ type: 'tool.result', callId: 'c2', toolName: 'deploy', content: 'interrupted', isError: true });
    const result: AgentEvent = { type: 'tool.result', callId: 'c1', toolName: 'grep', content: '42', isError: false };
    step.sendBack(result);
    expect(agentPhaseOf(actor.getSnapshot())).toBe('waiting_on_model');
    expect(step.stopped).toBe(true);
    actor.stop();
  });

  it('starts no tool step when no call runs again', () => {
    const { logic, standIns } = hosted(false);
    const actor = restoreAgent(logic, imageOf({ phase: 'running_tools', dialogue: calling }), { input }).start();
    expect(standIns.children.filter((c) => c.src === 'runToolCalls')).toEqual([]);
    expect(Object.keys(actor.getSnapshot().children)).toEqual(['subagents']);
    actor.stop();
  });

  it('restores the counters, inbox and first report as the image says, not as the turns suggest', () => {
    const { logic } = hosted(false);
    const inbox = [{ text: 'one', origin: { kind: 'message' as const, from: '/root' } }, { text: 'two', origin: { kind: 'message' as const, from: '/root' } }];
    const counters = { step: 0, usage: { ...ZERO_USAGE, inputTokens: 7 }, turns: 2, closeRequested: true, firstReportMade: false };
    const context = restoreAgent(logic, imageOf({ phase: 'idle', inbox, counters }), { input }).getSnapshot().context as AgentContext;
    expect(context).toMatchObject({ turnsCompleted: 2, closeRequested: true, firstReportMade: false, usage: counters.usage, acceptedTask: 'count the files' });
    expect(context.inbox?.item.text).toBe('two');
    expect(context.inbox?.next?.item.text).toBe('one');
    expect(context.inbox?.size).toBe(2);
  });

  it('starts a reserved agent again from its input', () => {
    const { logic, standIns } = hosted(false);
    const actor = restoreAgent(logic, imageOf({ phase: 'reserved' }), { input }).start();
    // No hooks, no summary: it seeds its dialogue and asks the model.
    expect(standIns.pending('model')?.input).toMatchObject({ path: '/root/w', step: 0 });
    actor.stop();
  });

  it('refuses an image of another version, a settled one, one without a phase, and a machine without the phase', () => {
    const { logic } = hosted(false);
    const refusal = (f: () => unknown): string => {
      try {
        f();
      } catch (error) {
        return error instanceof RestoreError && error.name === 'RestoreError' ? `${error.code}: ${error.message}` : `not a RestoreError: ${String(error)}`;
      }
      return 'restored';
    };
    expect(refusal(() => restoreAgent(logic, { ...imageOf({}), version: 2 as never }, { input }))).toBe('unknown_image_version: agent image version 2 is not one this version restores (it restores version 1)');
    expect(refusal(() => restoreAgent(logic, imageOf({ phase: 'settled' }), { input }))).toBe('not_restorable: /root/w is settled: its result is what remains, not an actor');
    expect(refusal(() => restoreAgent(logic, imageOf({ phase: 'sampling' as never }), { input }))).toBe('not_restorable: agent image phase "sampling" is not a phase');
    const bare = setup({}).createMachine({ initial: 'idle', states: { idle: {} } });
    expect(refusal(() => restoreAgent(bare, imageOf({ phase: 'idle' }), { input }))).toBe('phase_not_in_machine: the machine has no state whose meta names the phase "idle" (exactly one is restored into)');
    // The phase on a compound state names its atomic states: two of them is one too many.
    const twice = setup({}).createMachine({ initial: 'open', states: { open: { meta: { phase: 'idle' }, initial: 'a', states: { a: {}, b: {} } } } });
    expect(refusal(() => restoreAgent(twice, imageOf({ phase: 'idle' }), { input }))).toBe('phase_not_in_machine: the machine has 2 states whose meta names the phase "idle" (exactly one is restored into)');
  });

  it('restores the system ids the machine gives its invoked actors, and refuses inline actor logic', () => {
    const started: unknown[] = [];
    const watcher = fromCallback<EventObject, number>(({ input }) => void started.push(input));
    const machine = setup({ actors: { watcher } }).createMachine({
      initial: 'waiting',
      states: { waiting: { meta: { phase: 'idle' }, invoke: { id: 'watch', src: 'watcher', systemId: 'the-watcher', input: ({ context }) => (context as AgentContext).turnsCompleted } } },
    });
    const image = imageOf({ phase: 'idle', counters: { step: 0, usage: ZERO_USAGE, turns: 4, closeRequested: false, firstReportMade: true } });
    const actor = restoreAgent(machine, image, { input }).start();
    expect(started).toEqual([4]);
    expect(actor.system.get('the-watcher')).toBe(actor.getSnapshot().children['watch']);
    actor.stop();
    const inline = createMachine({ initial: 'waiting', states: { waiting: { meta: { phase: 'idle' }, invoke: { src: watcher } } } });
    expect(() => restoreAgent(inline, image, { input })).toThrow(/provides no actor "xstate\.invoke[^"]*" for the idle state \(restored actors are named in setup\(\{ actors \}\) or provide, never inline\)/);
  });

  it("takes the last reply's text as the turn's text so far", () => {
    const { logic } = hosted(false);
    const text = (dialogue: Dialogue): string => (restoreAgent(logic, imageOf({ dialogue }), { input }).getSnapshot().context as AgentContext).lastText;
    expect(text(asked)).toBe('');
    expect(text(calling)).toBe('Looking.');
    expect(text(calling.append(toolResultEntry({ callId: 'c1', toolName: 'grep', content: '42', isError: false })))).toBe('Looking.');
  });

  it("reads the innermost phase a snapshot's states name, and reserved when none does", () => {
    const nested = setup({}).createMachine({ initial: 'a', states: { a: { meta: { phase: 'idle' }, initial: 'b', states: { b: { meta: { note: 1 } } } } } });
    expect(agentPhaseOf(createActor(nested).getSnapshot())).toBe('idle');
    const inner = setup({}).createMachine({ initial: 'a', states: { a: { meta: { phase: 'idle' }, initial: 'b', states: { b: { meta: { phase: 'running_tools' } } } } } });
    expect(agentPhaseOf(createActor(inner).getSnapshot())).toBe('running_tools');
    expect(agentPhaseOf(createActor(setup({}).createMachine({})).getSnapshot())).toBe('reserved');
  });

  it('reads the phase of a live snapshot from meta', () => {
    const { logic } = hosted(false);
    const actor = createActor(logic, { input }).start();
    expect(agentPhaseOf(actor.getSnapshot())).toBe('waiting_on_model');
    actor.send({ type: 'cancel' });
    expect(agentPhaseOf(actor.getSnapshot())).toBe('settled');
  });
});
