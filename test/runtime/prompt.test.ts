import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { manualClock } from '../../src/model/clock.js';
import { scriptedModel } from '../../src/model/scripted.js';
import { createRuntime, defineRuntimeTool } from '../../src/runtime/runtime.js';
import { DEFAULT_MAX_STEPS } from '../../src/runtime/turns.js';
import type { TurnReport } from '../../src/runtime/types.js';
import { errorCode } from '../../src/runtime/errors.js';
import { kinds } from './helpers.js';

const tick = defineRuntimeTool({ name: 'tick', description: 'Does nothing, at once.', schema: z.object({}), execute: () => 'ok' });

describe('await runtime.prompt', () => {
  it("resolves with the root turn's text, status, usage (own and subtree) and the turn's subagent results; the turn event still fires", async () => {
    const model = scriptedModel({
      '/root': {
        0: [
          { toolCalls: [{ name: 'Agent', arguments: { task_name: 'research', message: 'look' } }], usage: { inputTokens: 10, outputTokens: 1 } },
          { text: 'The parser drops a brace.', usage: { inputTokens: 20, outputTokens: 5 } },
        ],
      },
      '/root/research': { 0: [{ text: 'line 88', usage: { inputTokens: 7, outputTokens: 3 } }] },
    });
    const rt = createRuntime({ model });
    const turns: TurnReport[] = [];
    rt.on('turn', (t) => turns.push(t));
    const outcome = await rt.prompt('Why do nested blocks break?');
    expect(outcome).toMatchObject({ path: '/root', turn: 0, text: 'The parser drops a brace.', status: 'completed', stopReason: 'completed' });
    expect(outcome.usage.own).toMatchObject({ inputTokens: 30, outputTokens: 6 });
    expect(outcome.usage.subtree).toMatchObject({ inputTokens: 37, outputTokens: 9 });
    expect(outcome.subagents.map((r) => [r.path, r.text])).toEqual([['/root/research', 'line 88']]);
    expect(turns).toEqual([expect.objectContaining({ path: '/root', turn: 0, text: 'The parser drops a brace.', status: 'completed' })]);

    // The next prompt counts only its own turn.
    const second = await rt.prompt('And now?');
    expect(second).toMatchObject({ turn: 1, status: 'completed', subagents: [] });
    expect(second.usage.own.inputTokens).toBe(0);
  });

  it('a failing model request ends the turn, not the session: the next prompt works', async () => {
    const model = scriptedModel({ '/root': { 0: [{ fail: 'provider exploded' }], 1: [{ text: 'back again' }] } });
    const rt = createRuntime({ model });
    const failed = await rt.prompt('first');
    expect(failed).toMatchObject({ status: 'failed', stopReason: 'model_error', error: 'provider exploded', text: '' });
    expect(rt.stateOf('/root')).toBe('running.idle');
    expect(rt.results).toHaveLength(0);
    await expect(rt.prompt('second')).resolves.toMatchObject({ status: 'completed', text: 'back again', turn: 1 });
  });

  it(`the default step cap (${DEFAULT_MAX_STEPS}) ends a looping turn with what it said so far; the root stays usable`, async () => {
    const model = scriptedModel({
      '/root': {
        0: (_request, { step }) => ({ text: step === 3 ? 'halfway there' : '', toolCalls: [{ name: 'tick' }] }),
        1: [{ text: 'fresh turn' }],
      },
    });
    const rt = createRuntime({ model, tools: [tick] });
    const outcome = await rt.prompt('loop');
    expect(outcome).toMatchObject({ status: 'max_steps', stopReason: 'max_steps', text: 'halfway there' });
    expect(model.calls.filter((c) => c.turn === 0)).toHaveLength(DEFAULT_MAX_STEPS);
    // Every call of the last step has its result, so the transcript stays valid.
    expect(kinds(rt, '/root').at(-1)).toBe('tool_result');
    await expect(rt.prompt('again')).resolves.toMatchObject({ status: 'completed', text: 'fresh turn' });
  });

  it('a continuable subagent that reaches the cap goes idle and takes follow-ups; a one-shot one settles with its text', async () => {
    const loop = (_r: unknown, { step }: { step: number }) => ({ text: step === 0 ? 'started' : '', toolCalls: [{ name: 'tick' }] });
    const model = scriptedModel({ '/root/cont': { 0: loop, 1: [{ text: 'follow-up done' }] }, '/root/once': { 0: loop } });
    const rt = createRuntime({ model, tools: [tick], defaults: { maxSteps: 3 } });
    const cont = await rt.spawn('/root', { task_name: 'cont', message: 'go' }, { lifetime: 'continuable' });
    await expect(cont.firstReport).resolves.toMatchObject({ kind: 'turn', text: 'started' });
    expect(rt.stateOf('/root/cont')).toBe('running.idle');
    await expect(rt.prompt('more', { to: '/root/cont' })).resolves.toMatchObject({ status: 'completed', text: 'follow-up done' });
    const once = await rt.spawn('/root', { task_name: 'once', message: 'go' });
    await expect(once.result).resolves.toMatchObject({ status: 'failed', stopReason: 'max_steps', text: 'started' });
  });

  it('aborting the signal cancels the turn and the subagents it started, reports them, and leaves the root usable', async () => {
    const clock = manualClock();
    const model = scriptedModel(
      {
        '/root': {
          0: [{ toolCalls: [{ name: 'Agent', arguments: { task_name: 'slow', message: 'take your time' } }] }],
          1: [{ text: 'second turn' }],
        },
        '/root/slow': { 0: [{ text: 'never seen', latencyMs: 1_000 }] },
      },
      { clock },
    );
    const rt = createRuntime({ model });
    const controller = new AbortController();
    const pending = rt.prompt('start', { signal: controller.signal });
    await clock.whenPending(1);
    controller.abort();
    const outcome = await pending;
    expect(outcome.status).toBe('cancelled');
    expect(outcome.cancelled?.stopped.map((s) => s.path)).toEqual(['/root/slow', '/root']);
    expect(outcome.subagents.map((r) => [r.path, r.status])).toEqual([['/root/slow', 'cancelled']]);
    expect(clock.pending).toBe(0);
    expect(rt.stateOf('/root')).toBe('running.idle');
    expect(rt.slotsInUse).toBe(0);
    // The interrupted Agent call has an error result, so the next request is a valid transcript.
    const log = rt.transcript('/root')!.log.toArray();
    expect(log.at(-1)).toMatchObject({ kind: 'tool_result', isError: true });
    await expect(rt.prompt('next')).resolves.toMatchObject({ status: 'completed', text: 'second turn' });
  });

  it('a zero-latency model looping on a synchronous tool does not starve a real timer that aborts it', async () => {
    const controller = new AbortController();
    let armed = false;
    // The timer is set by the first request, so it cannot fire before the loop has begun (on a
    // loaded machine the prompt's own start may take longer than a 0 ms timer).
    const model = scriptedModel({
      '/root': {
        0: () => {
          // Without yielding between requests this timer never fires and the test times out.
          if (!armed) setTimeout(() => controller.abort(), 0);
          armed = true;
          return { toolCalls: [{ name: 'tick' }] };
        },
      },
    });
    const rt = createRuntime({ model, tools: [tick], defaults: { maxSteps: Number.MAX_SAFE_INTEGER } });
    const pending = rt.prompt('spin', { signal: controller.signal });
    const outcome = await pending;
    expect(outcome.status).toBe('cancelled');
    expect(model.calls.length).toBeGreaterThan(0);
    expect(rt.stateOf('/root')).toBe('running.idle');
  });

  it('attachments travel with the prompt to the model', async () => {
    const model = scriptedModel({ '/root': { 0: [{ text: 'read it' }] } });
    const rt = createRuntime({ model });
    await rt.prompt('Review this file', { attachments: [{ name: 'a.ts', content: 'export const a = 1;' }] });
    const user = model.calls[0]!.request.messages.toArray().find((e) => e.kind === 'user');
    expect(user).toMatchObject({ text: 'Review this file', attachments: [{ name: 'a.ts', content: 'export const a = 1;' }] });
  });

  it('bad input rejects with a typed error and sends nothing', async () => {
    const model = scriptedModel({ '/root': { 0: [{ text: 'fine' }] } });
    const rt = createRuntime({ model });
    const codes = await Promise.all(
      [
        rt.prompt(''),
        rt.prompt(42 as unknown as string),
        rt.prompt('x', { to: '/root/nobody' }),
        rt.prompt('x', { to: 'root' }),
        rt.prompt('x', { attachments: [{ name: 'a' } as never] }),
        rt.prompt('x', { signal: AbortSignal.abort() }),
      ].map((p) => p.then(() => 'resolved', (e: unknown) => errorCode(e))),
    );
    expect(codes).toEqual(['invalid_arguments', 'invalid_arguments', 'unknown_agent', 'invalid_arguments', 'invalid_arguments', 'aborted']);
    expect(model.calls).toHaveLength(0);
    expect(rt.transcript('/root')!.length).toBe(0);
    await expect(rt.prompt('ok')).resolves.toMatchObject({ text: 'fine' });
  });
});
