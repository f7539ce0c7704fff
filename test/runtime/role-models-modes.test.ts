import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { scriptedModel } from '../../src/model/scripted.js';
import { createCapabilityCatalog } from '../../src/policy/capabilities.js';
import type { ConfirmationRequest } from '../../src/policy/confirmation.js';
import { createRuntime, defineRuntimeTool } from '../../src/runtime/runtime.js';
import type { RoleDefinition } from '../../src/runtime/roles.js';

const models = { haiku: 'claude-haiku', sonnet: 'claude-sonnet', opus: 'claude-opus' };
const subDone = { '/root/**': { 0: [{ text: 'sub done' }] } };

describe('model aliases', () => {
  it('resolve a role’s alias through the models table; inherit is the parent’s model', async () => {
    const model = scriptedModel(subDone);
    const roles: RoleDefinition[] = [
      { name: 'quick', description: 'Fast.', model: 'haiku' },
      { name: 'same', description: 'Same.', model: 'inherit' },
    ];
    // A costlier model needs confirming (without a confirm callback it is refused: test/runtime/authority.test.ts).
    const rt = createRuntime({ model, models, modelId: 'sonnet', roles, confirm: async () => ({ approved: true }) });
    expect(rt.warnings).toEqual([]);
    await (await rt.spawn('/root', { task_name: 'a', message: 'x', role: 'quick' })).result;
    await (await rt.spawn('/root', { task_name: 'b', message: 'x', role: 'same' })).result;
    await (await rt.spawn('/root', { task_name: 'c', message: 'x', model: 'opus' })).result;
    const modelOf = (path: string) => model.calls.find((c) => c.agentPath === path)?.request.model;
    expect([modelOf('/root/a'), modelOf('/root/b'), modelOf('/root/c')]).toEqual(['claude-haiku', 'claude-sonnet', 'claude-opus']);
  });

  it('an unknown alias is a warning at start and an error at spawn, never passed on', async () => {
    const model = scriptedModel(subDone);
    const roles: RoleDefinition[] = [{ name: 'odd', description: 'Odd.', model: 'gpt-9', source: { file: 'agents/odd.md', scope: 'project' } }];
    const rt = createRuntime({ model, models, roles });
    expect(rt.warnings).toEqual([
      {
        role: 'odd',
        file: 'agents/odd.md',
        key: 'model',
        message: 'role "odd" (agents/odd.md): model "gpt-9" is not in the runtime\'s models table (known: inherit, haiku, sonnet, opus); spawning this role fails until the host maps it',
      },
    ]);
    await expect(rt.spawn('/root', { task_name: 'a', message: 'x', role: 'odd' })).rejects.toMatchObject({ code: 'unknown_model' });
    await expect(rt.spawn('/root', { task_name: 'b', message: 'x', model: 'gpt-9' })).rejects.toMatchObject({ code: 'unknown_model' });
    expect(model.calls.some((c) => c.agentPath !== '/root')).toBe(false);
    expect(rt.slotsInUse).toBe(0);
  });

  it('without a table, Claude’s aliases are unknown and other names pass as ids', async () => {
    const model = scriptedModel(subDone);
    const rt = createRuntime({ model, roles: [{ name: 'big', description: 'Big.', model: 'opus' }] });
    expect(rt.warnings.map((w) => w.key)).toEqual(['model']);
    await expect(rt.spawn('/root', { task_name: 'a', message: 'x', role: 'big' })).rejects.toMatchObject({ code: 'unknown_model' });
    await (await rt.spawn('/root', { task_name: 'b', message: 'x', model: 'my-model' })).result;
    expect(model.calls.find((c) => c.agentPath === '/root/b')?.request.model).toBe('my-model');
  });

  it('asks to confirm a costlier model by the table’s order, not a cheaper one', async () => {
    const asked: ConfirmationRequest[] = [];
    const rt = createRuntime({ model: scriptedModel(subDone), models, modelId: 'sonnet', confirm: async (r) => (asked.push(r), { approved: true }) });
    await (await rt.spawn('/root', { task_name: 'cheap', message: 'x', model: 'haiku' })).result;
    expect(asked).toEqual([]);
    await (await rt.spawn('/root', { task_name: 'dear', message: 'x', model: 'opus' })).result;
    expect(asked.map((r) => [r.taskName, r.capabilities.map((c) => c.capability)])).toEqual([['dear', ['cost_tier']]]);
  });
});

describe('permissionMode', () => {
  const tool = (name: string, capabilities: string[]) =>
    defineRuntimeTool({ name, description: `${name} tool.`, schema: z.object({}), capabilities, execute: () => 'ok' });
  const tools = [tool('read_file', []), tool('write_file', ['write']), tool('bash', ['shell'])];
  const catalog = createCapabilityCatalog({});
  const role = (permissionMode: RoleDefinition['permissionMode']): RoleDefinition => ({ name: `r-${permissionMode}`, description: 'd', permissionMode });

  function session(confirm?: (r: ConfirmationRequest) => Promise<{ approved: boolean }>) {
    const asked: ConfirmationRequest[] = [];
    const model = scriptedModel(subDone);
    const rt = createRuntime({
      model,
      tools,
      capabilities: catalog,
      presets: { reader: { name: 'reader', systemPrompt: 'Read.', tools: ['Agent', 'send_message', 'list_agents', 'cancel_agent', 'close_agent', 'read_file', 'write_file', 'bash'] } },
      roles: (['default', 'acceptEdits', 'plan', 'dontAsk', 'bypassPermissions'] as const).map(role),
      models,
      modelId: 'sonnet',
      ...(confirm ? { confirm: async (r: ConfirmationRequest) => (asked.push(r), (await confirm(r)) as { approved: true }) } : {}),
    });
    const toolsOf = (path: string) => model.calls.find((c) => c.agentPath === path)?.request.system.tools.map((t) => t.name);
    return { rt, asked, toolsOf };
  }

  it('plan removes the tools that write or run commands', async () => {
    const { rt, toolsOf } = session(async () => ({ approved: true }));
    await (await rt.spawn('/root', { task_name: 'p', message: 'x', role: 'r-plan' })).result;
    expect(toolsOf('/root/p')).toEqual(['send_message', 'list_agents', 'cancel_agent', 'close_agent', 'read_file']);
  });

  it('acceptEdits and default start without a question when nothing is newly risky', async () => {
    const { rt, asked, toolsOf } = session(async () => ({ approved: true }));
    await (await rt.spawn('/root', { task_name: 'e', message: 'x', role: 'r-acceptEdits' })).result;
    await (await rt.spawn('/root', { task_name: 'd', message: 'x', role: 'r-default' })).result;
    expect(asked).toEqual([]);
    expect(toolsOf('/root/e')).toContain('write_file');
  });

  it('dontAsk refuses instead of asking when something would need a question', async () => {
    const { rt, asked } = session(async () => ({ approved: true }));
    // Nothing risky: it starts.
    await (await rt.spawn('/root', { task_name: 'quiet', message: 'x', role: 'r-dontAsk' })).result;
    // A costlier model would be asked about: refused instead, and nothing is held.
    await expect(rt.spawn('/root', { task_name: 'n', message: 'x', role: 'r-dontAsk', model: 'opus' })).rejects.toMatchObject({
      code: 'confirmation_denied',
      message: expect.stringMatching(/permissionMode dontAsk/),
    });
    expect(asked).toEqual([]);
    expect(rt.slotsInUse).toBe(0);
  });

  it('bypassPermissions always asks, listing bypass_permissions; a denial refuses the spawn', async () => {
    const { rt, asked } = session(async () => ({ approved: false }));
    await expect(rt.spawn('/root', { task_name: 'b', message: 'x', role: 'r-bypassPermissions' })).rejects.toMatchObject({ code: 'confirmation_denied' });
    expect(asked[0]?.capabilities.map((c) => c.capability)).toEqual(['bypass_permissions']);
    expect(rt.slotsInUse).toBe(0);
  });

  it('bypassPermissions starts once the host approves', async () => {
    const { rt, asked } = session(async () => ({ approved: true }));
    const result = await (await rt.spawn('/root', { task_name: 'b', message: 'x', role: 'r-bypassPermissions' })).result;
    expect(result.status).toBe('completed');
    expect(asked).toHaveLength(1);
  });

  it('bypassPermissions without a confirm callback is a warning at start and refused at spawn', async () => {
    const { rt } = session();
    expect(rt.warnings.map((w) => [w.role, w.key])).toEqual([['r-bypassPermissions', 'permissionMode']]);
    await expect(rt.spawn('/root', { task_name: 'b', message: 'x', role: 'r-bypassPermissions' })).rejects.toMatchObject({ code: 'confirmation_denied' });
    // Without a callback nothing else is asked: the other modes start.
    await (await rt.spawn('/root', { task_name: 'd', message: 'x', role: 'r-default' })).result;
  });
});
