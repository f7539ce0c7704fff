/**
 * Claude Code's meaning of `.claude/agents` files, on the fixtures in test/fixtures/claude:
 * a role without `tools:` inherits every tool but Agent, `Agent(worker)` and `Task(a, b)`
 * allow only those roles, and a permission mode that removes a listed tool warns.
 */
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loadDefinitions } from '../../src/load/definitions.js';
import { scriptedModel, type ScriptedModel } from '../../src/model/scripted.js';
import { createCapabilityCatalog } from '../../src/policy/capabilities.js';
import { createRuntime, defineRuntimeTool } from '../../src/runtime/runtime.js';
import type { RuntimeOptions } from '../../src/runtime/types.js';
import type { JsonValue } from '../../src/dialogue/entry.js';

const fixtures = fileURLToPath(new URL('../fixtures/claude', import.meta.url));
const projectDir = join(fixtures, 'project/.claude/agents');
const userDir = join(fixtures, 'user/.claude/agents');

async function load() {
  return loadDefinitions([
    { path: projectDir, scope: 'project' },
    { path: userDir, scope: 'user' },
  ]);
}

/** Tools named as Pi names them, with the capabilities plan mode looks at. */
function tools() {
  const tool = (name: string, capabilities: string[] = []) =>
    defineRuntimeTool({ name, description: `${name} tool.`, schema: z.object({}).passthrough(), capabilities, execute: () => `${name} ran` });
  const bash = defineRuntimeTool({
    name: 'bash',
    description: 'bash tool.',
    schema: z.object({ command: z.string() }),
    capabilities: ['shell'],
    permission: { kind: 'command', subject: (args) => args.command },
    execute: () => 'bash ran',
  });
  return [tool('read'), tool('grep'), tool('find'), tool('ls'), tool('edit', ['write']), tool('write', ['write']), bash];
}

const toolNames = { Read: 'read', Grep: 'grep', Glob: 'find', LS: 'ls', Edit: 'edit', Write: 'write', Bash: 'bash' };
const models = { haiku: 'claude-haiku-4-5', sonnet: 'claude-sonnet-4-5', opus: 'claude-opus-4-1' };

async function runtimeWith(model: ScriptedModel, extra: Partial<RuntimeOptions> = {}) {
  const { definitions } = await load();
  return createRuntime({
    model,
    modelId: 'claude-opus-4-1',
    models,
    tools: tools(),
    toolNames,
    capabilities: createCapabilityCatalog({}),
    roles: definitions.values(),
    confirm: async () => ({ approved: true }),
    ...extra,
  });
}

const toolsOf = (model: ScriptedModel, path: string) => model.calls.find((c) => c.agentPath === path)?.request.system.tools.map((t) => t.name);

function toolResults(model: ScriptedModel, path: string): Array<{ content: string; isError: boolean }> {
  const last = model.calls.filter((c) => c.agentPath === path).at(-1);
  return (last?.request.messages.toArray() ?? []).flatMap((e) => (e.kind === 'tool_result' ? [{ content: e.content, isError: e.isError }] : []));
}

const spawnCall = (task_name: string, role?: string): { name: string; arguments: { readonly [key: string]: JsonValue } } => ({
  name: 'Agent',
  arguments: { task_name, message: 'Work.', ...(role !== undefined ? { role } : {}) },
});

describe('the fixtures load as Claude Code loads them', () => {
  it('keeps the good files, reports the broken one, the shadowed one, unknown keys and the quoted ": " line', async () => {
    const { definitions, warnings, errors } = await load();
    expect([...definitions.keys()].sort()).toEqual(['greeter', 'inheritor', 'lead', 'legacy-lead', 'planner', 'researcher', 'scout', 'silent', 'worker']);
    expect(definitions.get('worker')?.source.scope).toBe('project');
    expect(definitions.get('silent')?.tools).toEqual([]);
    expect(definitions.get('inheritor')?.tools).toBeUndefined();
    expect(definitions.get('inheritor')?.description).toMatch(/^Use this agent when: a change needs a second look/);
    expect(definitions.get('researcher')?.unknownKeys).toEqual(['color', 'memory', 'proactive']);
    expect(errors.map((e) => [e.file, e.code])).toEqual([[join(userDir, 'broken.md'), expect.any(String)]]);
    expect(warnings).toContainEqual(expect.stringMatching(/agent "worker" in .*user\/\.claude\/agents\/worker\.md \(user\) is shadowed by .*project\/\.claude\/agents\/worker\.md \(project\)/));
    expect(warnings.some((w) => w.includes('inheritor.md') && w.includes('description'))).toBe(true);
  });
});

describe('a role without tools:', () => {
  it('inherits its parent’s tools but not Agent', async () => {
    const model = scriptedModel({ '/root/**': { 0: [{ text: 'done' }] } });
    const rt = await runtimeWith(model);
    await (await rt.spawn('/root', { task_name: 'rev', message: 'Review.', role: 'inheritor' })).result;
    expect(toolsOf(model, '/root/rev')).toEqual(['send_message', 'list_agents', 'cancel_agent', 'close_agent', 'read', 'grep', 'find', 'ls', 'edit', 'write', 'bash']);
  });

  it('refuses an Agent call it was never shown', async () => {
    const model = scriptedModel({
      '/root/rev': { 0: [{ toolCalls: [spawnCall('deeper')] }, { text: 'done' }] },
    });
    const rt = await runtimeWith(model);
    await (await rt.spawn('/root', { task_name: 'rev', message: 'Review.', role: 'inheritor' })).result;
    expect(model.calls.map((c) => c.agentPath)).not.toContain('/root/rev/deeper');
    expect(toolResults(model, '/root/rev')[0]).toMatchObject({ isError: true, content: expect.stringMatching(/tool_not_allowed/) });
  });

  it('keeps Agent when the host allows nesting', async () => {
    const model = scriptedModel({ '/root/**': { 0: [{ text: 'done' }] } });
    const rt = await runtimeWith(model, { allowNesting: true });
    await (await rt.spawn('/root', { task_name: 'rev', message: 'Review.', role: 'inheritor' })).result;
    expect(toolsOf(model, '/root/rev')?.[0]).toBe('Agent');
  });

  it('tools: [] gets no tools at all', async () => {
    const model = scriptedModel({ '/root/**': { 0: [{ text: 'done' }] } });
    const rt = await runtimeWith(model, { allowNesting: true });
    await (await rt.spawn('/root', { task_name: 'quiet', message: 'Answer.', role: 'silent' })).result;
    expect(toolsOf(model, '/root/quiet')).toEqual([]);
  });
});

describe('Agent(worker) and Task(worker, scout)', () => {
  it('keep Agent and let the role start only the roles they name', async () => {
    const model = scriptedModel({
      '/root/lead': { 0: [{ toolCalls: [spawnCall('w', 'worker'), spawnCall('s', 'scout'), spawnCall('plain')] }, { text: 'lead done' }] },
      '/root/lead/**': { 0: [{ text: 'piece done' }] },
    });
    const rt = await runtimeWith(model);
    await (await rt.spawn('/root', { task_name: 'lead', message: 'Plan.', role: 'lead' })).result;
    expect(toolsOf(model, '/root/lead')).toEqual(['Agent', 'read', 'grep']);
    const results = toolResults(model, '/root/lead');
    const label = `role "lead" (${join(projectDir, 'lead.md')})`;
    // Results are written in call order (the refusals finished first, but were called later).
    expect(results).toEqual([
      { isError: false, content: expect.stringContaining('"agent_id":"/root/lead/w"') },
      { isError: true, content: `Error (tool_not_allowed): ${label} may start only the roles worker; pass one of them as role (not role "scout")` },
      { isError: true, content: `Error (tool_not_allowed): ${label} may start only the roles worker; pass one of them as role (not a subagent without a role)` },
    ]);
    expect([...new Set(model.calls.map((c) => c.agentPath))].sort()).toEqual(['/root/lead', '/root/lead/w']);
  });

  it('read Task(…) as Agent(…), the older name', async () => {
    const model = scriptedModel({
      '/root/lead': { 0: [{ toolCalls: [spawnCall('s', 'scout'), spawnCall('r', 'researcher')] }, { text: 'lead done' }] },
      '/root/lead/**': { 0: [{ text: 'piece done' }] },
    });
    const rt = await runtimeWith(model);
    expect(rt.warnings.filter((w) => w.role === 'legacy-lead')).toEqual([]);
    await (await rt.spawn('/root', { task_name: 'lead', message: 'Plan.', role: 'legacy-lead' })).result;
    expect(toolsOf(model, '/root/lead')).toEqual(['Agent', 'read']);
    expect(toolResults(model, '/root/lead')).toEqual([
      { isError: false, content: expect.stringContaining('"agent_id":"/root/lead/s"') },
      { isError: true, content: expect.stringMatching(/may start only the roles worker, scout; pass one of them as role \(not role "researcher"\)$/) },
    ]);
  });

  it('hold for the workers’ own subagents too', async () => {
    const model = scriptedModel({
      '/root/lead': { 0: [{ toolCalls: [spawnCall('w', 'worker')] }, { text: 'lead done' }] },
      '/root/lead/w': { 0: [{ text: 'worker done' }] },
    });
    const rt = await runtimeWith(model, { allowNesting: true });
    await (await rt.spawn('/root', { task_name: 'lead', message: 'Plan.', role: 'lead' })).result;
    // Authority only narrows: the worker keeps of its list what the lead has (read), and
    // lists no Agent, so it has none, nesting or not.
    expect(toolsOf(model, '/root/lead/w')).toEqual(['read']);
  });
});

describe('permissionMode', () => {
  it('warns, naming the role, the file and the tool, when it removes a listed tool', async () => {
    const rt = await runtimeWith(scriptedModel({}));
    const file = join(projectDir, 'planner.md');
    expect(rt.warnings.filter((w) => w.role === 'planner')).toEqual([
      {
        role: 'planner',
        file,
        key: 'permissionMode',
        message: `role "planner" (${file}): permissionMode plan removes the tool edit (listed in tools as "edit"), because it grants write; the role does not get it`,
      },
      {
        role: 'planner',
        file,
        key: 'permissionMode',
        message: `role "planner" (${file}): permissionMode plan removes the tool bash (listed in tools as "bash(git diff *)"), because it grants shell; the role does not get it`,
      },
    ]);
  });
});
