import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { manualClock } from '../../src/model/clock.js';
import { scriptedModel } from '../../src/model/scripted.js';
import { createCapabilityCatalog } from '../../src/policy/capabilities.js';
import type { ConfirmationRequest } from '../../src/policy/confirmation.js';
import { errorCode } from '../../src/runtime/errors.js';
import { createRuntime, defineRuntimeTool } from '../../src/runtime/runtime.js';
import type { ApprovalRequest, ToolExecutionContext } from '../../src/runtime/types.js';
import { deferred } from './helpers.js';

/** The tool results the agent at `path` wrote, by call id. */
function toolResults(log: readonly { kind: string }[]): Map<string, { content: string; isError: boolean }> {
  const out = new Map<string, { content: string; isError: boolean }>();
  for (const e of log) if (e.kind === 'tool_result') {
    const r = e as unknown as { callId: string; content: string; isError: boolean };
    out.set(r.callId, { content: r.content, isError: r.isError });
  }
  return out;
}

describe('Runtime.spawn options are honoured or rejected', () => {
  const Bash = defineRuntimeTool({ name: 'Bash', description: 'Runs a command.', schema: z.object({ command: z.string() }), execute: () => 'ran' });

  it('tools: { deny: [Bash] } removes Bash from the subagent, in its schemas and where tools run', async () => {
    const model = scriptedModel({ '/root/worker': { 0: [{ toolCalls: [{ name: 'Bash', id: 'b', arguments: { command: 'ls' } }] }, { text: 'done' }] } });
    const rt = createRuntime({ model, tools: [Bash] });
    const handle = await rt.spawn('/root', { task_name: 'worker', message: 'go' }, { tools: { deny: ['Bash'] } });
    await handle.result;
    expect(model.calls[0]!.request.system.tools.map((t) => t.name)).not.toContain('Bash');
    expect(toolResults(rt.transcript('/root/worker')!.log.toArray()).get('b')).toMatchObject({ isError: true, content: expect.stringMatching(/tool_not_allowed/) });
  });

  it('externalDirectories and inheritsExtensions are confirmed like spawnPolicy grants and reach the subagent\'s tools', async () => {
    const seen: ToolExecutionContext[] = [];
    const where = defineRuntimeTool({ name: 'where', description: 'Reports grants.', schema: z.object({}), execute: (_a, ctx) => (seen.push(ctx), 'ok') });
    const asked: ConfirmationRequest[] = [];
    const model = scriptedModel({ '/root/**': { 0: [{ toolCalls: [{ name: 'where' }] }, { text: 'ok' }] } });
    const rt = createRuntime({
      model,
      tools: [where],
      capabilities: createCapabilityCatalog({ tools: {}, models: {} }),
      confirm: async (r) => (asked.push(r), { approved: true }),
    });
    await (await rt.spawn('/root', { task_name: 'outside', message: 'x' }, { externalDirectories: ['/srv/shared'], inheritsExtensions: true })).result;
    expect(asked.map((r) => r.capabilities.map((c) => c.capability))).toEqual([['external_directory', 'extension_inheritance']]);
    expect(seen[0]).toMatchObject({ path: '/root/outside', externalDirectories: ['/srv/shared'], inheritsExtensions: true });
    await (await rt.spawn('/root', { task_name: 'plain', message: 'x' })).result;
    expect(seen[1]).toMatchObject({ path: '/root/plain', externalDirectories: [], inheritsExtensions: false });
  });

  it('malformed options are rejected with a typed error and hold nothing', async () => {
    const rt = createRuntime({ model: scriptedModel({}) });
    const bad = [{ tools: { deny: 'Bash' } }, { externalDirectories: '/srv' }, { inheritsExtensions: 'yes' }] as never[];
    for (const options of bad) {
      await expect(rt.spawn('/root', { task_name: 'x', message: 'y' }, options)).rejects.toSatisfy((e: unknown) => errorCode(e) === 'invalid_arguments');
    }
    expect(rt.slotsInUse).toBe(0);
    expect(rt.list().map((a) => a.path)).toEqual(['/root']);
  });
});

describe('per-tool-call approval', () => {
  const deploy = defineRuntimeTool({
    name: 'deploy',
    description: 'Deploys.',
    schema: z.object({ env: z.string() }),
    needsApproval: (args) => args.env === 'prod',
    execute: ({ env }) => `deployed ${env}`,
  });

  it('asks the host by predicate, with path, tool and arguments; a denial is a tool error the model sees', async () => {
    const asked: ApprovalRequest[] = [];
    const model = scriptedModel({
      '/root': {
        0: [
          {
            toolCalls: [
              { name: 'deploy', id: 'staging', arguments: { env: 'staging' } },
              { name: 'deploy', id: 'prod', arguments: { env: 'prod' } },
            ],
          },
          { text: 'done' },
        ],
      },
    });
    const rt = createRuntime({ model, tools: [deploy], approve: (r) => (asked.push(r), { approved: false, reason: 'freeze week' }) });
    await rt.prompt('ship it');
    expect(asked).toEqual([{ id: '/root#prod', seq: 1, path: '/root', role: undefined, toolName: 'deploy', args: { env: 'prod' }, rule: { kind: 'needsApproval' }, callId: 'prod', turn: 0 }]);
    const results = toolResults(model.calls[1]!.request.messages.toArray());
    expect(results.get('staging')).toEqual({ content: 'deployed staging', isError: false });
    expect(results.get('prod')).toMatchObject({ isError: true, content: expect.stringMatching(/approval_denied.*freeze week/) });
  });

  it("subagents' calls reach the same callback, attributed to them; no approver means denied", async () => {
    const always = defineRuntimeTool({ name: 'wipe', description: 'Wipes.', schema: z.object({}), needsApproval: true, execute: () => 'wiped' });
    const model = scriptedModel({ '/root/cleaner': { 0: [{ toolCalls: [{ name: 'wipe', id: 'w' }] }, { text: 'ok' }] } });
    const asked: string[] = [];
    const rt = createRuntime({ model, tools: [always], approve: ({ path, toolName }) => (asked.push(`${path}:${toolName}`), true) });
    await (await rt.spawn('/root', { task_name: 'cleaner', message: 'clean' })).result;
    expect(asked).toEqual(['/root/cleaner:wipe']);
    expect(toolResults(rt.transcript('/root/cleaner')!.log.toArray()).get('w')).toEqual({ content: 'wiped', isError: false });

    const bare = createRuntime({ model: scriptedModel({ '/root/cleaner': { 0: [{ toolCalls: [{ name: 'wipe', id: 'w' }] }, { text: 'ok' }] } }), tools: [always] });
    await (await bare.spawn('/root', { task_name: 'cleaner', message: 'clean' })).result;
    expect(toolResults(bare.transcript('/root/cleaner')!.log.toArray()).get('w')?.content).toMatch(/approval_denied.*no approver/);
  });

  it('an abort while the host is asked cancels cleanly: the signal aborts and the tool never runs', async () => {
    let ran = false;
    const guarded = defineRuntimeTool({ name: 'guarded', description: 'Guarded.', schema: z.object({}), needsApproval: true, execute: () => ((ran = true), 'ran') });
    const answer = deferred<boolean>();
    let approvalSignal: AbortSignal | undefined;
    const asked = deferred<void>();
    const model = scriptedModel({ '/root': { 0: [{ toolCalls: [{ name: 'guarded' }] }, { text: 'never' }], 1: [{ text: 'next' }] } });
    const rt = createRuntime({ model, tools: [guarded], approve: (_r, signal) => ((approvalSignal = signal), asked.resolve(), answer.promise) });
    const controller = new AbortController();
    const pending = rt.prompt('go', { signal: controller.signal });
    await asked.promise;
    controller.abort();
    await expect(pending).resolves.toMatchObject({ status: 'cancelled' });
    expect(approvalSignal?.aborted).toBe(true);
    answer.resolve(true);
    await rt.whenQuiet();
    expect(ran).toBe(false);
    await expect(rt.prompt('again')).resolves.toMatchObject({ text: 'next' });
  });
});

describe('runtime.transcript', () => {
  it('serves live and settled agents until released', async () => {
    const clock = manualClock();
    const model = scriptedModel({ '/root/a': { 0: [{ text: 'a done' }] }, '/root/b': { 0: [{ text: 'b done', latencyMs: 5 }] } }, { clock });
    const rt = createRuntime({ model });
    await (await rt.spawn('/root', { task_name: 'a', message: 'task a' })).result;
    const b = await rt.spawn('/root', { task_name: 'b', message: 'task b' });
    await clock.whenPending(1);
    expect(rt.transcript('/root/a')!.log.toArray().map((e) => e.kind)).toEqual(['user', 'assistant']);
    expect(rt.transcript('/root/b')!.log.toArray().map((e) => e.kind)).toEqual(['user']);
    clock.advance(5);
    await b.result;
    expect(rt.transcript('/root/b')!.log.toArray().at(-1)).toMatchObject({ kind: 'assistant', text: 'b done' });
    expect(rt.release('/root/a')).toBe(true);
    expect(rt.transcript('/root/a')).toBeUndefined();
    expect(rt.transcript('/root/never')).toBeUndefined();
  });

  it('is the one way to read a dialogue: the runtime has no dialogue() beside it (#23)', () => {
    const rt = createRuntime({ model: scriptedModel({}) });
    expect('dialogue' in rt).toBe(false);
    expect(rt.transcript('/root')?.length).toBe(0);
  });
});
