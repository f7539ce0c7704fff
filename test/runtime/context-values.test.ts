import { describe, expect, it } from 'vitest';
import { scriptedModel } from '../../src/model/scripted.js';
import { createRuntime } from '../../src/runtime/runtime.js';
import type { ModelRequest } from '../../src/request/types.js';

/** A root with two finished turns, then a third that spawns `child` with `context`. */
function forkingSession(context: string | number | undefined) {
  const seen: ModelRequest[] = [];
  const model = scriptedModel({
    '/root': {
      0: [{ text: 'first answer' }],
      1: [{ text: 'second answer' }],
      2: [
        { toolCalls: [{ name: 'Agent', id: 'spawn-1', arguments: { task_name: 'child', message: 'do the thing', ...(context !== undefined ? { context } : {}) } }] },
        { text: 'root done' },
      ],
    },
    '/root/child': {
      0: [(request) => (seen.push(request), { text: 'child result' })],
      summary: (input) => `background about ${input.task} from ${input.entries.length} entries`,
    },
  });
  const rt = createRuntime({ model });
  return { rt, model, seen };
}

async function session(context: string | number | undefined) {
  const s = forkingSession(context);
  for (const text of ['question one', 'question two', 'question three']) {
    s.rt.prompt(text);
    await s.rt.whenQuiet();
  }
  return s;
}

async function run(context: string | number | undefined) {
  const s = await session(context);
  const request = s.seen[0];
  if (!request) throw new Error('the child never sampled');
  return { ...s, request, messages: request.messages.toArray() };
}

/**
 * The child's result. Forks (`all`, N) are continuable by default, so they wait idle after
 * their first turn: they are closed here to settle.
 */
async function childResult(rt: ReturnType<typeof createRuntime>) {
  if (rt.stateOf('/root/child') === 'running.idle') rt.close('/root/child');
  return rt.result('/root/child');
}

describe('context values', () => {
  it('none (the default) gives the subagent only its framed task', async () => {
    const { messages, rt } = await run(undefined);
    expect(messages).toHaveLength(1);
    const task = messages[0];
    expect(task?.kind === 'user' && task.text).toContain('do the thing');
    expect(task?.kind === 'user' && task.text).not.toMatch(/question (one|two|three)/);
    expect(rt.results[0]).toMatchObject({ context: 'none', contextMode: 'none', status: 'completed', text: 'child result' });
  });

  it('all copies the effective dialogue and the realized active turn, without the triggering call', async () => {
    const { messages, rt } = await run('all');
    const parentLog = rt.transcript('/root')!.log.toArray();
    // Two finished turns (4 entries) and the third turn's opener; the Agent call is excluded.
    expect(messages.slice(0, 5)).toEqual(parentLog.slice(0, 5));
    expect(messages.slice(0, 5).every((e, i) => e === parentLog[i])).toBe(true);
    expect(messages).toHaveLength(6);
    expect(messages.some((e) => e.kind === 'assistant' && e.toolCalls.some((c) => c.id === 'spawn-1'))).toBe(false);
    // A fork is continuable by default: after its answer it waits for follow-ups.
    expect(rt.list().find((a) => a.path === '/root/child')).toMatchObject({ lifetime: 'continuable', state: 'running.idle', context: 'all' });
    const result = await childResult(rt);
    expect(result).toMatchObject({ context: 'all', contextMode: 'all', prefix: { reasons: [] }, stopReason: 'closed' });
    expect(result.prefix.sharedBytes).toBe(result.prefix.inheritedBytes);
  });

  it('"fork" is an alias of all', async () => {
    const { rt } = await run('fork');
    expect((await childResult(rt)).context).toBe('all');
  });

  it('N copies the last N turns (the active one counts)', async () => {
    const { messages, rt } = await run(2);
    const texts = messages.flatMap((e) => (e.kind === 'user' ? [e.text] : []));
    expect(texts.slice(0, 2)).toEqual(['question two', 'question three']);
    expect(messages).toHaveLength(4);
    expect(rt.list().find((a) => a.path === '/root/child')?.lifetime).toBe('continuable');
    expect((await childResult(rt)).context).toBe('2');
  });

  it('"2" as a decimal string is N too', async () => {
    const { rt } = await run('2');
    expect((await childResult(rt)).context).toBe('2');
  });

  it('summary seeds generated background before the task, copying no turns', async () => {
    const { messages, model, rt } = await run('summary');
    expect(messages).toHaveLength(2);
    const [background, task] = messages;
    expect(background?.kind === 'user' && background.origin.kind).toBe('background');
    expect(background?.kind === 'user' && background.text).toMatch(/^background about do the thing from 5 entries$/);
    expect(task?.kind === 'user' && task.text).toContain('do the thing');
    expect(model.summaryCalls).toHaveLength(1);
    expect(model.summaryCalls[0]?.task).toBe('do the thing');
    expect(rt.results[0]?.contextMode).toBe('summary');
  });

  it('a bad context value is a tool error naming the accepted values, and holds nothing', async () => {
    const { rt, seen } = await session('3 turns');
    expect(seen).toHaveLength(0);
    const log = rt.transcript('/root')!.log.toArray();
    const error = log.find((e) => e.kind === 'tool_result');
    expect(error?.kind === 'tool_result' && error.isError).toBe(true);
    expect(error?.kind === 'tool_result' && error.content).toMatch(/context/);
    expect(error?.kind === 'tool_result' && error.content).toMatch(/none/);
    expect(rt.slotsInUse).toBe(0);
    expect(rt.results).toHaveLength(0);
  });

  it('a subagent never sees parent turns that happen after its snapshot', async () => {
    const s = forkingSession('all');
    s.rt.prompt('question one');
    await s.rt.whenQuiet();
    s.rt.prompt('question two');
    await s.rt.whenQuiet();
    const handle = await s.rt.spawn('/root', { task_name: 'late', message: 'check', context: 'all' }, { lifetime: 'continuable' });
    await handle.firstReport;
    s.rt.prompt('question three');
    await s.rt.whenQuiet();
    s.rt.send('/root', '/root/late', 'and now?');
    await s.rt.whenQuiet();
    const child = s.rt.transcript('/root/late')!.log.toArray();
    expect(child.some((e) => e.kind === 'user' && e.text === 'question three')).toBe(false);
    expect(child.some((e) => e.kind === 'user' && e.text === 'and now?')).toBe(true);
  });
});
