import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { fileURLToPath } from 'node:url';
import { scriptedModel } from '../../src/model/scripted.js';
import { createCapabilityCatalog } from '../../src/policy/capabilities.js';
import { loadDefinitions } from '../../src/load/definitions.js';
import type { ConfirmCallback, ConfirmationRequest } from '../../src/policy/confirmation.js';
import type { ApprovalCallback, ApprovalDecision } from '../../src/runtime/types.js';
import { createRuntime, defineRuntimeTool } from '../../src/runtime/runtime.js';
import { deferred } from './helpers.js';

const shell = defineRuntimeTool({ name: 'bash', description: 'Runs a command.', schema: z.object({ command: z.string() }), execute: () => 'ok' });
const read = defineRuntimeTool({ name: 'read', description: 'Reads a file.', schema: z.object({ path: z.string() }), execute: () => 'text' });
const catalog = createCapabilityCatalog({ tools: { bash: ['shell'] }, models: { small: 1, large: 3 } });

/** A root that may only read; its subagents get bash unless their role filters it out. */
function session(confirm: ConfirmCallback) {
  const model = scriptedModel({ '/root/**': { 0: [{ text: 'sub done' }] } });
  const rt = createRuntime({
    model,
    modelId: 'small',
    tools: [shell, read],
    capabilities: catalog,
    confirm,
    presets: {
      reader: { name: 'reader', systemPrompt: 'Read only.', tools: ['Agent', 'send_message', 'list_agents', 'cancel_agent', 'close_agent', 'read'] },
      full: { name: 'full', systemPrompt: 'Full.', tools: ['Agent', 'send_message', 'list_agents', 'cancel_agent', 'close_agent', 'read', 'bash'] },
    },
    preset: 'reader',
    roles: [{ name: 'scout', tools: ['read', 'list_agents'] }],
  });
  return { rt, model };
}

describe('capability confirmation', () => {
  it('takes the same answers as approve: a boolean or { approved }, sync or async (#30 item 7)', async () => {
    expectTypeOf<ReturnType<ConfirmCallback>>().toEqualTypeOf<ReturnType<ApprovalCallback>>();
    expectTypeOf<true>().toMatchTypeOf<ApprovalDecision>();
    const yes = session(async () => true).rt;
    expect((await (await yes.spawn('/root', { task_name: 'big', message: 'x', model: 'large' })).result).status).toBe('completed');
    const no = session(() => false).rt;
    await expect(no.spawn('/root', { task_name: 'big', message: 'x', model: 'large' })).rejects.toMatchObject({ code: 'confirmation_denied' });
    const sync = session(() => ({ approved: true })).rt;
    expect((await (await sync.spawn('/root', { task_name: 'big', message: 'x', model: 'large' })).result).status).toBe('completed');
  });

  it('fails closed on an answer that is not a decision, leaving nothing reserved', async () => {
    const { rt, model } = session((() => ({ approved: 'yes' })) as unknown as ConfirmCallback);
    await expect(rt.spawn('/root', { task_name: 'big', message: 'x', model: 'large' })).rejects.toMatchObject({
      code: 'confirmation_failed',
      message: expect.stringMatching(/true, false or \{ approved: boolean/),
    });
    expect(rt.slotsInUse).toBe(0);
    expect(model.calls).toHaveLength(0);
  });

  it('is not asked when the subagent gets nothing its parent lacks (forks included)', async () => {
    const asked: ConfirmationRequest[] = [];
    const { rt } = session(async (r) => (asked.push(r), { approved: true }));
    await (await rt.spawn('/root', { task_name: 'same', message: 'x', context: 'all' }, { lifetime: 'one-shot' })).result;
    await (await rt.spawn('/root', { task_name: 'scout', message: 'x', role: 'scout' })).result;
    expect(asked).toEqual([]);
  });

  it('credits the parent with its own tools however the catalog spells their names', async () => {
    const asked: ConfirmationRequest[] = [];
    const Bash = defineRuntimeTool({ name: 'Bash', description: 'Runs a command.', schema: z.object({ command: z.string() }), execute: () => 'ok' });
    const model = scriptedModel({ '/root/**': { 0: [{ text: 'sub done' }] } });
    const rt = createRuntime({ model, modelId: 'small', tools: [Bash], capabilities: catalog, confirm: async (r) => (asked.push(r), { approved: true }) });
    await (await rt.spawn('/root', { task_name: 'fork', message: 'x', context: 'all' }, { lifetime: 'one-shot' })).result;
    expect(asked).toEqual([]);
  });

  it('asks once for a costlier model; approval starts the subagent', async () => {
    const asked: ConfirmationRequest[] = [];
    const { rt } = session(async (r) => (asked.push(r), { approved: true }));
    const result = await (await rt.spawn('/root', { task_name: 'big', message: 'x', model: 'large' })).result;
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ parentPath: '/root', taskName: 'big' });
    expect(asked[0]!.capabilities.map((c) => c.capability)).toEqual(['cost_tier']);
    expect(result.status).toBe('completed');
  });

  it('a denial is a clear error and leaves nothing reserved', async () => {
    const { rt, model } = session(async () => ({ approved: false, reason: 'budget exhausted' }));
    await expect(rt.spawn('/root', { task_name: 'big', message: 'x', model: 'large' })).rejects.toMatchObject({
      code: 'confirmation_denied',
      message: expect.stringMatching(/budget exhausted/),
    });
    expect(rt.slotsInUse).toBe(0);
    expect(rt.list().map((a) => a.path)).toEqual(['/root']);
    expect(model.calls).toHaveLength(0);
  });

  it('a throwing host callback is a clear error and leaves nothing reserved', async () => {
    const { rt } = session(async () => {
      throw new Error('prompt UI crashed');
    });
    await expect(rt.spawn('/root', { task_name: 'big', message: 'x', model: 'large' })).rejects.toMatchObject({
      code: 'confirmation_failed',
      message: expect.stringMatching(/prompt UI crashed/),
    });
    expect(rt.slotsInUse).toBe(0);
  });

  it('cancelling while the host is asked aborts the question and reserves nothing', async () => {
    const answer = deferred<{ approved: true }>();
    let abortedQuestion = false;
    const { rt } = session((_r, signal) => {
      signal.addEventListener('abort', () => (abortedQuestion = true));
      return answer.promise;
    });
    const controller = new AbortController();
    const pending = rt.spawn('/root', { task_name: 'big', message: 'x', model: 'large' }, { signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ code: 'aborted' });
    expect(abortedQuestion).toBe(true);
    answer.resolve({ approved: true });
    await rt.whenQuiet();
    expect(rt.slotsInUse).toBe(0);
    expect(rt.list().map((a) => a.path)).toEqual(['/root']);
  });

  it('asks before a spawn the host gives an external directory or the project\'s extensions', async () => {
    const asked: ConfirmationRequest[] = [];
    const model = scriptedModel({ '/root/**': { 0: [{ text: 'ok' }] } });
    const rt = createRuntime({
      model,
      capabilities: catalog,
      confirm: async (r) => (asked.push(r), { approved: true }),
      spawnPolicy: (input) => (input.taskName === 'outside' ? { externalDirectories: ['/srv/shared'], inheritsExtensions: true } : undefined),
    });
    await (await rt.spawn('/root', { task_name: 'inside', message: 'x' })).result;
    expect(asked).toEqual([]);
    await (await rt.spawn('/root', { task_name: 'outside', message: 'x' })).result;
    expect(asked.map((r) => r.capabilities.map((c) => c.capability))).toEqual([['external_directory', 'extension_inheritance']]);
    expect(asked[0]!.capabilities[0]!.subjects).toEqual(['/srv/shared']);
  });

  it('a model spawn that is denied gets a tool error it can read', async () => {
    const model = scriptedModel({
      '/root': { 0: [{ toolCalls: [{ name: 'Agent', arguments: { task_name: 'big', message: 'x', model: 'large' } }] }, (req) => ({ text: (req.messages.at(2) as { content: string }).content })] },
    });
    const rt = createRuntime({ model, modelId: 'small', capabilities: catalog, confirm: async () => ({ approved: false }) });
    rt.prompt('go');
    await rt.whenQuiet();
    const last = rt.transcript('/root')!.at(3);
    expect(last?.kind === 'assistant' && last.text).toMatch(/^Error \(confirmation_denied\): the host did not allow starting \/root\/big \(model "large" has cost tier 3, above the granted maximum 1\)$/);
  });
});

describe('roles from definition files', () => {
  it('an unknown role lists the known ones; defaults and allowed contexts apply', async () => {
    const dir = fileURLToPath(new URL('../fixtures/agents/project/.agents', import.meta.url));
    const { definitions } = await loadDefinitions([{ path: dir, scope: 'project' }]);
    const model = scriptedModel({ '/root/**': { 0: [{ text: 'ok' }] } });
    const rt = createRuntime({ model, roles: definitions.values() });
    await expect(rt.spawn('/root', { task_name: 'x', message: 'x', role: 'nobody' })).rejects.toMatchObject({
      code: 'unknown_role',
      message: 'unknown role "nobody"; known roles: planner, reviewer',
    });
    const reviewer = definitions.get('reviewer')!;
    expect(reviewer.contexts).toBeDefined();
    const forbidden = (['none', 'all', 'summary', 2] as const).find((c) => !reviewer.contexts!.includes(typeof c === 'number' ? 'turns' : c));
    if (forbidden !== undefined) {
      await expect(rt.spawn('/root', { task_name: 'r', message: 'x', role: 'reviewer', context: forbidden })).rejects.toMatchObject({ code: 'context_not_allowed' });
    }
    expect(rt.slotsInUse).toBe(0);
  });

  it('an independent subagent gets its role instructions, AGENTS.md and attachments, and no parent transcript', async () => {
    const model = scriptedModel({ '/root': { 0: [{ text: 'secret parent talk' }] }, '/root/ind': { 0: [{ text: 'ok' }] } });
    const rt = createRuntime({ model, projectContext: '# Project rules\nUse tabs.', roles: [{ name: 'linter', instructions: 'Lint carefully.' }] });
    rt.prompt('parent conversation');
    await rt.whenQuiet();
    await (await rt.spawn('/root', { task_name: 'ind', message: 'lint src', role: 'linter', attachments: [{ name: 'diff.patch', content: '+ added line' }] })).result;
    const messages = model.calls.find((c) => c.agentPath === '/root/ind')!.request.messages.toArray();
    expect(messages).toHaveLength(1);
    const text = messages[0]!.kind === 'user' ? messages[0]!.text : '';
    for (const part of ['Lint carefully.', 'Use tabs.', '+ added line', 'diff.patch', 'lint src']) expect(text).toContain(part);
    expect(text).not.toContain('secret parent talk');
    expect(text).not.toContain('parent conversation');
  });
});
