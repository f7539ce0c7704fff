/**
 * Resume guarantees per state, each checked against what the same session does uninterrupted:
 * an idle continuable subagent's next request (tool filter and persona restored, byte for
 * byte), in-flight tool calls (interrupted unless idempotent), journaled hook outcomes (not
 * asked again), an unfinished summary (generated again), a failing store (the session halts).
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  createJsonlStore,
  createRuntime,
  defineRuntimeTool,
  openJsonlStore,
  resumeRuntime,
  RuntimeError,
  StoreError,
  ZERO_USAGE,
  type ModelAdapter,
  type ModelRequest,
  type RoleDefinition,
  type SampleContext,
  type SessionStore,
  type Summarizer,
} from '../../src/index.js';
import { replayJournal } from '../../src/store/replay.js';
import { serializeRequest } from '../../src/request/index.js';

const work = mkdtempSync(join(tmpdir(), 'guarantees-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
let dirs = 0;

type Reply = { text?: string; calls?: Array<{ id: string; name: string; arguments: Record<string, unknown> }>; hang?: boolean };

/** A model answering by (path, turn, step) and recording every request it gets. */
function recordingModel(script: Record<string, Reply[][]>): ModelAdapter & Summarizer & { requests: Array<{ path: string; request: ModelRequest }>; summaries: string[]; holdSummaries: boolean } {
  const model = {
    name: 'recording',
    requests: [] as Array<{ path: string; request: ModelRequest }>,
    summaries: [] as string[],
    holdSummaries: false,
    async sample(request: ModelRequest, context: SampleContext) {
      model.requests.push({ path: context.agentPath, request });
      const reply = script[context.agentPath]?.[context.turn]?.[context.step] ?? { text: 'done' };
      if (reply.hang) await new Promise<never>((_, reject) => context.signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true }));
      return { text: reply.text ?? '', toolCalls: (reply.calls ?? []) as never, usage: { ...ZERO_USAGE, inputTokens: 1 } };
    },
    async summarize(input: { agentPath: string }, signal: AbortSignal) {
      model.summaries.push(input.agentPath);
      if (model.holdSummaries) await new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true }));
      return { text: `background for ${input.agentPath}`, usage: ZERO_USAGE };
    },
  };
  return model;
}

/** Copies a live session's journal as it is now (the crash), into a fresh directory. */
async function crashCopy(store: SessionStore & { file?: string }): Promise<SessionStore> {
  await store.flush();
  const dir = join(work, `copy${dirs++}`);
  mkdirSync(dir);
  copyFileSync((store as unknown as { file: string }).file, join(dir, `${store.sessionId}.jsonl`));
  return openJsonlStore({ dir, fsync: 'never' });
}

function newStore(): SessionStore {
  return createJsonlStore({ dir: join(work, `s${dirs++}`), fsync: 'never' });
}

const reviewer: RoleDefinition = {
  name: 'reviewer',
  description: 'Reviews changes.',
  instructions: 'You are a careful reviewer. Never approve without reading the diff.',
  tools: ['list_agents', 'send_message'],
} as RoleDefinition;

describe('resume guarantees', () => {
  it('an idle continuable subagent comes back idle; its next request is byte-identical (tool filter and persona restored)', async () => {
    const script = { '/root/rev': [[{ text: 'first look' }], [{ text: 'second look' }]] };
    const run = async (resume: boolean): Promise<string> => {
      const model = recordingModel(script);
      const store = newStore();
      const runtime = createRuntime({ model, store, roles: [reviewer] });
      const handle = await runtime.spawn('/root', { task_name: 'rev', message: 'Review the parser change.', role: 'reviewer' }, { lifetime: 'continuable' });
      await handle.firstReport;
      await runtime.whenQuiet();
      let target = runtime;
      let targetModel = model;
      if (resume) {
        const copy = await crashCopy(store);
        targetModel = recordingModel(script);
        target = resumeRuntime({ model: targetModel, store: copy, roles: [reviewer] });
        expect(target.stateOf('/root/rev')).toBe('running.idle');
        expect(target.list().map((a) => a.path)).toEqual(['/root', '/root/rev']);
      }
      const before = targetModel.requests.length;
      await target.prompt('And the tests?', { to: '/root/rev' });
      const request = targetModel.requests.slice(before).find((r) => r.path === '/root/rev')!.request;
      expect(request.system.tools.map((t) => t.name)).toEqual(['send_message', 'list_agents']);
      expect(request.system.removedTools).toContain('Agent');
      expect(JSON.stringify(request.messages.toArray())).toContain('Never approve without reading the diff.');
      runtime.stop();
      if (target !== runtime) target.stop();
      return serializeRequest(request);
    };
    expect(await run(true)).toBe(await run(false));
  });

  it('an in-flight call of a non-idempotent tool gets an interrupted error; an idempotent one runs again; journaled results are kept', async () => {
    const calls: string[] = [];
    let release: () => void = () => {};
    const tools = [
      defineRuntimeTool({ name: 'deploy', description: 'Deploys.', schema: z.object({}), execute: () => (calls.push('deploy'), new Promise<string>((r) => (release = () => r('deployed')))) }),
      defineRuntimeTool({ name: 'status', description: 'Status.', schema: z.object({}), execute: () => (calls.push('status'), 'green') }),
    ];
    const script = {
      '/root': [[{ calls: [{ id: 'c1', name: 'status', arguments: {} }, { id: 'c2', name: 'deploy', arguments: {} }] }, { text: 'done' }]],
    };
    const store = newStore();
    const runtime = createRuntime({ model: recordingModel(script), store, tools });
    void runtime.prompt('ship it');
    // The step's calls start once the reply is journaled, a turn of the event loop later.
    while (calls.length < 2) await new Promise<void>((r) => setImmediate(r));
    while (runtime.transcript('/root')!.pendingCalls().length !== 1) await new Promise<void>((r) => setImmediate(r));
    const copy = await crashCopy(store);
    const copy2 = await crashCopy(store);
    runtime.stop();
    release();

    calls.length = 0;
    const resumed = resumeRuntime({ model: recordingModel(script), store: copy, tools });
    await resumed.whenQuiet();
    const results = resumed.transcript('/root')!.log.toArray().filter((e) => e.kind === 'tool_result');
    expect(results.map((r) => r.kind === 'tool_result' && [r.callId, r.isError, r.content.slice(0, 20)])).toEqual([
      ['c1', false, 'green'],
      ['c2', true, 'Error (interrupted):'],
    ]);
    expect(calls).toEqual([]);
    resumed.stop();

    const again = resumeRuntime({ model: recordingModel(script), store: copy2, tools, idempotentTools: ['deploy'] });
    await new Promise<void>((r) => setImmediate(r));
    expect(calls).toEqual(['deploy']);
    release();
    await again.whenQuiet();
    const last = again.transcript('/root')!.log.toArray().filter((e) => e.kind === 'tool_result').at(-1);
    expect(last?.kind === 'tool_result' && [last.callId, last.content]).toEqual(['c2', 'deployed']);
    again.stop();
  });

  it('a journaled hook outcome is not asked again; an unfinished summary is generated again', async () => {
    let hookRuns = 0;
    const taskHooks = [(input: { task: string }) => (hookRuns++, { allow: true as const, task: `${input.task} [vetted]` })];
    const script = { '/root/sum': [[{ text: 'summarized work' }]], '/root': [[{ text: 'The parser is in src/parser.ts.' }]] };
    const model = recordingModel(script);
    model.holdSummaries = true;
    const store = newStore();
    const runtime = createRuntime({ model, store, taskHooks });
    // The summary needs a conversation to summarize.
    await runtime.prompt('Where is the parser?');
    const handle = await runtime.spawn('/root', { task_name: 'sum', message: 'Go on from here.', context: 'summary' });
    while (model.summaries.length === 0) await new Promise<void>((r) => setImmediate(r));
    expect(runtime.stateOf('/root/sum')).toBe('preparingSummary');
    expect(hookRuns).toBe(1);
    const copy = await crashCopy(store);
    runtime.stop();
    void handle.result;

    const resumedModel = recordingModel(script);
    const resumed = resumeRuntime({ model: resumedModel, store: copy, taskHooks });
    const result = await resumed.result('/root/sum');
    expect(result.text).toBe('summarized work');
    expect(hookRuns).toBe(1);
    expect(resumedModel.summaries).toEqual(['/root/sum']);
    const first = resumedModel.requests.find((r) => r.path === '/root/sum')!.request.messages.toArray();
    expect(first.map((e) => (e.kind === 'user' ? e.text : '')).join('\n')).toMatch(/background for \/root\/sum[\s\S]*\[vetted\]/);
    resumed.stop();
  });

  it('a subagent whose result was journaled but not delivered is delivered once on resume', async () => {
    const script = { '/root/job': [[{ text: 'job done' }]], '/root': [[{ text: 'idle' }], [{ text: 'noted' }]] };
    const store = newStore();
    const runtime = createRuntime({ model: recordingModel(script), store });
    await runtime.spawn('/root', { task_name: 'job', message: 'Do the job.' }, { delivery: 'parent' });
    await runtime.whenQuiet();
    await store.flush();
    runtime.stop();
    // Cut the journal right after the job's result: its notice never reached the root.
    const file = (store as unknown as { file: string }).file;
    const { readJournal } = await import('../../src/store/jsonl.js');
    const all = readJournal(file, false).records;
    const cut = all.findIndex((r) => r.type === 'result' && r['path'] === '/root/job') + 1;
    const dir = join(work, `cut${dirs++}`);
    mkdirSync(dir);
    const { readFileSync, writeFileSync } = await import('node:fs');
    // The first `cut` lines as written (each sealed with its place and checksum).
    writeFileSync(join(dir, `${store.sessionId}.jsonl`), readFileSync(file, 'utf8').split('\n').slice(0, cut).join('\n') + '\n');
    const reopened = openJsonlStore({ dir, fsync: 'never' });
    const resumed = resumeRuntime({ model: recordingModel(script), store: reopened });
    await resumed.whenQuiet();
    const notices = resumed.transcript('/root')!.log.toArray().filter((e) => e.kind === 'user' && e.origin.kind === 'notice');
    expect(notices).toHaveLength(1);
    expect(resumed.results.map((r) => r.path)).toEqual(['/root/job']);
    await reopened.close();
    // Resumed again from the full journal, the delivered result is not delivered a second time.
    const twice = resumeRuntime({ model: recordingModel(script), store: openJsonlStore({ dir, fsync: 'never' }) });
    await twice.whenQuiet();
    expect(twice.transcript('/root')!.log.toArray().filter((e) => e.kind === 'user' && e.origin.kind === 'notice')).toHaveLength(1);
    twice.stop();
  });

  it('a failing store halts the session: no new work, a halted event, quiet waiters released, a clear error', async () => {
    const store = newStore();
    const runtime = createRuntime({ model: recordingModel({ '/root': [[{ hang: true }]] }), store });
    const halted: StoreError[] = [];
    runtime.on('halted', (e) => halted.push(e.error));
    void runtime.prompt('work');
    const quiet = runtime.whenQuiet();
    (store as unknown as { state: { fail(e: StoreError): void } }).state.fail(new StoreError('store_failed', 'disk gone'));
    await quiet;
    expect(halted.map((e) => e.message)).toEqual(['disk gone']);
    await expect(runtime.prompt('more')).rejects.toMatchObject({ code: 'session_halted', message: expect.stringContaining('disk gone') });
    await expect(runtime.spawn('/root', { task_name: 'x', message: 'y' })).rejects.toBeInstanceOf(RuntimeError);
    expect(() => runtime.send('/root', '/root', 'z')).toThrow(/stopped taking work/);
  });

  it('a journal naming an agent no descriptor spawned is refused with its place', () => {
    const header = { type: 'session', format: 1, sessionId: 's', createdAt: 0 };
    expect(() => replayJournal([header, { type: 'advance', path: '/root/x', state: 'running.idle' }], 'j.jsonl')).toThrow(/j\.jsonl: record 2 names "\/root\/x"/);
    expect(() => replayJournal([{ type: 'advance' }], 'j.jsonl')).toThrow(/no session header/);
  });
});
