/**
 * The agent machine's lifecycle invariants through a real runtime: a subagent cancelled in
 * any state it can wait in (hooks, summary, model request, tool call, idle) leaves no slot
 * or path held, yields exactly one result, and whatever its pending work produces after the
 * cancel is dropped (no entry, no model request, no result, no event).
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Delivery, Lifetime } from '../../machines/agent.types.js';
import { scriptedModel } from '../../src/model/scripted.js';
import type { ScriptReply } from '../../src/model/script.js';
import { createRuntime, defineRuntimeTool } from '../../src/runtime/runtime.js';
import type { Runtime, TaskHookDecision } from '../../src/runtime/types.js';
import { afterMicrotasks, deferred } from '../../src/testing/deferred.js';

type CancelPoint = 'reserved.runningHooks' | 'preparingSummary' | 'running.working.sampling' | 'running.working.acting' | 'running.idle';

/** Resolves once `path` is in `state` (at once if it already is). */
function reach(rt: Runtime, path: string, state: string): Promise<void> {
  if (rt.stateOf(path) === state) return Promise.resolve();
  return new Promise((resolve) => {
    const off = rt.on('change', (change) => {
      if (change.path === path && change.state === state) {
        off();
        resolve();
      }
    });
  });
}

/** A runtime whose subagent `/root/worker` blocks at `point` until the test opens its gate. */
function gatedSession(point: CancelPoint, delivery: Delivery) {
  const gates = {
    hook: deferred<TaskHookDecision>(),
    summary: deferred<string>(),
    model: deferred<ScriptReply>(),
    tool: deferred<string>(),
  };
  const lifetime: Lifetime = point === 'running.idle' ? 'continuable' : 'one-shot';
  const context = point === 'preparingSummary' ? 'summary' : 'none';
  const workerTurn0: ScriptReply[] | (() => Promise<ScriptReply>)[] =
    point === 'running.working.sampling'
      ? [() => gates.model.promise]
      : point === 'running.working.acting'
        ? [{ toolCalls: [{ name: 'slow' }] }, { text: 'worker done' }]
        : [{ text: 'worker turn done' }];
  const model = scriptedModel({
    '/root': {
      0: [{ toolCalls: [{ name: 'Agent', arguments: { task_name: 'worker', message: 'do the work', context } }] }, { text: 'root done' }],
      1: [{ text: 'root noted the notice' }],
    },
    '/root/worker': { 0: workerTurn0, summary: () => gates.summary.promise },
  });
  const slow = defineRuntimeTool({ name: 'slow', description: 'Waits for the test.', schema: z.object({}), execute: () => gates.tool.promise });
  const rt = createRuntime({
    model,
    tools: [slow],
    spawnPolicy: () => ({ delivery, lifetime }),
    ...(point === 'reserved.runningHooks' ? { taskHooks: [() => gates.hook.promise] } : {}),
  });
  const openAll = () => {
    gates.hook.resolve({ allow: true });
    gates.summary.resolve('late background');
    gates.model.resolve({ toolCalls: [{ name: 'slow' }] });
    gates.tool.resolve('late tool output');
  };
  return { rt, model, openAll };
}

/** Everything a late result could change. */
function observe(rt: Runtime, model: ReturnType<typeof scriptedModel>) {
  let events = 0;
  rt.on('change', () => events++);
  rt.on('result', () => events++);
  rt.on('turn', () => events++);
  return () => ({
    events,
    results: rt.results.length,
    modelCalls: model.calls.length,
    summaryCalls: model.summaryCalls.length,
    rootEntries: rt.transcript('/root')?.length,
    agents: rt.list().map((a) => `${a.path} ${a.state}`),
  });
}

const points: CancelPoint[] = ['reserved.runningHooks', 'preparingSummary', 'running.working.sampling', 'running.working.acting', 'running.idle'];
const cases = points.flatMap((point) => (['caller', 'parent'] as const).map((delivery) => ({ point, delivery })));

describe('cancelling a subagent through the runtime', () => {
  it.each(cases)('in $point with $delivery delivery: nothing held, one result, late work dropped', async ({ point, delivery }) => {
    const { rt, model, openAll } = gatedSession(point, delivery);
    rt.prompt('please delegate');
    await reach(rt, '/root/worker', point);
    expect(rt.slotsInUse).toBe(1);

    const report = rt.cancel('/root/worker', 'test cancel');
    expect(report.stopped).toEqual([{ path: '/root/worker', state: point }]);
    await rt.whenQuiet();

    expect(rt.slotsInUse).toBe(0);
    expect(rt.list().map((a) => a.path)).toEqual(['/root']);
    expect(rt.results.map((r) => [r.path, r.status, r.stopReason])).toEqual([['/root/worker', 'cancelled', 'cancelled']]);
    expect(rt.stateOf('/root')).toBe('running.idle');

    const snapshot = observe(rt, model);
    const before = snapshot();
    openAll();
    await afterMicrotasks();
    expect(snapshot()).toEqual(before);
  });
});

describe('stopping the session', () => {
  it.each(points)('with a subagent in %s: every agent reports once, children first, nothing held', async (point) => {
    const { rt, model, openAll } = gatedSession(point, 'parent');
    rt.prompt('please delegate');
    await reach(rt, '/root/worker', point);

    const report = rt.stop('end of test');
    expect(report.stopped.map((s) => s.path)).toEqual(['/root/worker', '/root']);
    await rt.whenQuiet();

    expect(rt.slotsInUse).toBe(0);
    expect(rt.list()).toEqual([]);
    expect(rt.results.map((r) => [r.path, r.status])).toEqual([
      ['/root/worker', 'cancelled'],
      ['/root', 'cancelled'],
    ]);
    const snapshot = observe(rt, model);
    const before = snapshot();
    openAll();
    await afterMicrotasks();
    expect(snapshot()).toEqual(before);
  });

  it('a fan-out of subagents in different states: one result per spawned path', async () => {
    const summary = deferred<string>();
    const reply = deferred<ScriptReply>();
    const tool = deferred<string>();
    const spawn = (task_name: string, context: string) => ({ name: 'Agent', arguments: { task_name, message: `task ${task_name}`, context } });
    const model = scriptedModel({
      '/root': { 0: [{ toolCalls: [spawn('a', 'summary'), spawn('b', 'none'), spawn('c', 'all')] }, { text: 'waiting for notices' }] },
      '/root/a': { summary: () => summary.promise },
      '/root/b': { 0: [() => reply.promise] },
      '/root/c': { 0: [{ toolCalls: [{ name: 'slow' }] }] },
    });
    const slow = defineRuntimeTool({ name: 'slow', description: 'Waits for the test.', schema: z.object({}), execute: () => tool.promise });
    const rt = createRuntime({ model, tools: [slow], defaults: { delivery: 'parent' } });
    rt.prompt('fan out');
    await Promise.all([reach(rt, '/root/a', 'preparingSummary'), reach(rt, '/root/b', 'running.working.sampling'), reach(rt, '/root/c', 'running.working.acting')]);
    expect(rt.slotsInUse).toBe(3);

    const report = rt.stop();
    expect(report.stopped.at(-1)).toEqual({ path: '/root', state: expect.any(String) });
    expect(report.stopped.slice(0, 3).map((s) => [s.path, s.state])).toEqual([
      ['/root/a', 'preparingSummary'],
      ['/root/b', 'running.working.sampling'],
      ['/root/c', 'running.working.acting'],
    ]);
    await rt.whenQuiet();
    expect(rt.slotsInUse).toBe(0);
    const paths = rt.results.map((r) => r.path);
    expect(paths.sort()).toEqual(['/root', '/root/a', '/root/b', '/root/c']);
    const calls = model.calls.length;
    summary.resolve('late');
    reply.resolve({ text: 'late' });
    tool.resolve('late');
    await afterMicrotasks();
    expect(rt.results).toHaveLength(4);
    expect(model.calls).toHaveLength(calls);
  });
});
