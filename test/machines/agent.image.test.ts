/**
 * `restoreAgent`: an agent image comes back in its phase, in whatever machine the host runs,
 * with the work that phase had pending, and an image that cannot come back is refused.
 */
import { createActor, setup } from 'xstate';
import { describe, expect, it } from 'vitest';
import { AGENT_IMAGE_VERSION, agentPhaseOf, PHASE_COMEBACK, restoreAgent, RestoreError, type AgentImage } from '../../machines/agent.image.js';
import { agentMachine } from '../../machines/agent.machine.js';
import { AGENT_PHASES } from '../../machines/agent.meta.js';
import { createAgentInput } from '../../machines/agent.input.js';
import type { AgentContext, AgentEvent, TurnReport } from '../../machines/agent.types.js';
import { Dialogue } from '../../src/dialogue/dialogue.js';
import { assistantEntry, userEntry, type ToolCall } from '../../src/dialogue/entry.js';
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

  it('refuses an image of another version, a settled one, and a machine without the phase', () => {
    const { logic } = hosted(false);
    const code = (f: () => unknown): string | undefined => {
      try {
        f();
      } catch (error) {
        return error instanceof RestoreError ? error.code : `not a RestoreError: ${String(error)}`;
      }
      return undefined;
    };
    expect(code(() => restoreAgent(logic, { ...imageOf({}), version: 2 as never }, { input }))).toBe('unknown_image_version');
    expect(code(() => restoreAgent(logic, imageOf({ phase: 'settled' }), { input }))).toBe('not_restorable');
    const bare = setup({}).createMachine({ initial: 'idle', states: { idle: {} } });
    expect(code(() => restoreAgent(bare, imageOf({ phase: 'idle' }), { input }))).toBe('phase_not_in_machine');
  });

  it('reads the phase of a live snapshot from meta', () => {
    const { logic } = hosted(false);
    const actor = createActor(logic, { input }).start();
    expect(agentPhaseOf(actor.getSnapshot())).toBe('waiting_on_model');
    actor.send({ type: 'cancel' });
    expect(agentPhaseOf(actor.getSnapshot())).toBe('settled');
  });
});
