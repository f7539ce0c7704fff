import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { scriptedModel, type ScriptedModel } from '../../src/model/scripted.js';
import { loadDefinitions } from '../../src/load/definitions.js';
import { createRuntime, defineRuntimeTool } from '../../src/runtime/runtime.js';
import type { RoleDefinition } from '../../src/runtime/roles.js';
import type { JsonValue } from '../../src/dialogue/entry.js';

const mixedDir = fileURLToPath(new URL('../fixtures/agents/mixed', import.meta.url));

/** A bash tool that records what it ran; `matched` declares its permission matcher. */
function bashTool(ran: string[], matched = true) {
  return defineRuntimeTool({
    name: 'bash',
    description: 'Runs a command.',
    schema: z.object({ command: z.string() }),
    capabilities: ['shell'],
    ...(matched ? { permission: { kind: 'command' as const, subject: (args: { command: string }) => args.command } } : {}),
    execute: ({ command }) => (ran.push(command), `ran ${command}`),
  });
}

function readTool(read: string[]) {
  return defineRuntimeTool({
    name: 'read_file',
    description: 'Reads a file.',
    schema: z.object({ path: z.string() }),
    permission: { kind: 'path', subject: (args) => args.path },
    execute: ({ path }) => (read.push(path), `text of ${path}`),
  });
}

/** Tool results a subagent saw, from the requests it made. */
function toolResults(model: ScriptedModel, path: string): Array<{ content: string; isError: boolean }> {
  const last = model.calls.filter((c) => c.agentPath === path).at(-1);
  return (last?.request.messages.toArray() ?? []).flatMap((e) => (e.kind === 'tool_result' ? [{ content: e.content, isError: e.isError }] : []));
}

/** The root spawns `/root/sub` with `role`; the subagent makes `calls`, then finishes. */
function scripted(role: string | undefined, calls: Array<{ name: string; arguments: { readonly [key: string]: JsonValue } }>, extra: { readonly [key: string]: JsonValue } = {}) {
  return scriptedModel({
    '/root': { 0: [{ toolCalls: [{ name: 'Agent', arguments: { task_name: 'sub', message: 'Work.', ...(role ? { role } : {}), ...extra } }] }, { text: 'done' }] },
    '/root/sub': { 0: [{ toolCalls: calls }, { text: 'sub done' }] },
  });
}

describe('permission patterns where the tool runs', () => {
  const reviewer: RoleDefinition = { name: 'reviewer', description: 'Reviews.', tools: ['Bash(git diff *)', 'Bash(npm test:*)', 'Agent'] };

  it('runs a call inside the pattern and refuses one outside it as a tool error', async () => {
    const ran: string[] = [];
    const model = scripted('reviewer', [
      { name: 'bash', arguments: { command: 'git diff HEAD~1' } },
      { name: 'bash', arguments: { command: 'rm -rf /' } },
      { name: 'bash', arguments: { command: 'git diff; rm -rf /' } },
    ]);
    const rt = createRuntime({ model, tools: [bashTool(ran)], roles: [reviewer] });
    rt.prompt('Review.');
    await rt.whenQuiet();
    expect(ran).toEqual(['git diff HEAD~1']);
    const results = toolResults(model, '/root/sub');
    expect(results.map((r) => r.isError)).toEqual([false, true, true]);
    expect(results[1]?.content).toBe('Error (tool_not_allowed): role "reviewer" allows bash only for "git diff *", "npm test:*"; this call ("rm -rf /") is outside them');
  });

  it('keeps the role’s limits for the workers it starts', async () => {
    const ran: string[] = [];
    const model = scriptedModel({
      '/root': { 0: [{ toolCalls: [{ name: 'Agent', arguments: { task_name: 'sub', message: 'Work.', role: 'reviewer' } }] }, { text: 'done' }] },
      '/root/sub': { 0: [{ toolCalls: [{ name: 'Agent', arguments: { task_name: 'deeper', message: 'Clean up.', context: 'all' } }] }, { text: 'sub done' }] },
      '/root/sub/deeper': { 0: [{ toolCalls: [{ name: 'bash', arguments: { command: 'rm -rf /' } }] }, { text: 'deeper done' }] },
    });
    const rt = createRuntime({ model, tools: [bashTool(ran)], roles: [reviewer] });
    rt.prompt('Review.');
    await rt.whenQuiet();
    expect(ran).toEqual([]);
    expect(toolResults(model, '/root/sub/deeper')[0]?.isError).toBe(true);
  });

  it('denies a pattern-only tool without a matcher, and warns when the runtime starts', async () => {
    const ran: string[] = [];
    const model = scripted('reviewer', [{ name: 'bash', arguments: { command: 'git diff' } }]);
    const rt = createRuntime({ model, tools: [bashTool(ran, false)], roles: [reviewer] });
    expect(rt.warnings.map((w) => [w.role, w.key, w.message])).toEqual([
      ['reviewer', 'tools', 'role "reviewer": tools entry "Bash(git diff *)" has a pattern, but bash declares no permission matcher to check it against, so the role does not get bash'],
      ['reviewer', 'tools', 'role "reviewer": tools entry "Bash(npm test:*)" has a pattern, but bash declares no permission matcher to check it against, so the role does not get bash'],
    ]);
    rt.prompt('Review.');
    await rt.whenQuiet();
    expect(ran).toEqual([]);
    const sub = model.calls.find((c) => c.agentPath === '/root/sub')!;
    expect(sub.request.system.tools.map((t) => t.name)).toEqual(['Agent']);
    expect(toolResults(model, '/root/sub')[0]?.content).toMatch(/^Error \(tool_not_allowed\)/);
  });

  it('checks file paths against Read(./src/**) under the workspace', async () => {
    const read: string[] = [];
    const model = scripted('src-reader', [
      { name: 'read_file', arguments: { path: 'src/index.ts' } },
      { name: 'read_file', arguments: { path: '/work/repo/src/../.env' } },
      { name: 'read_file', arguments: { path: '/etc/passwd' } },
    ]);
    const roles = [{ name: 'src-reader', description: 'Reads sources.', tools: ['Read(./src/**)'] }];
    const rt = createRuntime({ model, tools: [readTool(read)], roles, toolNames: { Read: 'read_file' }, workspace: '/work/repo' });
    expect(rt.warnings).toEqual([]);
    rt.prompt('Read.');
    await rt.whenQuiet();
    expect(read).toEqual(['src/index.ts']);
    expect(toolResults(model, '/root/sub').map((r) => r.isError)).toEqual([false, true, true]);
  });

  it('a deny pattern leaves the tool but refuses matching calls', async () => {
    const ran: string[] = [];
    const model = scripted('careful', [
      { name: 'bash', arguments: { command: 'git status' } },
      { name: 'bash', arguments: { command: 'git push --force' } },
    ]);
    const roles = [{ name: 'careful', description: 'No pushing.', disallowedTools: ['Bash(git push:*)'] }];
    const rt = createRuntime({ model, tools: [bashTool(ran)], roles });
    rt.prompt('Go.');
    await rt.whenQuiet();
    expect(ran).toEqual(['git status']);
  });
});

describe('tool name mapping', () => {
  it('maps Claude names to the host’s and warns about the rest, naming the role and the file', async () => {
    const { definitions } = await loadDefinitions([{ path: mixedDir, scope: 'project' }]);
    const ran: string[] = [];
    const rt = createRuntime({
      model: scriptedModel({}),
      tools: [bashTool(ran), readTool([])],
      roles: definitions.values(),
      toolNames: { Read: 'read_file', Bash: 'bash' },
      models: { haiku: 'h-1', sonnet: 's-1', opus: 'o-1' },
    });
    const linter = rt.warnings.filter((w) => w.role === 'alpha-linter');
    expect(linter).toEqual([
      {
        role: 'alpha-linter',
        file: join(mixedDir, 'alpha-linter.md'),
        key: 'tools',
        message: `role "alpha-linter" (${join(mixedDir, 'alpha-linter.md')}): tools entry "Grep" names no tool of this runtime (Agent, send_message, list_agents, cancel_agent, close_agent, bash, read_file); add it to the runtime's toolNames option, for example { "Grep": "your_tool" }`,
      },
    ]);
    // beta.writer asks for Write(./notes/**), which this host has no tool for.
    expect(rt.warnings.filter((w) => w.role === 'beta.writer').map((w) => w.message)).toEqual([
      expect.stringContaining('tools entry "Write(./notes/**)" names no tool of this runtime'),
    ]);
  });

  it('gives a mapped role the host tool', async () => {
    const read: string[] = [];
    const model = scripted('reader', [{ name: 'read_file', arguments: { path: 'a.txt' } }]);
    const rt = createRuntime({ model, tools: [readTool(read)], roles: [{ name: 'reader', description: 'Reads.', tools: ['Read'] }], toolNames: { Read: 'read_file' } });
    rt.prompt('Go.');
    await rt.whenQuiet();
    expect(read).toEqual(['a.txt']);
    expect(rt.warnings).toEqual([]);
  });
});
