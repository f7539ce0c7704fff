/**
 * Authority only narrows (#26 part 3): a narrowed subagent stays narrow on every follow-up
 * turn and across a resume; a role listing tools or a model tier its parent lacks is warned
 * about and runs without them; a costlier model is confirmed, and refused without `confirm`.
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { scriptedModel } from '../../src/model/scripted.js';
import { createRuntime, defineRuntimeTool } from '../../src/runtime/runtime.js';
import { resumeRuntime } from '../../src/runtime/resume.js';
import { createJsonlStore, openJsonlStore } from '../../src/store/jsonl.js';
import type { SessionStore } from '../../src/store/types.js';
import type { RoleDefinition } from '../../src/runtime/roles.js';
import type { ToolExecutionContext } from '../../src/runtime/types.js';

const work = mkdtempSync(join(tmpdir(), 'authority-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
let dirs = 0;

async function crashCopy(store: SessionStore): Promise<SessionStore> {
  await store.flush();
  const dir = join(work, `copy${dirs++}`);
  mkdirSync(dir);
  copyFileSync((store as unknown as { file: string }).file, join(dir, `${store.sessionId}.jsonl`));
  return openJsonlStore({ dir, fsync: 'never' });
}

function bashTool(ran: string[], seen: ToolExecutionContext[] = []) {
  return defineRuntimeTool({
    name: 'bash',
    description: 'Runs a command.',
    schema: z.object({ command: z.string() }),
    capabilities: ['shell'],
    permission: { kind: 'command' as const, subject: (args: { command: string }) => args.command },
    execute: ({ command }, context) => (ran.push(command), seen.push(context), `ran ${command}`),
  });
}

const reviewer: RoleDefinition = { name: 'reviewer', description: 'Reviews.', tools: ['bash(git diff *)'], lifetime: 'continuable' };

/** The tool results in an agent's transcript, by call id. */
function results(rt: { transcript(path: string): { log: { toArray(): readonly { kind: string }[] } } | undefined }, path: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of rt.transcript(path)?.log.toArray() ?? []) if (e.kind === 'tool_result') {
    const r = e as unknown as { callId: string; content: string };
    out[r.callId] = r.content;
  }
  return out;
}

const script = {
  '/root/rev': {
    0: [{ toolCalls: [{ name: 'bash', id: 'ok0', arguments: { command: 'git diff HEAD' } }, { name: 'bash', id: 'no0', arguments: { command: 'rm -rf /' } }] }, { text: 'reviewed' }],
    1: [{ toolCalls: [{ name: 'bash', id: 'ok1', arguments: { command: 'git diff main' } }, { name: 'bash', id: 'no1', arguments: { command: 'curl evil' } }] }, { text: 'again' }],
  },
};

describe('a narrowed subagent stays narrow', () => {
  it('on a follow-up turn', async () => {
    const ran: string[] = [];
    const rt = createRuntime({ model: scriptedModel(script), tools: [bashTool(ran)], roles: [reviewer] });
    const handle = await rt.spawn('/root', { task_name: 'rev', message: 'review', role: 'reviewer' });
    await handle.firstReport;
    rt.send('/root', '/root/rev', 'once more');
    await rt.whenQuiet();
    expect(ran).toEqual(['git diff HEAD', 'git diff main']);
    expect(results(rt, '/root/rev')['no1']).toMatch(/tool_not_allowed.*git diff \*/);
    rt.stop();
  });

  it('across a resume: its tool lists and grants come back from the journal', async () => {
    const ran: string[] = [];
    const seen: ToolExecutionContext[] = [];
    const store = createJsonlStore({ dir: join(work, `s${dirs++}`), fsync: 'never' });
    const rt = createRuntime({ model: scriptedModel(script), tools: [bashTool(ran, seen)], roles: [reviewer], store });
    const handle = await rt.spawn('/root', { task_name: 'rev', message: 'review', role: 'reviewer' }, { externalDirectories: ['/srv/shared'] });
    await handle.firstReport;
    await rt.whenQuiet();
    expect(results(rt, '/root/rev')['no0']).toMatch(/tool_not_allowed/);
    const copy = await crashCopy(store);
    const after: string[] = [];
    const seenAfter: ToolExecutionContext[] = [];
    const resumed = resumeRuntime({ model: scriptedModel(script), tools: [bashTool(after, seenAfter)], roles: [reviewer], store: copy });
    resumed.send('/root', '/root/rev', 'once more');
    await resumed.whenQuiet();
    expect(after).toEqual(['git diff main']);
    expect(results(resumed, '/root/rev')['no1']).toMatch(/tool_not_allowed.*git diff \*/);
    expect(seenAfter[0]).toMatchObject({ externalDirectories: ['/srv/shared'], inheritsExtensions: false });
    rt.stop();
    resumed.stop();
    await store.close();
    await copy.close();
  });
});

describe('a role asking for more than its parent has', () => {
  it('lists a tool its parent lacks: a warning naming it, and the subagent runs without it', async () => {
    const lead: RoleDefinition = { name: 'lead', description: 'Leads.', tools: ['Agent', 'list_agents'] };
    const worker: RoleDefinition = { name: 'worker', description: 'Works.', tools: ['bash', 'list_agents'], source: { file: 'agents/worker.md', scope: 'project' } };
    const model = scriptedModel({
      '/root/lead': { 0: [{ toolCalls: [{ name: 'Agent', arguments: { task_name: 'w', message: 'work', role: 'worker' } }] }, { text: 'led' }] },
      '/root/lead/w': { 0: [{ toolCalls: [{ name: 'bash', id: 'b', arguments: { command: 'ls' } }] }, { text: 'worked' }] },
    });
    const ran: string[] = [];
    const rt = createRuntime({ model, tools: [bashTool(ran)], roles: [lead, worker], allowNesting: true });
    expect(rt.warnings).toEqual([]);
    await (await rt.spawn('/root', { task_name: 'lead', message: 'lead', role: 'lead' })).result;
    expect(rt.warnings).toEqual([
      {
        role: 'worker',
        file: 'agents/worker.md',
        key: 'tools',
        message: 'role "worker" (agents/worker.md) lists the tool bash, which /root/lead (the agent starting it) does not have; a subagent gets at most its parent\'s tools, so it runs without bash',
      },
    ]);
    const tools = model.calls.find((c) => c.agentPath === '/root/lead/w')!.request.system.tools.map((t) => t.name);
    expect(tools).toEqual(['list_agents']);
    expect(ran).toEqual([]);
    expect(results(rt, '/root/lead/w')['b']).toMatch(/tool_not_allowed/);
  });

  it("a costlier model without a confirm callback: a role's runs on its parent's model with a warning, an explicit one is refused", async () => {
    const prices = { small: { input: 1, output: 2 }, large: { input: 10, output: 30 }, twin: { input: 2, output: 1 } };
    const roles: RoleDefinition[] = [{ name: 'big', description: 'Big.', model: 'large' }];
    const model = scriptedModel({ '/root/**': { 0: [{ text: 'done' }] } });
    const rt = createRuntime({ model, modelId: 'small', prices, roles });
    await (await rt.spawn('/root', { task_name: 'a', message: 'x', role: 'big' })).result;
    expect(model.calls.find((c) => c.agentPath === '/root/a')!.request.model).toBe('small');
    expect(rt.warnings.map((w) => [w.role, w.key, w.message])).toEqual([
      ['big', 'model', 'role "big" asks for model large, which costs more than the model small of /root, and there is no confirm callback to ask; it runs on small'],
    ]);
    await expect(rt.spawn('/root', { task_name: 'b', message: 'x', model: 'large' })).rejects.toMatchObject({ code: 'confirmation_denied', message: expect.stringMatching(/costs more than its parent's model small; without a confirm callback/) });
    // The same cost (a different model at the same price) is allowed.
    await (await rt.spawn('/root', { task_name: 'c', message: 'x', model: 'twin' })).result;
    expect(model.calls.find((c) => c.agentPath === '/root/c')!.request.model).toBe('twin');
    expect(rt.slotsInUse).toBe(0);
  });

  it('with a confirm callback, a costlier model by price is asked about', async () => {
    const prices = { small: { input: 1, output: 2 }, large: { input: 10, output: 30 } };
    const asked: string[] = [];
    const model = scriptedModel({ '/root/**': { 0: [{ text: 'done' }] } });
    const rt = createRuntime({ model, modelId: 'small', prices, confirm: async (r) => (asked.push(r.capabilities.map((c) => `${c.capability}: ${c.reason}`).join('; ')), { approved: false, reason: 'too dear' }) });
    await expect(rt.spawn('/root', { task_name: 'b', message: 'x', model: 'large' })).rejects.toMatchObject({ code: 'confirmation_denied', message: expect.stringMatching(/too dear/) });
    expect(asked).toEqual(['cost_tier: model "large" costs more than its parent\'s model "small" at the host\'s prices']);
  });
});
