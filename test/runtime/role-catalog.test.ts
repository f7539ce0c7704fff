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
