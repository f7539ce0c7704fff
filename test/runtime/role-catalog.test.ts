import { describe, expect, it } from 'vitest';
import { scriptedModel } from '../../src/model/scripted.js';
import { serializeHead } from '../../src/request/serialize.js';
import { createRuntime } from '../../src/runtime/runtime.js';
import type { RoleDefinition } from '../../src/runtime/roles.js';

const roles: RoleDefinition[] = [
  { name: 'writer', description: 'Drafts text.' },
  { name: 'auditor', description: 'Audits a change for defects.', tools: ['list_agents'] },
  { name: 'linter.v2', description: 'Checks style.' },
];

/** The `Agent` tool's description in the first request an agent made. */
function agentDescription(model: ReturnType<typeof scriptedModel>, path: string): string | undefined {
  const call = model.calls.find((c) => c.agentPath === path);
  return call?.request.system.tools.find((t) => t.name === 'Agent')?.description;
}

describe('the role catalog the model sees', () => {
  it('lists every role with its description in the Agent tool, sorted by name', async () => {
    const model = scriptedModel({ '/root': { 0: [{ text: 'ok' }] } });
    const rt = createRuntime({ model, roles });
    rt.prompt('hi');
    await rt.whenQuiet();
    const description = agentDescription(model, '/root') ?? '';
    expect(description.split('\n').slice(-3)).toEqual(['- auditor: Audits a change for defects.', '- linter.v2: Checks style.', '- writer: Drafts text.']);
  });

  it('changes nothing without roles, or with roleCatalog: false', async () => {
    const plain = scriptedModel({ '/root': { 0: [{ text: 'ok' }] } });
    const off = scriptedModel({ '/root': { 0: [{ text: 'ok' }] } });
    for (const [model, options] of [[plain, {}], [off, { roles, roleCatalog: false as const }]] as const) {
      const rt = createRuntime({ model, ...options });
      rt.prompt('hi');
      await rt.whenQuiet();
    }
    expect(agentDescription(plain, '/root')).not.toMatch(/Roles:/);
    expect(serializeHead(off.calls[0]!.request.system)).toBe(serializeHead(plain.calls[0]!.request.system));
  });

  it('is fixed when the runtime starts: later changes to the roles list change no head', async () => {
    const list = [...roles];
    const model = scriptedModel({ '/root': { 0: [{ text: 'ok' }], 1: [{ text: 'ok' }] } });
    const rt = createRuntime({ model, roles: list });
    rt.prompt('one');
    await rt.whenQuiet();
    list.push({ name: 'aardvark', description: 'Added late.' });
    rt.prompt('two');
    await rt.whenQuiet();
    expect(model.calls).toHaveLength(2);
    expect(serializeHead(model.calls[1]!.request.system)).toBe(serializeHead(model.calls[0]!.request.system));
    expect(agentDescription(model, '/root')).not.toMatch(/aardvark/);
  });

  it('keeps a fork byte-identical to its parent; a role without Agent has no catalog', async () => {
    const model = scriptedModel({
      '/root': {
        0: [
          {
            toolCalls: [
              { name: 'Agent', arguments: { task_name: 'fork', message: 'Look again.', context: 'all' } },
              { name: 'Agent', arguments: { task_name: 'audit', message: 'Audit it.', role: 'auditor' } },
            ],
          },
          { text: 'done' },
        ],
      },
      '/root/*': { 0: [{ text: 'sub done' }] },
    });
    const rt = createRuntime({ model, roles });
    rt.prompt('Start.');
    await rt.whenQuiet();
    const head = (path: string) => serializeHead(model.calls.find((c) => c.agentPath === path)!.request.system);
    expect(head('/root/fork')).toBe(head('/root'));
    expect(head('/root')).toContain('- auditor: Audits a change for defects.');
    expect(head('/root/audit')).not.toContain('Roles:');
    // Guidance matches the tools: the auditor (no Agent, no send_message) is not told to delegate.
    const prompt = (path: string) => model.calls.find((c) => c.agentPath === path)!.request.system.systemPrompt;
    expect(prompt('/root')).toMatch(/delegate work to subagents with the Agent tool/);
    expect(prompt('/root/audit')).toBe('You are an agent.');
    expect(model.calls.find((c) => c.agentPath === '/root/audit')!.request.system.tools.map((t) => t.name)).toEqual(['list_agents']);
  });
});

describe('a catalog too large to list (find_roles)', () => {
  const crowd: RoleDefinition[] = Array.from({ length: 60 }, (_, i) => ({ name: `helper-${String(i).padStart(2, '0')}`, description: `Handles chore number ${i}.` }));
  const all: RoleDefinition[] = [...crowd, { name: 'python-pro', description: 'Writes Python.' }, { name: 'quiet', description: 'Reads only.', tools: ['list_agents'] }];
  const roleCatalog = { maxBytes: 400 };

  it('registers find_roles beside Agent; it finds an unlisted role, and a fork keeps the head', async () => {
    const model = scriptedModel({
      '/root': {
        0: [
          { toolCalls: [{ name: 'find_roles', arguments: { query: 'python' } }] },
          { toolCalls: [{ name: 'Agent', arguments: { task_name: 'fork', message: 'Again.', context: 'all' } }, { name: 'Agent', arguments: { task_name: 'q', message: 'Look.', role: 'quiet' } }] },
          { text: 'done' },
        ],
      },
      '/root/*': { 0: [{ text: 'sub done' }] },
    });
    const rt = createRuntime({ model, roles: all, roleCatalog });
    rt.prompt('Start.');
    await rt.whenQuiet();
    const root = model.calls.find((c) => c.agentPath === '/root')!.request.system;
    expect(root.tools.map((t) => t.name)).toEqual(['Agent', 'send_message', 'list_agents', 'cancel_agent', 'close_agent', 'find_roles']);
    expect(agentDescription(model, '/root')).toMatch(/find_roles searches every role's name and description\.$/);
    expect(agentDescription(model, '/root')).not.toMatch(/python-pro/);
    const found = model.calls[1]!.request.messages.toArray().find((e) => e.kind === 'tool_result');
    expect(found?.kind === 'tool_result' && JSON.parse(found.content)).toEqual({ query: 'python', roles: [{ name: 'python-pro', description: 'Writes Python.' }] });
    const head = (path: string) => serializeHead(model.calls.find((c) => c.agentPath === path)!.request.system);
    expect(head('/root/fork')).toBe(head('/root'));
    // An agent that cannot delegate gets neither the catalog nor its search.
    expect(model.calls.find((c) => c.agentPath === '/root/q')!.request.system.tools.map((t) => t.name)).toEqual(['list_agents']);
  });

  it('keeps find_roles with Agent under a tool list that names only Agent, and drops it with Agent', async () => {
    const roles: RoleDefinition[] = [...all, { name: 'lead', description: 'Leads.', tools: ['Agent', 'send_message'] }, { name: 'mute', description: 'No delegating.', disallowedTools: ['Agent'] }];
    const model = scriptedModel({
      '/root': { 0: [{ toolCalls: [{ name: 'Agent', arguments: { task_name: 'a', message: 'Lead.', role: 'lead' } }, { name: 'Agent', arguments: { task_name: 'b', message: 'Hush.', role: 'mute' } }] }, { text: 'done' }] },
      '/root/*': { 0: [{ text: 'sub done' }] },
    });
    const rt = createRuntime({ model, roles, roleCatalog });
    rt.prompt('Start.');
    await rt.whenQuiet();
    const tools = (path: string) => model.calls.find((c) => c.agentPath === path)!.request.system.tools.map((t) => t.name);
    expect(tools('/root/a')).toEqual(['Agent', 'send_message', 'find_roles']);
    expect(tools('/root/b')).toEqual(['send_message', 'list_agents', 'cancel_agent', 'close_agent']);
  });

  it('answers an unknown role with the closest names and the search tool, not every name', async () => {
    const model = scriptedModel({ '/root': { 0: [{ toolCalls: [{ name: 'Agent', arguments: { task_name: 'x', message: 'Go.', role: 'python' } }] }, { text: 'done' }] } });
    const rt = createRuntime({ model, roles: all, roleCatalog });
    rt.prompt('Start.');
    await rt.whenQuiet();
    const error = model.calls[1]!.request.messages.toArray().find((e) => e.kind === 'tool_result');
    expect(error?.kind === 'tool_result' && error.content).toBe(
      'Error (unknown_role): unknown role "python"; 62 roles are defined; closest names: python-pro; find_roles searches them all by name and description',
    );
  });
});
