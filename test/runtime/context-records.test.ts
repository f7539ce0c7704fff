/**
 * What the context-selection record promises about a subagent's model settings, its snapshot
 * and its generated background, checked through the runtime (issue #30.2). Each of these held
 * in the code, but a defect planted in it passed every other test.
 */
import { describe, expect, it } from 'vitest';
import type { Entry } from '../../src/dialogue/entry.js';
import { scriptedModel } from '../../src/model/scripted.js';
import type { ModelRequest } from '../../src/request/types.js';
import { createRuntime } from '../../src/runtime/runtime.js';
import type { RoleDefinition } from '../../src/runtime/roles.js';
import { afterMicrotasks } from '../../src/testing/deferred.js';
import { deferred } from './helpers.js';

/** An entry's content, without its random id: what a subagent's model is shown. */
const content = (entry: Entry): unknown => {
  const { id: _id, ...rest } = entry;
  return rest;
};
const texts = (entries: Iterable<Entry>): string[] => [...entries].flatMap((e) => (e.kind === 'user' || e.kind === 'assistant' ? [e.text] : e.kind === 'tool_result' ? [e.content] : []));

describe('effort on the runtime path', () => {
  it("reaches the subagent's requests: the call's, else its role's, else its parent's", async () => {
    const roles: RoleDefinition[] = [{ name: 'skimmer', description: 'Skims.', effort: 'low' }];
    const model = scriptedModel({
      '/root': { 0: [{ toolCalls: [{ name: 'Agent', id: 's1', arguments: { task_name: 'deep', message: 'Think hard.', effort: 'high' } }] }, { text: 'done' }] },
      '/root/deep': { 0: [{ toolCalls: [{ name: 'Agent', id: 's2', arguments: { task_name: 'inner', message: 'Go on.' } }] }, { text: 'deep done' }] },
      '/root/deep/inner': { 0: [{ text: 'inner done' }] },
      '/root/**': { 0: [{ text: 'done' }] },
    });
    const rt = createRuntime({ model, roles });
    rt.prompt('Start.');
    await rt.whenQuiet();
    await (await rt.spawn('/root', { task_name: 'quick', message: 'Skim it.', role: 'skimmer' })).result;
    await (await rt.spawn('/root', { task_name: 'mixed', message: 'Skim it well.', role: 'skimmer', effort: 'medium' })).result;
    const efforts = (path: string) => model.calls.filter((c) => c.agentPath === path).map((c) => c.request.effort);
    expect(efforts('/root/deep')).toEqual(['high', 'high']);
    expect(efforts('/root/deep/inner')).toEqual(['high']);
    expect(efforts('/root/quick')).toEqual(['low']);
    expect(efforts('/root/mixed')).toEqual(['medium']);
    rt.stop();
  });
});

describe('a fork beside a sibling that is still running', () => {
  it('takes its snapshot and answers at once, without waiting for the sibling', async () => {
    const order: string[] = [];
    const forkSaw: ModelRequest[] = [];
    const model = scriptedModel({
      '/root': {
        0: [
          {
            toolCalls: [
              { name: 'Agent', id: 'slow-call', arguments: { task_name: 'slow', message: 'Take your time.' } },
              { name: 'Agent', id: 'fork-call', arguments: { task_name: 'fork', message: 'Look at it with me.', context: 'all' } },
            ],
          },
          { text: 'both back' },
        ],
      },
      // The sibling answers once the fork has asked its model; a fork that waited for the
      // sibling would never ask first, so after many idle turns of the event loop it answers anyway.
      '/root/slow': {
        0: [
          async () => {
            for (let turns = 0; turns < 1_000 && forkSaw.length === 0; turns++) await afterMicrotasks();
            order.push('sibling answered');
            return { text: 'slow done' };
          },
        ],
      },
      '/root/fork': { 0: [(request) => (order.push('fork asked'), forkSaw.push(request), { text: 'fork done' })] },
    });
    const rt = createRuntime({ model });
    // The root's turn ends once both calls are answered (the fork's by its first answer).
    await rt.prompt('Review the release.');
    expect(order).toEqual(['fork asked', 'sibling answered']);
    const seen = texts(forkSaw[0]!.messages);
    expect(seen).toContain('Review the release.');
    expect(seen.join('\n')).not.toContain('slow done');
    // The sibling's call has no result in what the fork was shown (nothing waited for one).
    expect(forkSaw[0]!.messages.toArray().some((e) => e.kind === 'tool_result')).toBe(false);
    rt.close('/root/fork');
    await rt.whenQuiet();
    expect(rt.results.map((r) => [r.path, r.status])).toEqual(expect.arrayContaining([['/root/slow', 'completed'], ['/root/fork', 'completed']]));
    rt.stop();
  });
});

/** A root with two finished turns, and a summary subagent's script that records every request. */
function summarySession(options: { summary?: (input: { entries: Iterable<Entry>; task: string }) => Promise<string> | string; taskHooks?: Parameters<typeof createRuntime>[0]['taskHooks'] } = {}) {
  const childSaw: ModelRequest[] = [];
  const answer = (text: string) => (request: ModelRequest) => (childSaw.push(request), { text });
  const model = scriptedModel({
    '/root': {
      0: [{ text: 'first answer' }],
      1: [{ text: 'second answer' }],
      2: [{ text: 'third answer' }],
      3: [{ text: 'fourth answer' }],
      4: [{ toolCalls: [{ name: 'Agent', id: 'spawn-1', arguments: { task_name: 'child', message: 'Write the notes.', context: 'summary' } }] }, { text: 'root done' }],
    },
    '/root/child': {
      0: [answer('notes, first draft')],
      1: [answer('notes, second draft')],
      summary: options.summary ?? ((input) => `BACKGROUND for ${input.task}: ${texts(input.entries).join(' / ')}`),
    },
  });
  const rt = createRuntime({ model, ...(options.taskHooks ? { taskHooks: options.taskHooks } : {}) });
  return { rt, model, childSaw };
}

async function prompts(rt: ReturnType<typeof createRuntime>, ...list: string[]): Promise<void> {
  for (const text of list) {
    rt.prompt(text);
    await rt.whenQuiet();
  }
}

describe('a summary subagent', () => {
  it("keeps its generated background in every follow-up turn's request", async () => {
    const { rt, model, childSaw } = summarySession();
    await prompts(rt, 'question one', 'question two');
    const handle = await rt.spawn('/root', { task_name: 'child', message: 'Write the notes.', context: 'summary' }, { lifetime: 'continuable' });
    await handle.firstReport;
    rt.send('/root', '/root/child', 'Now shorter, please.');
    await rt.whenQuiet();
    expect(childSaw).toHaveLength(2);
    const [first, followUp] = childSaw.map((r) => r.messages.toArray());
    expect(first![0]).toMatchObject({ kind: 'user', origin: { kind: 'background' } });
    expect(first![0]!.kind === 'user' && first![0]!.text).toMatch(/^BACKGROUND for Write the notes\.: question one/);
    // The follow-up's request starts with the same background and task, then the first turn.
    expect(followUp!.slice(0, first!.length)).toEqual(first);
    expect(texts(followUp!.slice(first!.length))).toEqual(['notes, first draft', 'Now shorter, please.']);
    expect(model.summaryCalls).toHaveLength(1);
    rt.stop();
  });

  it('never sees parent turns that come after its snapshot, in its background or its requests', async () => {
    const { rt, model, childSaw } = summarySession();
    await prompts(rt, 'question one', 'question two');
    const handle = await rt.spawn('/root', { task_name: 'child', message: 'Write the notes.', context: 'summary' }, { lifetime: 'continuable' });
    await handle.firstReport;
    await prompts(rt, 'question three');
    rt.send('/root', '/root/child', 'Anything new?');
    await rt.whenQuiet();
    expect(childSaw).toHaveLength(2);
    expect(texts(model.summaryCalls[0]!.entries)).toEqual(['question one', 'first answer', 'question two', 'second answer']);
    for (const request of childSaw) {
      const seen = texts(request.messages).join('\n');
      expect(seen).not.toContain('question three');
      expect(seen).not.toContain('third answer');
    }
    expect(texts(rt.transcript('/root/child')!.log).join('\n')).not.toContain('question three');
    rt.stop();
  });

  it('leaves the parent preparation metadata and a link to the subagent, never a copy of the background', async () => {
    const { rt, model } = summarySession();
    await prompts(rt, 'question one', 'question two', 'question three', 'question four', 'Delegate the notes.');
    // One-shot by default: settled by now, its transcript kept.
    const background = rt.transcript('/root/child')!.at(0)!;
    expect(background).toMatchObject({ kind: 'user', origin: { kind: 'background' } });
    const backgroundText = background.kind === 'user' ? background.text : '';
    expect(backgroundText).toMatch(/^BACKGROUND for Write the notes\./);
    // The parent's record of the spawn: the call's result names the subagent and its context.
    const parentLog = rt.transcript('/root')!.log.toArray();
    const spawnResult = parentLog.find((e) => e.kind === 'tool_result' && e.callId === 'spawn-1');
    expect(spawnResult?.kind === 'tool_result' && JSON.parse(spawnResult.content)).toMatchObject({ agent_id: '/root/child', context: 'summary' });
    // Nothing of the parent's, in its dialogue or in what its model was sent, holds the background.
    for (const text of texts(parentLog)) expect(text).not.toContain('BACKGROUND');
    for (const call of model.calls.filter((c) => c.agentPath === '/root')) expect(texts(call.request.messages).join('\n')).not.toContain('BACKGROUND');
    // The background's cost is the subagent's, and it lives in the subagent's transcript alone.
    expect(rt.results.find((r) => r.path === '/root/child')).toMatchObject({ contextMode: 'summary', context: 'summary' });
    rt.stop();
  });

  it('is the same whether or not the parent moves on before and during its generation', async () => {
    /** The subagent's dialogue and requests, with `parentMovesOn` run while its hooks and then its summary are pending. */
    async function childOf(parentMovesOn: boolean) {
      const hookMayAllow = deferred<void>();
      const hookStarted = deferred<void>();
      const summaryMayAnswer = deferred<void>();
      const summaryStarted = deferred<void>();
      const { rt, model, childSaw } = summarySession({
        taskHooks: [async () => (hookStarted.resolve(), await hookMayAllow.promise, { allow: true })],
        summary: async (input) => {
          summaryStarted.resolve();
          await summaryMayAnswer.promise;
          return `BACKGROUND for ${input.task}: ${texts(input.entries).join(' / ')}`;
        },
      });
      await prompts(rt, 'question one', 'question two');
      const handle = rt.spawn('/root', { task_name: 'child', message: 'Write the notes.', context: 'summary' }, { lifetime: 'continuable' });
      await hookStarted.promise;
      // Before generation: the parent answers a turn while the hooks decide (the tree is not
      // quiet then, so the turn's own outcome is awaited).
      if (parentMovesOn) await rt.prompt('question three');
      hookMayAllow.resolve();
      await summaryStarted.promise;
      // During generation: and another while the background is written.
      if (parentMovesOn) await rt.prompt('question four');
      summaryMayAnswer.resolve();
      await (await handle).firstReport;
      const child = {
        log: rt.transcript('/root/child')!.log.toArray().map(content),
        requests: childSaw.map((r) => r.messages.toArray().map(content)),
        summaryInput: texts(model.summaryCalls[0]!.entries),
      };
      const parentTurns = texts(rt.transcript('/root')!.log).filter((t) => t.startsWith('question'));
      rt.stop();
      return { child, parentTurns };
    }
    const still = await childOf(false);
    const moving = await childOf(true);
    expect(moving.parentTurns).toEqual(['question one', 'question two', 'question three', 'question four']);
    expect(still.parentTurns).toEqual(['question one', 'question two']);
    expect(moving.child).toEqual(still.child);
    expect(moving.child.summaryInput).toEqual(['question one', 'first answer', 'question two', 'second answer']);
  });
});
