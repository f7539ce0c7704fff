import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { scriptedModel } from '../../src/model/scripted.js';
import { serializeHead, sharedRequestPrefix, requestPrefixBytes } from '../../src/request/serialize.js';
import { createRuntime, defineRuntimeTool } from '../../src/runtime/runtime.js';
import type { AgentResult } from '../../src/runtime/types.js';
import type { ModelRequest } from '../../src/request/types.js';
import { leadingBytes, requestBytes, sharedFrameBytes } from '../request/frames.js';

/** The prefix figures a result must report, computed from the two requests' bytes. */
function expectPrefix(result: AgentResult, parentLast: ModelRequest | undefined, childFirst: ModelRequest, inherited: number, reasons: string[]) {
  const shared = parentLast && parentLast.model === childFirst.model ? sharedFrameBytes(parentLast, childFirst) : 0;
  expect(result.prefix).toEqual({
    sharedBytes: shared,
    sharedTokens: Math.floor(shared / 4),
    sharedRatio: shared / requestBytes(childFirst),
    inputBytes: requestBytes(childFirst),
    inheritedBytes: leadingBytes(childFirst, inherited),
    reasons,
  });
}

function session(extra: Parameters<typeof createRuntime>[0] extends infer O ? Partial<O> : never = {}) {
  let ran = 0;
  const shell = defineRuntimeTool({
    name: 'shell',
    description: 'Runs a shell command.',
    schema: z.object({ command: z.string() }),
    capabilities: ['shell'],
    execute: () => (ran++, 'ran'),
  });
  const model = scriptedModel(
    {
      '/root': {
        0: [{ text: 'earlier answer' }],
        1: [
          { toolCalls: [{ name: 'Agent', id: 'call-fork', arguments: { task_name: 'fork', message: 'continue the analysis', context: 'all' } }] },
          { text: 'done' },
        ],
      },
      '/root/fork': { 0: [{ text: 'fork done' }] },
      '/root/filtered': { 0: [{ toolCalls: [{ name: 'shell', arguments: { command: 'rm -rf /' } }] }, { text: 'could not' }] },
    },
    { cache: true },
  );
  const rt = createRuntime({ model, tools: [shell], ...extra });
  return { rt, model, ran: () => ran };
}

describe('fork prefixes', () => {
  it('a same-preset fork repeats the parent head byte for byte and extends its last request', async () => {
    const { rt, model } = session();
    rt.prompt('first question');
    await rt.whenQuiet();
    rt.prompt('second question');
    await rt.whenQuiet();
    const parentLast = model.calls.find((c) => c.agentPath === '/root' && c.turn === 1 && c.step === 0)!.request;
    const forkFirst = model.calls.find((c) => c.agentPath === '/root/fork')!.request;
    expect(forkFirst.system).toBe(parentLast.system);
    expect(serializeHead(forkFirst.system)).toBe(serializeHead(parentLast.system));
    // Everything the parent sent (head and messages) is the fork's prefix.
    expect(sharedRequestPrefix(parentLast, forkFirst)).toBeGreaterThanOrEqual(requestPrefixBytes(parentLast));
    // The wrapper is the only new message, and it carries the parent id and reply guidance.
    const last = forkFirst.messages.at(forkFirst.messages.length - 1);
    expect(last?.kind === 'user' && last.text).toContain('/root');
    expect(last?.kind === 'user' && last.text).toContain('send_message');
    // Forks are continuable by default: the fork waits for follow-ups until it is closed.
    expect(rt.stateOf('/root/fork')).toBe('running.idle');
    rt.close('/root/fork');
    const result = await rt.result('/root/fork');
    expect(result.stopReason).toBe('closed');
    // It inherited the parent's whole last request (the reply holding only the Agent call is
    // trimmed away), and shares all of it.
    expectPrefix(result, parentLast, forkFirst, forkFirst.messages.length - 1, []);
    expect(result.prefix.sharedBytes).toBe(requestPrefixBytes(parentLast));
    expect(result.prefix.sharedBytes).toBe(result.prefix.inheritedBytes);
    // The simulated provider cache served the inherited prefix.
    expect(result.usage.cacheReadTokens).toBeGreaterThan(0);
    expect(result.usage.cacheReadTokens / result.usage.inputTokens).toBeGreaterThan(0.5);
  });

  it('a role tool filter changes the head, says why, removes reply guidance with send_message, and is enforced at execution', async () => {
    const { rt, model, ran } = session({ roles: [{ name: 'readonly', instructions: 'Only read.', disallowedTools: ['send_message'], tools: ['shell', 'list_agents', 'send_message'] }] });
    const result = await (await rt.spawn('/root', { task_name: 'filtered', message: 'inspect', role: 'readonly' })).result;
    const request = model.calls.find((c) => c.agentPath === '/root/filtered')!.request;
    // The root had sent nothing when the host spawned it; the filter alone would not let it share all of its head.
    expect(result.prefix.reasons).toContain('tool_filter');
    expect(result.prefix.reasons).toContain('no_parent_request');
    expect(result.prefix.sharedBytes).toBe(0);
    expect(request.system.tools.map((t) => t.name)).toEqual(['list_agents', 'shell']);
    const task = request.messages.at(0);
    expect(task?.kind === 'user' && task.text).not.toContain('send_message');
    expect(task?.kind === 'user' && task.text).toContain('Only read.');
    // shell was visible to this role, so it ran.
    expect(ran()).toBe(1);
  });

  it('a tool outside the filter never executes, even if the model calls it', async () => {
    const { rt, model, ran } = session({ roles: [{ name: 'noshell', disallowedTools: ['shell'] }] });
    const result = await (await rt.spawn('/root', { task_name: 'filtered', message: 'inspect', role: 'noshell' })).result;
    expect(ran()).toBe(0);
    const second = model.calls.filter((c) => c.agentPath === '/root/filtered')[1]!.request;
    const error = second.messages.at(2);
    expect(error?.kind === 'tool_result' && error.isError).toBe(true);
    expect(error?.kind === 'tool_result' && error.content).toMatch(/tool_not_allowed.*"shell" is not available to \/root\/filtered/);
    expect(result.status).toBe('completed');
  });

  it('the host can narrow one spawn\'s tools through spawnPolicy, on top of the parent\'s', async () => {
    const { rt, model } = session({
      spawnPolicy: (input) => (input.taskName === 'filtered' ? { tools: { deny: ['shell', 'Agent'] } } : undefined),
    });
    rt.prompt('first question');
    await rt.whenQuiet();
    const result = await (await rt.spawn('/root', { task_name: 'filtered', message: 'inspect' })).result;
    const first = model.calls.find((c) => c.agentPath === '/root/filtered')!.request;
    const names = first.system.tools.map((t) => t.name);
    expect(names).toEqual(['send_message', 'list_agents', 'cancel_agent', 'close_agent']);
    // The Agent tool's guidance left the default system prompt together with the tool, so not even the system frame is shared.
    expectPrefix(result, model.calls[0]!.request, first, 0, ['different_system_prompt', 'tool_filter']);
    expect(result.prefix.sharedBytes).toBe(0);
    const prompt = model.calls.find((c) => c.agentPath === '/root/filtered')!.request.system.systemPrompt;
    expect(prompt).not.toMatch(/delegate/);
    expect(prompt).toMatch(/send_message/);
  });

  it('a different model shares nothing, since a provider caches per model, and says so', async () => {
    const { rt, model } = session();
    rt.prompt('first question');
    await rt.whenQuiet();
    const result = await (await rt.spawn('/root', { task_name: 'fork', message: 'x', model: 'bigger-model' })).result;
    const first = model.calls.find((c) => c.agentPath === '/root/fork')!.request;
    // Its head bytes equal the parent's, but the cache that holds them is another model's.
    expect(sharedFrameBytes(model.calls[0]!.request, first)).toBeGreaterThan(0);
    expectPrefix(result, model.calls[0]!.request, first, 0, ['different_model']);
  });

  it('an independent subagent shares the head, all it inherited', async () => {
    const { rt, model } = session();
    rt.prompt('first question');
    await rt.whenQuiet();
    const result = await (await rt.spawn('/root', { task_name: 'fork', message: 'look elsewhere' })).result;
    const first = model.calls.find((c) => c.agentPath === '/root/fork')!.request;
    expectPrefix(result, model.calls[0]!.request, first, 0, []);
    expect(result.prefix.sharedBytes).toBe(Buffer.byteLength(serializeHead(first.system), 'utf8'));
    expect(result.prefix.sharedRatio).toBeLessThan(1);
  });

  it('a fork of the last turns shares only the head, and names the turn window', async () => {
    const { rt, model } = session();
    rt.prompt('first question');
    await rt.whenQuiet();
    rt.prompt('second question');
    await rt.whenQuiet();
    const parentLast = model.calls.at(-1)!.request;
    // The second turn already forked a '/root/fork' (continuable, so idle): close it; this is a
    // new one, one-shot so that it settles after its answer.
    rt.close('/root/fork');
    await rt.result('/root/fork');
    const result = await (await rt.spawn('/root', { task_name: 'fork', message: 'x', context: 1 }, { lifetime: 'one-shot' })).result;
    const first = model.calls.filter((c) => c.agentPath === '/root/fork').at(-1)!.request;
    expectPrefix(result, parentLast, first, first.messages.length - 1, ['turns_window']);
    expect(result.prefix.sharedBytes).toBe(Buffer.byteLength(serializeHead(first.system), 'utf8'));
  });

  it('a fork that inherits the reply that started it (text beside the call) says the parent had not sent it', async () => {
    const model = scriptedModel({
      '/root': {
        0: [
          { text: 'Splitting the work.', toolCalls: [{ name: 'Agent', id: 'call-fork', arguments: { task_name: 'fork', message: 'continue', context: 'all' } }] },
          { text: 'done' },
        ],
      },
      '/root/fork': { 0: [{ text: 'fork done' }] },
    });
    const rt = createRuntime({ model });
    rt.prompt('question');
    await rt.whenQuiet();
    const parentLast = model.calls[0]!.request;
    const first = model.calls.find((c) => c.agentPath === '/root/fork')!.request;
    // The fork is continuable (the default for forks): closed, it settles.
    rt.close('/root/fork');
    const result = await rt.result('/root/fork');
    // Inherited: the question and the reply's text; the parent's last request held only the question.
    expectPrefix(result, parentLast, first, 2, ['newer_entries']);
    expect(result.prefix.sharedBytes).toBe(leadingBytes(first, 1));
  });

  it('a subagent stopped before its first request reports nothing shared and why', async () => {
    const { rt } = session({ taskHooks: [() => ({ allow: false, reason: 'not today' })] });
    rt.prompt('first question');
    await rt.whenQuiet();
    const result = await (await rt.spawn('/root', { task_name: 'fork', message: 'x' })).result;
    expect(result.status).toBe('cancelled');
    expect(result.prefix).toMatchObject({ sharedBytes: 0, sharedTokens: 0, sharedRatio: 0, inputBytes: 0, reasons: ['no_request'] });
  });

  it('presets: the root runs under its preset, subagents inherit it, and a preset can make forks continuable', async () => {
    const { rt, model } = session({
      presets: {
        base: { name: 'base', systemPrompt: 'Base prompt.', tools: ['Agent', 'send_message', 'list_agents', 'cancel_agent', 'close_agent'] },
        coder: { name: 'coder', extends: 'base', systemPrompt: 'You write code.', defaults: { forkLifetime: 'continuable' } },
      },
      preset: 'coder',
    });
    rt.prompt('q');
    await rt.whenQuiet();
    rt.prompt('q2');
    await rt.whenQuiet();
    expect(model.calls[0]!.request.system).toMatchObject({ preset: 'coder', systemPrompt: 'You write code.' });
    // The fork is continuable under this preset: it is idle, not settled.
    expect(rt.stateOf('/root/fork')).toBe('running.idle');
    expect(model.calls.find((c) => c.agentPath === '/root/fork')!.request.system).toBe(model.calls[0]!.request.system);
  });
});
