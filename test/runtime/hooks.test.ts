import { describe, expect, it } from 'vitest';
import { scriptedModel } from '../../src/model/scripted.js';
import { createRuntime } from '../../src/runtime/runtime.js';
import type { TaskHook } from '../../src/runtime/types.js';
import { deferred, waitForState } from './helpers.js';

const model = () =>
  scriptedModel({
    '/root/**': { 0: [{ text: 'child done' }], summary: (input) => `background for: ${input.task}` },
  });

describe('task hooks', () => {
  it('run once per spawn, in order, and a rewrite focuses the summary on the rewritten task', async () => {
    const calls: string[] = [];
    const hooks: TaskHook[] = [
      (input) => (calls.push(`first:${input.task}`), { allow: true, task: `${input.task} (scoped)` }),
      (input) => (calls.push(`second:${input.task}`), { allow: true }),
    ];
    const m = model();
    const rt = createRuntime({ model: m, taskHooks: hooks });
    rt.prompt('start');
    await rt.whenQuiet();
    const handle = await rt.spawn('/root', { task_name: 'sum', message: 'audit', context: 'summary' });
    const result = await handle.result;
    expect(calls).toEqual(['first:audit', 'second:audit (scoped)']);
    expect(m.summaryCalls.map((c) => c.task)).toEqual(['audit (scoped)']);
    expect(result.status).toBe('completed');
  });

  it('a denial cancels the spawn, releases everything, and the caller gets the reason', async () => {
    const rt = createRuntime({ model: model(), taskHooks: [() => ({ allow: false, reason: 'not during a freeze' })] });
    const handle = await rt.spawn('/root', { task_name: 'nope', message: 'deploy' });
    const report = await handle.firstReport;
    expect(report.kind).toBe('result');
    const result = report.kind === 'result' ? report.result : undefined;
    expect(result).toMatchObject({ status: 'cancelled', stopReason: 'hook_denied', error: 'not during a freeze' });
    expect(rt.slotsInUse).toBe(0);
    expect(rt.list().map((a) => a.path)).toEqual(['/root']);
  });

  it('a throwing hook cancels the spawn with hook_failed', async () => {
    const rt = createRuntime({
      model: model(),
      taskHooks: [
        () => {
          throw new Error('hook exploded');
        },
      ],
    });
    const handle = await rt.spawn('/root', { task_name: 'boom', message: 'x' });
    await expect(handle.result).resolves.toMatchObject({ status: 'cancelled', stopReason: 'hook_failed', error: 'hook exploded' });
    expect(rt.slotsInUse).toBe(0);
  });

  it('while hooks run the agent holds its slot but is not addressable', async () => {
    const gate = deferred<{ allow: true }>();
    const rt = createRuntime({ model: model(), taskHooks: [() => gate.promise] });
    const handle = await rt.spawn('/root', { task_name: 'slow', message: 'x' });
    expect(rt.stateOf('/root/slow')).toBe('reserved.runningHooks');
    expect(rt.slotsInUse).toBe(1);
    expect(() => rt.send('/root', '/root/slow', 'hello')).toThrow(/still starting/);
    gate.resolve({ allow: true });
    await waitForState(rt, '/root/slow', 'settled');
    await expect(handle.result).resolves.toMatchObject({ status: 'completed' });
  });
});
