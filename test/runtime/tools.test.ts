import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { scriptedModel } from '../../src/model/scripted.js';
import type { ModelRequest } from '../../src/request/types.js';
import { createRuntime, defineRuntimeTool } from '../../src/runtime/runtime.js';
import { errorCode, RuntimeError } from '../../src/runtime/errors.js';
import { waitForState } from './helpers.js';

/** The content of the tool result at `index` in a request. */
function toolResultAt(request: ModelRequest, index: number): { content: string; isError: boolean } {
  const entry = request.messages.at(index);
  if (entry?.kind !== 'tool_result') throw new Error(`no tool result at ${index}`);
  return { content: entry.content, isError: entry.isError };
}

describe('tool dispatch', () => {
  const echo = defineRuntimeTool({
    name: 'echo',
    description: 'Echoes text.',
    schema: z.object({ text: z.string().min(1) }),
    execute: ({ text }, ctx) => (text === 'fail' ? { content: `refused for ${ctx.path}`, isError: true } : text.toUpperCase()),
  });
  const thrower = defineRuntimeTool({
    name: 'thrower',
    description: 'Always throws.',
    schema: z.object({}),
    execute: () => {
      throw new Error('disk on fire');
    },
  });

  it('host tools: validated arguments, string and error outputs, thrown errors become error results', async () => {
    const model = scriptedModel({
      '/root/t': {
        0: [
          {
            toolCalls: [
              { name: 'echo', id: 'a', arguments: { text: 'hi' } },
              { name: 'echo', id: 'b', arguments: { text: 'fail' } },
              { name: 'echo', id: 'c', arguments: { text: 42 } },
              { name: 'thrower', id: 'd' },
              { name: 'teleport', id: 'e' },
            ],
          },
          { text: 'done' },
        ],
      },
    });
    const rt = createRuntime({ model, tools: [echo, thrower] });
    await (await rt.spawn('/root', { task_name: 't', message: 'go' })).result;
    const request = model.calls[1]!.request;
    const byCall = new Map(
      request.messages.toArray().flatMap((e) => (e.kind === 'tool_result' ? [[e.callId, { content: e.content, isError: e.isError }] as const] : [])),
    );
    expect(byCall.get('a')).toEqual({ content: 'HI', isError: false });
    expect(byCall.get('b')).toEqual({ content: 'refused for /root/t', isError: true });
    expect(byCall.get('c')?.isError).toBe(true);
    expect(byCall.get('c')?.content).toMatch(/invalid_arguments.*text/);
    expect(byCall.get('d')).toEqual({ content: 'Error: disk on fire', isError: true });
    expect(byCall.get('e')?.content).toMatch(/unknown_tool.*"teleport".*available tools: Agent, send_message/);
    expect(request.messages.length).toBe(7);
  });

  it('a model cancels and closes its own subagents through tools', async () => {
    const model = scriptedModel({
      '/root/boss': {
        0: [
          { toolCalls: [{ name: 'Agent', id: 's1', arguments: { task_name: 'slow', message: 'x' } }, { name: 'Agent', id: 's2', arguments: { task_name: 'chat', message: 'y' } }] },
          { toolCalls: [{ name: 'cancel_agent', id: 'c1', arguments: { agent_id: '/root/boss/slow' } }, { name: 'close_agent', id: 'c2', arguments: { agent_id: '/root/boss/chat' } }] },
          (req) => ({ text: req.messages.toArray().filter((e) => e.kind === 'tool_result').map((e) => (e.kind === 'tool_result' ? e.content : '')).join('\n') }),
        ],
      },
      '/root/boss/slow': { 0: [{ text: 'slow', latencyMs: 1e9 }] },
      '/root/boss/chat': { 0: [{ text: 'chatting' }] },
    });
    const rt = createRuntime({ model, defaults: { delivery: 'parent', lifetime: 'continuable' } });
    const handle = await rt.spawn('/root', { task_name: 'boss', message: 'manage' }, { lifetime: 'one-shot', delivery: 'caller' });
    const result = await handle.result;
    expect(result.text).toContain('{"cancelled":[{"agent_id":"/root/boss/slow","state":"running.working.sampling"}]}');
    expect(result.text).toContain('{"agent_id":"/root/boss/chat","status":"closing"}');
    expect(rt.results.find((r) => r.path === '/root/boss/slow')?.status).toBe('cancelled');
    expect(rt.results.find((r) => r.path === '/root/boss/chat')).toMatchObject({ stopReason: 'closed' });
  });

  it('an agent cannot message itself; results of finished and unknown paths', async () => {
    const model = scriptedModel({ '/root/x': { 0: [{ toolCalls: [{ name: 'send_message', arguments: { agent_id: '/root/x', message: 'me' } }] }, { text: 'ok' }] } });
    const rt = createRuntime({ model });
    await (await rt.spawn('/root', { task_name: 'x', message: 'go' })).result;
    expect(toolResultAt(model.calls[1]!.request, 2).content).toMatch(/not_permitted.*cannot send a message to itself/);
    await expect(rt.result('/root/x')).resolves.toMatchObject({ path: '/root/x', status: 'completed' });
    await expect(rt.result('/root/never')).rejects.toMatchObject({ code: 'unknown_agent' });
    expect(() => rt.close('/root/x')).toThrow(RuntimeError);
    expect(errorCode(new RuntimeError('capacity', 'x'))).toBe('capacity');
    expect(errorCode(new Error('plain'))).toBeUndefined();
  });

  it('compaction asked for while an agent works happens before its next request', async () => {
    const model = scriptedModel({
      '/root': { 0: [{ text: 'one' }], 1: [{ toolCalls: [{ name: 'list_agents' }], latencyMs: 0 }, (req) => ({ text: req.messages.toArray().map((e) => e.kind).join(',') })], summary: 'earlier' },
    });
    const rt = createRuntime({ model });
    rt.prompt('first');
    await rt.whenQuiet();
    rt.prompt('second');
    await waitForState(rt, '/root', 'running.working');
    await rt.compact('/root');
    await rt.whenQuiet();
    const last = rt.transcript('/root')!.at(-1);
    expect(last?.kind === 'assistant' && last.text).toBe('compaction,user,assistant,tool_result');
  });

  it('host spawn validation: message required, parent must run', async () => {
    const rt = createRuntime({ model: scriptedModel({}) });
    await expect(rt.spawn('/root', { task_name: 'ok', message: '  ' })).rejects.toMatchObject({ code: 'invalid_arguments' });
    await expect(rt.spawn('/root/ghost', { task_name: 'ok', message: 'x' })).rejects.toMatchObject({ code: 'parent_not_running' });
    expect(rt.list()).toHaveLength(1);
    expect(rt.list()[0]).toMatchObject({ path: '/root', state: 'running.idle', lastTask: null });
  });
});

describe('registry bounds', () => {
  it('keeps tombstones for the most recent released paths only', async () => {
    const { Registry, MAX_TOMBSTONES } = await import('../../src/runtime/registry.js');
    const { resolveLimits } = await import('../../src/policy/limits.js');
    const registry = new Registry(resolveLimits({ maxDepth: 3, maxChildren: 2, maxTotal: 2 }));
    registry.addRoot('/root', 0);
    for (let i = 0; i <= MAX_TOMBSTONES; i++) {
      const record = registry.reserve({ parentPath: '/root', name: `a${i}`, role: undefined, contextLabel: 'none', delivery: 'caller', lifetime: 'one-shot', task: 't', now: 0 });
      registry.release(record.path, { status: 'completed', stopReason: 'completed' });
    }
    expect(registry.tombstone('/root/a0')).toBeUndefined();
    expect(registry.tombstone(`/root/a${MAX_TOMBSTONES}`)).toMatchObject({ status: 'completed' });
    expect(registry.slotsInUse).toBe(0);
  });

  it('shares one frozen tombstone per way of ending, so a settled path costs its key only (#31.5)', async () => {
    const { Registry } = await import('../../src/runtime/registry.js');
    const { resolveLimits } = await import('../../src/policy/limits.js');
    const registry = new Registry(resolveLimits({ maxDepth: 3, maxChildren: 4, maxTotal: 4 }));
    registry.addRoot('/root', 0);
    const endings = [['completed', 'completed'], ['cancelled', 'cancelled'], ['completed', 'completed']] as const;
    for (const [i, [status, stopReason]] of endings.entries()) {
      const record = registry.reserve({ parentPath: '/root', name: `t${i}`, role: undefined, contextLabel: 'none', delivery: 'caller', lifetime: 'one-shot', task: 't', now: 0 });
      registry.release(record.path, { status, stopReason });
    }
    expect(registry.tombstone('/root/t0')).toBe(registry.tombstone('/root/t2'));
    expect(registry.tombstone('/root/t1')).toEqual({ status: 'cancelled', stopReason: 'cancelled' });
    expect(Object.isFrozen(registry.tombstone('/root/t0'))).toBe(true);
  });
});
