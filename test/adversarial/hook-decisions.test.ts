/**
 * Malformed task-hook decisions (the second campaign's eleventh defect). Hooks are host code,
 * and before this a mistaken verdict failed open: `{ allow: "false" }` or `{ allow: 1 }` let
 * the spawn through, an empty or numeric rewritten task was accepted, an object task ended
 * the subagent as `internal_error`, and an object reason became `result.error` as is. Now only
 * the boolean `allow: true` allows; anything that is not a decision fails the spawn as
 * `hook_failed` with a message naming the hook and what was wrong, and nothing runs.
 */
import { describe, expect, it } from 'vitest';
import { createRuntime } from '../../src/runtime/runtime.js';
import type { TaskHook } from '../../src/runtime/types.js';
import { MAX_ERROR_TEXT } from '../../src/dialogue/error-text.js';
import { hostileModel, toolResultsOf } from './helpers.js';

const usage = { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 };
const reply = (text: string) => ({ text, toolCalls: [], usage });
const hook = (decision: () => unknown): TaskHook => () => decision() as never;
const throwingProxy = () =>
  new Proxy({}, {
    get() {
      throw new Error('trap');
    },
  });

/** Verdicts that are not decisions, with what the error must say. */
const MALFORMED: ReadonlyArray<[string, () => unknown, RegExp]> = [
  ['allow: "false"', () => ({ allow: 'false' }), /allow must be true or false, got the string "false"/],
  ['allow: "true"', () => ({ allow: 'true' }), /allow must be true or false, got the string "true"/],
  ['allow: 1', () => ({ allow: 1 }), /allow must be true or false, got the number 1/],
  ['allow: 0', () => ({ allow: 0 }), /allow must be true or false, got the number 0/],
  ['no allow', () => ({ task: 'x' }), /allow must be true or false, got undefined/],
  ['the number 1', () => 1, /expected \{ allow: true \} or \{ allow: false, reason \}, got the number 1/],
  ['true', () => true, /got the boolean true/],
  ['undefined', () => undefined, /got undefined/],
  ['null', () => null, /got null/],
  ['an array', () => [true], /got an array/],
  ['an empty task', () => ({ allow: true, task: '' }), /task must not be empty/],
  ['a blank task', () => ({ allow: true, task: ' \n\t ' }), /task must not be empty/],
  ['a numeric task', () => ({ allow: true, task: 42 }), /task must be a string, got the number 42/],
  ['an object task', () => ({ allow: true, task: { text: 'do it' } }), /task must be a string, got an object/],
  ['a Proxy whose traps throw', throwingProxy, /trap/],
];

describe('a task hook’s verdict fails closed', () => {
  it.each(MALFORMED)('%s: the spawn fails as hook_failed, names the hook, and nothing runs', async (_name, decision, named) => {
    const later: string[] = [];
    const model = hostileModel(() => reply('child ran'));
    const rt = createRuntime({ model, taskHooks: [hook(() => ({ allow: true })), hook(decision), () => (later.push('third'), { allow: true })] });
    const handle = await rt.spawn('/root', { task_name: 'w', message: 'work' });
    const result = await handle.result;
    expect(result).toMatchObject({ status: 'cancelled', stopReason: 'hook_failed' });
    expect(result.error).toMatch(named);
    if (!/trap/.test(named.source)) expect(result.error).toMatch(/^task hook 2 returned an invalid decision: /);
    expect(model.calls).toHaveLength(0);
    expect(later).toEqual([]);
    expect(rt.slotsInUse).toBe(0);
    expect(rt.list().map((a) => a.path)).toEqual(['/root']);
  });

  it('the model’s Agent call gets the typed failure as its tool result', async () => {
    const model = hostileModel(({ agentPath, step }) =>
      agentPath === '/root' && step === 0 ? { text: '', toolCalls: [{ id: 'a', name: 'Agent', arguments: { task_name: 'w', message: 'm' } }], usage } : reply('done'),
    );
    const rt = createRuntime({ model, taskHooks: [hook(() => ({ allow: 'false' }))] });
    expect(await rt.prompt('go')).toMatchObject({ status: 'completed', text: 'done' });
    const [seen] = toolResultsOf(model.calls.at(-1)!.request);
    expect(seen!.isError).toBe(true);
    expect(JSON.parse(seen!.content)).toMatchObject({ agent_id: '/root/w', status: 'cancelled', stop_reason: 'hook_failed', error: expect.stringContaining('allow must be true or false') });
    expect(model.calls.some((c) => c.context.agentPath === '/root/w')).toBe(false);
  });
});

describe('a denial’s reason', () => {
  it.each([
    ['an object', { secret: 'sk-live-123' }, 'denied by task hook 1 (its reason was an object, not text)'],
    ['a number', 7, 'denied by task hook 1 (its reason was the number 7, not text)'],
    ['missing', undefined, 'denied by task hook 1 (its reason was missing)'],
    ['empty', '', 'denied by task hook 1 (no reason given)'],
  ])('%s is replaced, never copied into result.error; the spawn is still denied', async (_name, reason, error) => {
    const rt = createRuntime({ model: hostileModel(() => reply('child ran')), taskHooks: [hook(() => ({ allow: false, reason }))] });
    const result = await (await rt.spawn('/root', { task_name: 'w', message: 'm' })).result;
    expect(result).toMatchObject({ status: 'cancelled', stopReason: 'hook_denied', error });
    expect(JSON.stringify(result)).not.toContain('sk-live-123');
  });

  it('a text reason is kept, clipped to the error-text length', async () => {
    const rt = createRuntime({ model: hostileModel(() => reply('x')), taskHooks: [hook(() => ({ allow: false, reason: 'r'.repeat(50_000) }))] });
    const result = await (await rt.spawn('/root', { task_name: 'w', message: 'm' })).result;
    expect(result.stopReason).toBe('hook_denied');
    expect(result.error).toBe(`${'r'.repeat(MAX_ERROR_TEXT)}… (truncated)`);
  });
});
