/**
 * Approvals that reach the person and survive (#26 part 2): each request says who asks for
 * what and why, a host answers it later through `answerApproval`, each is answered exactly
 * once, requests are journaled (pending again after a crash and resume), cancelling a subtree
 * withdraws its request, and a denial is a tool error naming the rule.
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
import type { ApprovalAnswer, ApprovalRequest, Runtime } from '../../src/runtime/types.js';

const work = mkdtempSync(join(tmpdir(), 'approvals-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
let dirs = 0;

/** Copies a live session's journal as it is now (the crash), into a fresh directory. */
async function crashCopy(store: SessionStore): Promise<SessionStore> {
  await store.flush();
  const dir = join(work, `copy${dirs++}`);
  mkdirSync(dir);
  copyFileSync((store as unknown as { file: string }).file, join(dir, `${store.sessionId}.jsonl`));
  return openJsonlStore({ dir, fsync: 'never' });
}

/** Resolves once `count` requests are pending. */
function pendingCount(rt: Runtime, count: number): Promise<readonly ApprovalRequest[]> {
  return new Promise((resolve) => {
    const check = (): void => {
      if (rt.approvals().length >= count) {
        off();
        resolve(rt.approvals());
      }
    };
    const off = rt.on('approval-requested', () => queueMicrotask(check));
    check();
  });
}

function deployTool(ran: string[]) {
  return defineRuntimeTool({
    name: 'deploy',
    description: 'Deploys.',
    schema: z.object({ env: z.string() }),
    needsApproval: true,
    execute: ({ env }, { path }) => (ran.push(`${path}:${env}`), `deployed ${env}`),
  });
}

const spawnBoth = {
  '/root': {
    0: [
      {
        toolCalls: [
          { name: 'Agent', id: 'ca', arguments: { task_name: 'a', message: 'deploy a' } },
          { name: 'Agent', id: 'cb', arguments: { task_name: 'b', message: 'deploy b' } },
          { name: 'Agent', id: 'cc', arguments: { task_name: 'c', message: 'deploy c' } },
        ],
      },
      { text: 'all done' },
    ],
  },
  '/root/a': { 0: [{ toolCalls: [{ name: 'deploy', id: 'd', arguments: { env: 'a-env' } }] }, { text: 'a done' }] },
  '/root/b': { 0: [{ toolCalls: [{ name: 'deploy', id: 'd', arguments: { env: 'b-env' } }] }, { text: 'b done' }] },
  '/root/c': { 0: [{ toolCalls: [{ name: 'deploy', id: 'd', arguments: { env: 'c-env' } }] }, { text: 'c done' }] },
};

describe('approvals the host answers later', () => {
  it('lists parallel requests in order with who, what and why; each is answered exactly once', async () => {
    const ran: string[] = [];
    const rt = createRuntime({ model: scriptedModel(spawnBoth), tools: [deployTool(ran)], approve: 'queue' });
    const requested: ApprovalRequest[] = [];
    const answered: ApprovalAnswer[] = [];
    rt.on('approval-requested', (r) => requested.push(r));
    rt.on('approval-answered', (a) => answered.push(a));
    const stream = rt.events();
    const streamed = (async () => {
      const seen: string[] = [];
      for await (const e of stream) {
        if (e.type === 'approval-requested') seen.push(`requested ${e.request.id}`);
        if (e.type === 'approval-answered') seen.push(`answered ${e.answer.id}`);
        if (seen.length === 6) return seen;
      }
      return seen;
    })();
    const turn = rt.prompt('ship');
    const pending = await pendingCount(rt, 3);
    expect(pending.map((r) => r.id)).toEqual(['/root/a#d', '/root/b#d', '/root/c#d']);
    expect(pending.map((r) => r.seq)).toEqual([1, 2, 3]);
    expect(pending[0]).toEqual({ id: '/root/a#d', seq: 1, path: '/root/a', role: undefined, toolName: 'deploy', args: { env: 'a-env' }, rule: { kind: 'needsApproval' }, callId: 'd', turn: 0 });
    expect(ran).toEqual([]);
    rt.answerApproval('/root/a#d', true);
    rt.answerApproval('/root/b#d', { approved: false, reason: 'freeze week' });
    rt.answerApproval('/root/c#d', true);
    // Answered once: a second answer finds nothing pending.
    expect(() => rt.answerApproval('/root/a#d', false)).toThrow(expect.objectContaining({ code: 'unknown_approval' }));
    await turn;
    expect(ran.sort()).toEqual(['/root/a:a-env', '/root/c:c-env']);
    expect(answered.map((a) => [a.id, a.approved, a.by])).toEqual([
      ['/root/a#d', true, 'host'],
      ['/root/b#d', false, 'host'],
      ['/root/c#d', true, 'host'],
    ]);
    expect(requested).toHaveLength(3);
    const denied = rt.transcript('/root/b')!.log.toArray().find((e) => e.kind === 'tool_result') as { content: string; isError: boolean };
    expect(denied.isError).toBe(true);
    expect(denied.content).toBe('Error (approval_denied): the host denied this call of deploy, which needed approval (the tool needs approval): freeze week');
    expect(rt.approvals()).toEqual([]);
    expect(await streamed).toEqual(['requested /root/a#d', 'requested /root/b#d', 'requested /root/c#d', 'answered /root/a#d', 'answered /root/b#d', 'answered /root/c#d']);
    rt.stop();
  });

  it('the callback and answerApproval race: the first answer wins, the other is refused', async () => {
    const ran: string[] = [];
    let release!: (v: boolean) => void;
    const rt = createRuntime({
      model: scriptedModel({ '/root': { 0: [{ toolCalls: [{ name: 'deploy', id: 'd', arguments: { env: 'x' } }] }, { text: 'ok' }] } }),
      tools: [deployTool(ran)],
      approve: () => new Promise<boolean>((resolve) => (release = resolve)),
    });
    const turn = rt.prompt('go');
    await pendingCount(rt, 1);
    rt.answerApproval('/root#d', { approved: false, reason: 'no' });
    release(true);
    await turn;
    expect(ran).toEqual([]);
    expect(() => rt.answerApproval('/root#d', true)).toThrow(expect.objectContaining({ code: 'unknown_approval' }));
  });

  it('a malformed decision is refused and leaves the request pending', async () => {
    const rt = createRuntime({ model: scriptedModel({ '/root': { 0: [{ toolCalls: [{ name: 'deploy', id: 'd', arguments: { env: 'x' } }] }, { text: 'ok' }] } }), tools: [deployTool([])], approve: 'queue' });
    const turn = rt.prompt('go');
    await pendingCount(rt, 1);
    expect(() => rt.answerApproval('/root#d', 'yes' as never)).toThrow(expect.objectContaining({ code: 'invalid_arguments' }));
    expect(rt.approvals().map((r) => r.id)).toEqual(['/root#d']);
    rt.answerApproval('/root#d', true);
    await expect(turn).resolves.toMatchObject({ status: 'completed' });
  });

  it('approval rules: a permission pattern and a risky capability ask, and the denial names the rule', async () => {
    const ran: string[] = [];
    const bash = defineRuntimeTool({
      name: 'Bash',
      description: 'Runs a command.',
      schema: z.object({ command: z.string() }),
      capabilities: ['shell'],
      permission: { kind: 'command', subject: (args: { command: string }) => args.command },
      execute: ({ command }) => (ran.push(command), 'ran'),
    });
    const write = defineRuntimeTool({ name: 'write', description: 'Writes.', schema: z.object({}), capabilities: ['write'], execute: () => (ran.push('write'), 'wrote') });
    const model = scriptedModel({
      '/root': {
        0: [
          {
            toolCalls: [
              { name: 'Bash', id: 'ls', arguments: { command: 'ls' } },
              { name: 'Bash', id: 'push', arguments: { command: 'git push origin' } },
              { name: 'write', id: 'w', arguments: {} },
            ],
          },
          { text: 'ok' },
        ],
      },
    });
    const asked: ApprovalRequest[] = [];
    const rt = createRuntime({ model, tools: [bash, write], approvalRules: { patterns: ['Bash(git push *)'], capabilities: ['write'] }, approve: (r) => (asked.push(r), false) });
    await rt.prompt('go');
    expect(asked.map((r) => [r.callId, r.rule])).toEqual([
      ['push', { kind: 'permission', pattern: 'Bash(git push *)' }],
      ['w', { kind: 'capability', capability: 'write' }],
    ]);
    expect(ran).toEqual(['ls']);
    const results = rt.transcript('/root')!.log.toArray().flatMap((e) => (e.kind === 'tool_result' ? [e.content] : []));
    expect(results).toContain('Error (approval_denied): the host denied this call of Bash, which needed approval (it matches the approval pattern "Bash(git push *)")');
    expect(results).toContain('Error (approval_denied): the host denied this call of write, which needed approval (the tool has the risky capability write)');
  });

  it('an Agent call asking for a budget above the host threshold asks first', async () => {
    const model = scriptedModel({
      '/root': { 0: [{ toolCalls: [{ name: 'Agent', id: 'big', arguments: { task_name: 'big', message: 'x', budget: { tokens: 50_000 } } }, { name: 'Agent', id: 'small', arguments: { task_name: 'small', message: 'x', budget: { tokens: 5_000 } } }] }, { text: 'ok' }] },
    });
    const asked: ApprovalRequest[] = [];
    const rt = createRuntime({ model, budget: { tokens: 1_000_000 }, approvalRules: { budgetAbove: { tokens: 10_000 } }, approve: (r) => (asked.push(r), { approved: false, reason: 'too much' }) });
    await rt.prompt('go');
    expect(asked.map((r) => [r.toolName, r.callId, r.rule])).toEqual([['Agent', 'big', { kind: 'budget', dimension: 'tokens', asked: 50_000, threshold: 10_000 }]]);
    expect(rt.results.map((r) => r.path)).toEqual(['/root/small']);
    const big = rt.transcript('/root')!.log.toArray().find((e) => e.kind === 'tool_result' && e.callId === 'big') as { content: string };
    expect(big.content).toMatch(/approval_denied.*budget of 50000 tokens, above the host's threshold of 10000 tokens.*too much/);
  });
});

describe('approvals across a crash', () => {
  it('pending again after resume, in order; each answered exactly once; a cancelled subtree withdraws its request', async () => {
    const before: string[] = [];
    const store = createJsonlStore({ dir: join(work, `s${dirs++}`), fsync: 'never' });
    const rt = createRuntime({ model: scriptedModel(spawnBoth), tools: [deployTool(before)], approve: 'queue', store });
    rt.prompt('ship');
    const pending = await pendingCount(rt, 3);
    // The crash: the journal as it is now; the old runtime is abandoned while all three wait.
    const copy = await crashCopy(store);
    const ran: string[] = [];
    const answered: ApprovalAnswer[] = [];
    const requested: string[] = [];
    const resumed = resumeRuntime({ model: scriptedModel(spawnBoth), tools: [deployTool(ran)], approve: 'queue', store: copy });
    resumed.on('approval-answered', (a) => answered.push(a));
    resumed.on('approval-requested', (r) => requested.push(r.id));
    const again = await pendingCount(resumed, 3);
    expect(again).toEqual(pending);
    expect(requested).toEqual(['/root/a#d', '/root/b#d', '/root/c#d']);
    // Cancelling c's subtree withdraws its request.
    resumed.cancel('/root/c', 'not needed');
    expect(resumed.approvals().map((r) => r.id)).toEqual(['/root/a#d', '/root/b#d']);
    expect(() => resumed.answerApproval('/root/c#d', true)).toThrow(expect.objectContaining({ code: 'unknown_approval' }));
    for (const request of resumed.approvals()) resumed.answerApproval(request.id, true);
    await resumed.whenQuiet();
    expect(ran).toEqual(['/root/a:a-env', '/root/b:b-env']);
    expect(before).toEqual([]);
    expect(answered.map((a) => [a.id, a.by])).toEqual([
      ['/root/c#d', 'withdrawn'],
      ['/root/a#d', 'host'],
      ['/root/b#d', 'host'],
    ]);
    expect((await resumed.result('/root/c')).status).toBe('cancelled');

    // A second crash after the answers: the journal holds them, so nothing is asked again
    // and nothing runs twice (the approved calls ran before; they are interrupted, not repeated).
    const copy2 = await crashCopy(copy);
    const third: string[] = [];
    const rt3 = resumeRuntime({ model: scriptedModel(spawnBoth), tools: [deployTool(third)], approve: 'queue', store: copy2 });
    await rt3.whenQuiet();
    expect(rt3.approvals()).toEqual([]);
    expect(third).toEqual([]);
    rt.stop();
    resumed.stop();
    rt3.stop();
    await store.close();
    await copy.close();
    await copy2.close();
  });

  it('a denial the journal holds answers the call again after resume, without asking', async () => {
    const store = createJsonlStore({ dir: join(work, `s${dirs++}`), fsync: 'never' });
    const ran: string[] = [];
    const model = scriptedModel({ '/root': { 0: [{ toolCalls: [{ name: 'deploy', id: 'd', arguments: { env: 'x' } }, { name: 'deploy', id: 'e', arguments: { env: 'y' } }] }, { text: 'ok' }] } });
    const rt = createRuntime({ model, tools: [deployTool(ran)], approve: 'queue', store });
    rt.prompt('go');
    await pendingCount(rt, 2);
    rt.answerApproval('/root#d', { approved: false, reason: 'no' });
    const copy = await crashCopy(store);
    const asked: string[] = [];
    const resumed = resumeRuntime({ model, tools: [deployTool(ran)], approve: 'queue', store: copy });
    resumed.on('approval-requested', (r) => asked.push(r.id));
    await pendingCount(resumed, 1);
    expect(asked).toEqual(['/root#e']);
    resumed.answerApproval('/root#e', true);
    await resumed.whenQuiet();
    expect(ran).toEqual(['/root:y']);
    const results = resumed.transcript('/root')!.log.toArray().flatMap((e) => (e.kind === 'tool_result' ? [[e.callId, e.content]] : []));
    expect(results).toEqual([
      ['d', 'Error (approval_denied): the host denied this call of deploy, which needed approval (the tool needs approval): no'],
      ['e', 'deployed y'],
    ]);
    rt.stop();
    resumed.stop();
    await store.close();
    await copy.close();
  });
});

describe('approval options', () => {
  it('are checked at start: a typo throws a TypeError naming the option', () => {
    const model = scriptedModel({});
    expect(() => createRuntime({ model, approve: 'later' as never })).toThrow(/RuntimeOptions.approve must be a function or 'queue'/);
    expect(() => createRuntime({ model, approvalRules: { pattern: ['x'] } as never })).toThrow(/"pattern" is not a rule/);
    expect(() => createRuntime({ model, approvalRules: { capabilities: ['shel'] } as never })).toThrow(/capabilities must be an array of write, shell/);
    expect(() => createRuntime({ model, approvalRules: { budgetAbove: { token: 5 } } as never })).toThrow(/"token" is not a budget field/);
    expect(() => createRuntime({ model, approve: 'queue', approvalRules: { patterns: ['Bash(rm *)'], capabilities: ['write'], budgetAbove: { tokens: 5 } } })).not.toThrow();
  });
});
