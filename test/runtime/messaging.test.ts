import { describe, expect, it } from 'vitest';
import { manualClock } from '../../src/model/clock.js';
import { scriptedModel } from '../../src/model/scripted.js';
import { createRuntime } from '../../src/runtime/runtime.js';
import { RuntimeError } from '../../src/runtime/errors.js';
import { deferred, userTexts, waitForState } from './helpers.js';

describe('send_message routing', () => {
  it('reaches a sibling and the parent by path, as typed inbox items with their origin', async () => {
    const model = scriptedModel({
      '/root/a': { 0: [{ toolCalls: [{ name: 'send_message', arguments: { agent_id: '/root/b', message: 'hi sibling' } }] }, { text: 'a done' }] },
      '/root/b': { 0: [{ text: 'b idle' }], 1: [{ toolCalls: [{ name: 'send_message', arguments: { agent_id: '/root', message: 'hi parent' } }] }, { text: 'b replied' }] },
      '/root': { 0: [{ text: 'root read it' }] },
    });
    const rt = createRuntime({ model, defaults: { lifetime: 'continuable' } });
    await (await rt.spawn('/root', { task_name: 'b', message: 'wait' })).firstReport;
    await (await rt.spawn('/root', { task_name: 'a', message: 'greet b' })).firstReport;
    await rt.whenQuiet();
    const bEntry = rt.transcript('/root/b')!.log.toArray().find((e) => e.kind === 'user' && e.text === 'hi sibling');
    expect(bEntry?.kind === 'user' && bEntry.origin).toEqual({ kind: 'message', from: '/root/a' });
    expect(userTexts(rt, '/root')).toContain('hi parent');
  });

  it('a message that arrives during the final request of a turn is answered in that turn', async () => {
    const clock = manualClock();
    const model = scriptedModel(
      { '/root/w': { 0: [{ text: 'first', latencyMs: 10 }, (req) => ({ text: `answered ${String(req.messages.at(-1)?.kind === 'user' && req.messages.at(-1))}` })] } },
      { clock },
    );
    const rt = createRuntime({ model, defaults: { lifetime: 'continuable' } });
    const handle = await rt.spawn('/root', { task_name: 'w', message: 'work' });
    await clock.whenPending(1);
    rt.send('/root', '/root/w', 'one more thing');
    clock.advance(10);
    const first = await handle.firstReport;
    await rt.whenQuiet();
    expect(model.calls.filter((c) => c.agentPath === '/root/w')).toHaveLength(2);
    const log = rt.transcript('/root/w')!.log.toArray();
    expect(log.map((e) => e.kind)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(log[2]?.kind === 'user' && log[2].text).toBe('one more thing');
    expect(first.kind === 'turn' && first.turn).toBe(0);
    expect(rt.stateOf('/root/w')).toBe('running.idle');
  });

  it('a message to a working agent joins before its next model request', async () => {
    const clock = manualClock();
    const model = scriptedModel(
      { '/root/w': { 0: [{ toolCalls: [{ name: 'list_agents' }], latencyMs: 10 }, (req) => ({ text: `saw ${req.messages.length} messages` })] } },
      { clock },
    );
    const rt = createRuntime({ model });
    const handle = await rt.spawn('/root', { task_name: 'w', message: 'work' });
    await clock.whenPending(1);
    rt.send('/root', '/root/w', 'extra context');
    clock.advance(10);
    const result = await handle.result;
    const log = rt.transcript('/root')!; // the root is untouched
    expect(log.length).toBe(0);
    const second = model.calls[1]!.request.messages.toArray();
    expect(second.map((e) => e.kind)).toEqual(['user', 'assistant', 'tool_result', 'user']);
    expect(second[3]?.kind === 'user' && second[3].text).toBe('extra context');
    expect(result.text).toBe('saw 4 messages');
  });

  it('errors: unknown target, not yet published, closed, empty message', async () => {
    const gate = deferred<{ allow: true }>();
    const model = scriptedModel({ '/root/**': { 0: [{ text: 'ok' }] } });
    const rt = createRuntime({ model, taskHooks: [() => gate.promise] });
    expect(() => rt.send('/root', '/root/ghost', 'x')).toThrow(RuntimeError);
    expect(() => rt.send('/root', '/root/ghost', 'x')).toThrow(/no agent \/root\/ghost; live agents: \/root/);
    const handle = await rt.spawn('/root', { task_name: 'starting', message: 'x' });
    try {
      rt.send('/root', '/root/starting', 'x');
      expect.unreachable();
    } catch (error) {
      expect((error as RuntimeError).code).toBe('not_published');
    }
    gate.resolve({ allow: true });
    await handle.result;
    expect(() => rt.send('/root', '/root/starting', 'x')).toThrow(/finished and takes no more messages/);
    expect(() => rt.send('/root', '/root', '')).toThrow(/non-empty/);
  });

  it('a model calling send_message badly gets a tool error, not a crash', async () => {
    const model = scriptedModel({
      '/root/x': { 0: [{ toolCalls: [{ name: 'send_message', arguments: { agent_id: 42 } }] }, (req) => ({ text: String(req.messages.at(2)?.kind) })] },
    });
    const rt = createRuntime({ model });
    const result = await (await rt.spawn('/root', { task_name: 'x', message: 'go' })).result;
    const toolResult = model.calls[1]!.request.messages.at(2);
    expect(toolResult?.kind === 'tool_result' && toolResult.isError).toBe(true);
    expect(toolResult?.kind === 'tool_result' && toolResult.content).toMatch(/invalid_arguments/);
    expect(toolResult?.kind === 'tool_result' && toolResult.content).toMatch(/agent_id/);
    expect(result.status).toBe('completed');
  });

  it('list_agents shows path, role, state and last task of the agents the caller can address', async () => {
    const model = scriptedModel({
      '/root/peer': { 0: [{ text: 'ready' }] },
      '/root/lister': { 0: [{ toolCalls: [{ name: 'list_agents' }] }, (req) => ({ text: (req.messages.at(2) as { content: string }).content })] },
    });
    const rt = createRuntime({ model });
    await (await rt.spawn('/root', { task_name: 'peer', message: 'stand by' }, { lifetime: 'continuable' })).firstReport;
    const result = await (await rt.spawn('/root', { task_name: 'lister', message: 'who is here', role: 'scout' })).result;
    const listed = JSON.parse(result.text) as { agents: Array<Record<string, unknown>> };
    // Its parent and its sibling; never itself.
    expect(listed.agents).toEqual([
      { agent_id: '/root', role: null, state: 'running.idle', context: 'none', last_task: null },
      { agent_id: '/root/peer', role: null, state: 'running.idle', context: 'none', last_task: 'stand by' },
    ]);
  });

  it('cancel_agent and close_agent only reach the caller\'s own subagents', async () => {
    const model = scriptedModel({
      '/root/a': { 0: [{ toolCalls: [{ name: 'cancel_agent', arguments: { agent_id: '/root/b' } }] }, (req) => ({ text: (req.messages.at(2) as { content: string }).content })] },
      '/root/b': { 0: [{ text: 'b', latencyMs: 1e9 }] },
    });
    const rt = createRuntime({ model });
    await rt.spawn('/root', { task_name: 'b', message: 'wait' });
    const result = await (await rt.spawn('/root', { task_name: 'a', message: 'cancel b' })).result;
    expect(result.text).toMatch(/not_permitted/);
    expect(rt.stateOf('/root/b')).toBe('running.working.sampling');
    rt.stop();
  });

  it('a message to an idle agent wakes it, and one after settle is refused', async () => {
    const model = scriptedModel({ '/root/idle': { 0: [{ text: 'first' }], 1: [{ text: 'woken' }] } });
    const rt = createRuntime({ model, defaults: { lifetime: 'continuable' } });
    const handle = await rt.spawn('/root', { task_name: 'idle', message: 'x' });
    await handle.firstReport;
    rt.send('/root', '/root/idle', 'wake up');
    expect(() => rt.send('/root', 'idle', 'x')).toThrow(/agent_id must be an agent path/);
    await waitForState(rt, '/root/idle', 'running.idle');
    await rt.whenQuiet();
    expect(userTexts(rt, '/root/idle')).toContain('wake up');
    rt.cancel('/root/idle');
    expect(() => rt.send('/root', '/root/idle', 'again')).toThrow(/been cancelled/);
  });
});
