import { describe, expect, it } from 'vitest';
import { createRuntime, type InboxItem } from '../../src/index.js';
import { assistantEntry, Dialogue, toolResultEntry, userEntry } from '../../src/dialogue/index.js';
import { scriptedModel } from '../../src/testing/index.js';
import { waitForState } from './helpers.js';

/** A dialogue the host holds for the root: a person's question, then the root's Agent call. */
function hostDialogue(callArgs: Record<string, string>) {
  return Dialogue.of([
    userEntry({ text: 'HOST-QUESTION why is it slow', origin: { kind: 'person' }, opensTurn: true }),
    assistantEntry({ text: 'Let me look.', toolCalls: [{ id: 'ls', name: 'list_agents', arguments: {} }] }),
    toolResultEntry({ callId: 'ls', toolName: 'list_agents', content: 'no agents', isError: false }),
    assistantEntry({ text: '', toolCalls: [{ id: 'spawn', name: 'Agent', arguments: callArgs }] }),
  ]);
}

describe('a root whose loop the host runs (hostRoot) and runtime.callTool', () => {
  it('runs a built-in tool call for an agent and reports a bad one as an error outcome', async () => {
    const rt = createRuntime({ model: scriptedModel({}) });
    const listed = await rt.callTool('/root', { id: 'c1', name: 'list_agents', arguments: {} });
    expect(listed.isError).toBe(false);
    expect(JSON.parse(listed.content)).toHaveProperty('agents');
    const unknown = await rt.callTool('/root/nobody', { id: 'c2', name: 'list_agents', arguments: {} });
    expect(unknown).toMatchObject({ isError: true });
    expect(unknown.content).toContain('unknown_agent');
    const bad = await rt.callTool('/root', { id: 'c3', name: 'Agent', arguments: { task_name: 'Bad Name', message: 'x' } });
    expect(bad.isError).toBe(true);
    expect(rt.slotsInUse).toBe(0);
  });

  it('takes a fork’s snapshot from the host’s dialogue, without the triggering call, and never samples the root', async () => {
    const args = { task_name: 'probe', message: 'PROBE-TASK measure it', context: 'all' };
    const dialogue = hostDialogue(args);
    const model = scriptedModel({ '/root/probe': { 0: [{ text: 'probe: 3 slow queries' }] } });
    const rt = createRuntime({ model, hostRoot: { dialogue: () => dialogue, deliver: () => undefined } });
    const outcome = await rt.callTool('/root', { id: 'spawn', name: 'Agent', arguments: args });
    expect(outcome.isError).toBe(false);
    expect(outcome.content).toContain('probe: 3 slow queries');
    const seen = model.calls.find((c) => c.agentPath === '/root/probe')!.request.messages.toArray();
    expect(seen[0]).toBe(dialogue.at(0));
    expect(seen.some((e) => e.kind === 'assistant' && e.toolCalls.some((c) => c.id === 'spawn'))).toBe(false);
    expect(model.calls.some((c) => c.agentPath === '/root')).toBe(false);
  });

  it('hands the root’s inbox items (settlement notices, messages) to the host instead of starting a root turn', async () => {
    const delivered: InboxItem[] = [];
    const args = { task_name: 'bg', message: 'BG-TASK', context: 'none' };
    const model = scriptedModel({
      '/root/bg': { 0: [{ toolCalls: [{ name: 'send_message', arguments: { agent_id: '/root', message: 'halfway there' } }] }, { text: 'bg finished' }] },
    });
    const rt = createRuntime({
      model,
      defaults: { delivery: 'parent' },
      hostRoot: { dialogue: () => hostDialogue(args), deliver: (item) => delivered.push(item) },
    });
    const receipt = await rt.callTool('/root', { id: 'spawn', name: 'Agent', arguments: args });
    expect(receipt.content).toContain('"status":"started"');
    await rt.result('/root/bg');
    await waitForState(rt, '/root', 'running.idle');
    expect(delivered.map((d) => d.origin)).toEqual([
      { kind: 'message', from: '/root/bg' },
      { kind: 'notice', from: '/root/bg' },
    ]);
    expect(delivered[1]!.text).toContain('bg finished');
    expect(model.calls.some((c) => c.agentPath === '/root')).toBe(false);
    await expect(rt.prompt('hello')).rejects.toThrow(/host runs the root/);
  });
});
