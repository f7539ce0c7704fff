/**
 * Regression tests for the defects an adversarial campaign found: each one failed before
 * its fix.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createCapabilityCatalog } from '../../src/policy/capabilities.js';
import { scriptedModel } from '../../src/model/scripted.js';
import { createRuntime, defineRuntimeTool } from '../../src/runtime/runtime.js';
import { RuntimeError } from '../../src/runtime/errors.js';
import type { RuntimeOptions } from '../../src/runtime/types.js';
import { PresetError } from '../../src/request/preset.js';
import { expectNothingHeld, hostileModel, toolResultsOf, userTextsOf } from './helpers.js';

const agentCall = (args: Record<string, unknown>, id = 'call_agent') => ({ text: '', toolCalls: [{ id, name: 'Agent', arguments: args }], usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 } });
const reply = (text: string) => ({ text, toolCalls: [], usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 } });

/** A value `String()` cannot convert, and one whose every property access throws. */
const unprintables: Array<[string, () => unknown]> = [
  ['Object.create(null)', () => Object.create(null)],
  ['a Proxy whose traps throw', () => new Proxy({}, { get: () => { throw new Error('trap'); }, ownKeys: () => { throw new Error('trap'); }, getPrototypeOf: () => { throw new Error('trap'); } })],
  ['a symbol', () => Symbol('s')],
];

describe('defect 1: a host tool throwing an unprintable value', () => {
  it.each(unprintables)('%s becomes a tool error and the agent goes on', async (_name, make) => {
    const boom = defineRuntimeTool({
      name: 'boom',
      description: 'Throws.',
      schema: z.object({}),
      execute: () => {
        throw make();
      },
    });
    const model = hostileModel(({ step }) => (step === 0 ? { text: '', toolCalls: [{ id: 'c1', name: 'boom', arguments: {} }] } : reply('recovered')));
    const rt = createRuntime({ model, tools: [boom] });
    rt.prompt('go');
    await rt.whenQuiet();
    const [result] = toolResultsOf(model.calls[1]!.request);
    expect(result?.isError).toBe(true);
    expect(result?.content).toMatch(/^Error: /);
    expect(rt.stateOf('/root')).toBe('running.idle');
    expectNothingHeld(rt);
  });

  it('a confirm callback throwing Object.create(null) is a typed confirmation_failed error', async () => {
    const rt = createRuntime({
      model: scriptedModel({}),
      modelId: 'small',
      capabilities: createCapabilityCatalog({ tools: {}, models: { small: 1, large: 3 } }),
      confirm: () => {
        throw Object.create(null);
      },
    });
    const refused = rt.spawn('/root', { task_name: 'big', message: 'x', model: 'large' });
    await expect(refused).rejects.toBeInstanceOf(RuntimeError);
    await expect(refused).rejects.toMatchObject({ code: 'confirmation_failed' });
    expectNothingHeld(rt);
  });
});

describe('defect 2: replies without usage, rejections that cannot be serialized', () => {
  it('a root reply without usage ends the turn normally', async () => {
    const rt = createRuntime({ model: hostileModel(() => ({ text: 'no usage here', toolCalls: [] })) });
    rt.prompt('go');
    await rt.whenQuiet();
    expect(rt.stateOf('/root')).toBe('running.idle');
    const last = rt.transcript('/root')!.at(-1);
    expect(last?.kind === 'assistant' && last.text).toBe('no usage here');
  });

  it.each([
    ['a BigInt', () => 10n, /10/],
    ['a cyclic object', () => { const o: Record<string, unknown> = { reason: 'loop' }; o.self = o; return o; }, /loop/],
    ['Object.create(null)', () => Object.create(null), /\{\}/],
  ])('a rejection with %s is a model_error with readable text', async (_name, make, text) => {
    const model = hostileModel(({ agentPath }) => (agentPath === '/root/w' ? Promise.reject(make()) : reply('ok')));
    const rt = createRuntime({ model });
    const result = await (await rt.spawn('/root', { task_name: 'w', message: 'x' })).result;
    expect(result).toMatchObject({ status: 'failed', stopReason: 'model_error' });
    expect(result.error).toMatch(text);
    expectNothingHeld(rt);
  });
});

describe('defect 3: bad usage on the way to the parent', () => {
  const badUsages: Array<[string, unknown]> = [
    ['partial', { inputTokens: 3 }],
    ['NaN', { inputTokens: 1, outputTokens: 1, cacheReadTokens: Number.NaN, cacheWriteTokens: 0 }],
    ['Infinity', { inputTokens: Number.POSITIVE_INFINITY, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 }],
    ['strings', { inputTokens: '5', outputTokens: 'many', cacheReadTokens: '', cacheWriteTokens: '-1' }],
    ['null', null],
  ];

  it.each(badUsages)('caller delivery: %s usage still delivers the result', async (_name, usage) => {
    const model = hostileModel(({ agentPath, step }) => {
      if (agentPath === '/root/w') return { toolCalls: [], usage };
      return step === 0 ? agentCall({ task_name: 'w', message: 'x' }) : reply('done');
    });
    const rt = createRuntime({ model });
    rt.prompt('go');
    await rt.whenQuiet();
    const [result] = toolResultsOf(model.calls.at(-1)!.request);
    expect(result?.isError).toBe(false);
    expect(JSON.parse(result!.content)).toMatchObject({ agent_id: '/root/w', status: 'completed' });
    const counted = rt.results.find((r) => r.path === '/root/w')!.usage as unknown as Record<string, unknown>;
    for (const key of ['inputTokens', 'outputTokens', 'cacheReadTokens', 'cacheWriteTokens', 'requests', 'retries']) {
      expect(typeof counted[key] === 'number' && Number.isFinite(counted[key]) && (counted[key] as number) >= 0).toBe(true);
    }
    expect(counted.requests).toBe(1);
  });

  it('parent delivery: the notice arrives despite NaN usage', async () => {
    const model = hostileModel(({ agentPath, turn, step }) => {
      if (agentPath === '/root/w') return { text: 'w done', toolCalls: [], usage: { cacheReadTokens: Number.NaN } };
      return turn === 0 && step === 0 ? agentCall({ task_name: 'w', message: 'x' }) : reply('seen');
    });
    const rt = createRuntime({ model, defaults: { delivery: 'parent' } });
    rt.prompt('go');
    await rt.whenQuiet();
    const notices = (rt.transcript('/root')!.log.toArray()).filter((e) => e.kind === 'user' && e.origin.kind === 'notice');
    expect(notices).toHaveLength(1);
    expect(notices[0]?.kind === 'user' && notices[0].text).toContain('w done');
  });

  it('string usage is read as numbers, never concatenated', async () => {
    const model = hostileModel(({ step }) => ({ text: step === 0 ? 'a' : 'b', toolCalls: [], usage: { inputTokens: '5', outputTokens: '7' } }));
    const rt = createRuntime({ model, defaults: { lifetime: 'continuable' } });
    const handle = await rt.spawn('/root', { task_name: 'w', message: 'x' });
    await handle.firstReport;
    rt.send('/root', '/root/w', 'again');
    await rt.whenQuiet();
    rt.close('/root/w');
    const result = await handle.result;
    expect(result.usage.inputTokens).toBe(10);
    expect(result.usage.outputTokens).toBe(14);
  });
});

describe('defect 4: failures between reservation and the first snapshot', () => {
  it('an attachment that is not an object is a typed error and holds nothing', async () => {
    const rt = createRuntime({ model: scriptedModel({ '/root/x': { 0: [{ text: 'ok' }] } }) });
    await expect(rt.spawn('/root', { task_name: 'x', message: 'y', attachments: [null as never] })).rejects.toMatchObject({ code: 'invalid_arguments' });
    expectNothingHeld(rt);
    // The name is free again.
    await expect((await rt.spawn('/root', { task_name: 'x', message: 'y' })).result).resolves.toMatchObject({ status: 'completed' });
  });

  it('an attachment that throws while the agent starts: start_failed, nothing held, name free', async () => {
    let reads = 0;
    const treacherous = {
      name: 'f',
      get content(): string {
        // Valid when checked, throwing when the task is composed.
        if (reads++ > 0) throw new Error('gone');
        return 'text';
      },
    };
    const rt = createRuntime({ model: scriptedModel({ '/root/x': { 0: [{ text: 'ok' }] } }) });
    await expect(rt.spawn('/root', { task_name: 'x', message: 'y', attachments: [treacherous] })).rejects.toMatchObject({ code: 'start_failed', message: expect.stringMatching(/gone/) });
    expectNothingHeld(rt);
    await expect(rt.whenQuiet()).resolves.toBeUndefined();
    await expect((await rt.spawn('/root', { task_name: 'x', message: 'y' })).result).resolves.toMatchObject({ status: 'completed' });
  });

  it('an inspect observer that throws is reported and the agents run normally', async () => {
    const errors: Array<[unknown, string]> = [];
    const rt = createRuntime({
      model: scriptedModel({ '/root/x': { 0: [{ text: 'ok' }] } }),
      inspect: () => {
        throw new Error('observer bug');
      },
      onListenerError: (error, source) => errors.push([error, source]),
    });
    await expect((await rt.spawn('/root', { task_name: 'x', message: 'y' })).result).resolves.toMatchObject({ status: 'completed', text: 'ok' });
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.every(([, source]) => source === 'inspect')).toBe(true);
    expectNothingHeld(rt);
  });
});

describe('defect 8: attachments reach the subagent whatever its context', () => {
  it.each([['all'], [1], ['summary'], ['none']] as const)('context %s', async (context) => {
    const model = hostileModel(() => reply('read it'));
    const rt = createRuntime({ model, summarizer: { summarize: () => Promise.resolve({ text: 'background', usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 } }) } });
    // One-shot, so that forks (continuable by default) settle after their answer.
    await (await rt.spawn('/root', { task_name: 'w', message: 'review it', context, attachments: [{ name: 'notes.md', content: 'ATTACHED-CONTENT-42' }] }, { lifetime: 'one-shot' })).result;
    const first = model.calls.find((c) => c.context.agentPath === '/root/w')!;
    const task = userTextsOf(first.request).at(-1)!;
    expect(task).toContain('ATTACHED-CONTENT-42');
    expect(task).toContain('name="notes.md"');
    // Before the task, as the independent layout has it.
    expect(task.indexOf('ATTACHED-CONTENT-42')).toBeLessThan(task.indexOf('<task>'));
  });
});

describe('defect 9: list_agents and agents preparing a summary', () => {
  it('a subagent preparing its summary is not listed as addressable', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const model = hostileModel(({ agentPath, step }) => {
      if (agentPath === '/root/lister') return step === 0 ? { text: '', toolCalls: [{ id: 'l', name: 'list_agents', arguments: {} }] } : reply('listed');
      return reply('ok');
    });
    const rt = createRuntime({
      model,
      summarizer: { summarize: async () => (await gate, { text: 'bg', usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 } }) },
    });
    rt.prompt('some conversation to summarize');
    await rt.whenQuiet();
    const preparing = await rt.spawn('/root', { task_name: 'slow', message: 'x', context: 'summary' });
    expect(rt.stateOf('/root/slow')).toBe('preparingSummary');
    await (await rt.spawn('/root', { task_name: 'lister', message: 'who is there' })).result;
    const listing = JSON.parse(toolResultsOf(model.calls.find((c) => c.context.agentPath === '/root/lister' && c.context.step === 1)!.request)[0]!.content) as { agents: Array<{ agent_id: string }> };
    expect(listing.agents.map((a) => a.agent_id)).toEqual(['/root']);
    release();
    await preparing.result;
  });
});

describe('defect 10: presets and send_message', () => {
  it('a preset that leaves out send_message is refused with a clear error', () => {
    let caught: unknown;
    try {
      createRuntime({ model: scriptedModel({}), presets: { quiet: { name: 'quiet', systemPrompt: 'x', tools: ['Agent', 'list_agents'] } } });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(PresetError);
    expect(caught).toMatchObject({ code: 'missing_send_message', message: expect.stringMatching(/send_message/) });
  });
});

describe('defect 10: forks are continuable by default', () => {
  /** The root forks `f` (context `context`) through its model, with `delivery`; returns the fork's state and lifetime after its answer. */
  async function forkOf(context: 'all' | 2 | 'none' | 'summary', delivery: 'caller' | 'parent', options: Partial<RuntimeOptions> = {}) {
    const model = scriptedModel({
      '/root': { 0: [{ toolCalls: [{ name: 'Agent', arguments: { task_name: 'f', message: 'look', context } }] }, { text: 'root done' }, { text: 'root again' }] },
      '/root/f': { 0: [{ text: 'fork answer' }], summary: () => 'background' },
    });
    const rt = createRuntime({ model, defaults: { delivery }, ...options });
    rt.prompt('start');
    await rt.whenQuiet();
    const info = rt.list().find((a) => a.path === '/root/f');
    const settled = rt.results.find((r) => r.path === '/root/f');
    return { rt, lifetime: info?.lifetime ?? null, state: info?.state ?? (settled ? 'settled' : null) };
  }

  it.each([
    ['all', 'caller'],
    ['all', 'parent'],
    [2, 'caller'],
    [2, 'parent'],
  ] as const)('context %s with %s delivery: the fork answers, then waits idle for follow-ups', async (context, delivery) => {
    const { rt, lifetime, state } = await forkOf(context, delivery);
    expect({ lifetime, state }).toEqual({ lifetime: 'continuable', state: 'running.idle' });
    // Idle, it holds its slot until it is closed.
    expect(rt.slotsInUse).toBe(1);
    rt.close('/root/f');
    await expect(rt.result('/root/f')).resolves.toMatchObject({ status: 'completed', stopReason: 'closed' });
  });

  it.each([['none'], ['summary']] as const)('context %s stays one-shot', async (context) => {
    const { lifetime, state } = await forkOf(context, 'caller');
    expect({ lifetime, state }).toEqual({ lifetime: null, state: 'settled' });
  });

  it("one-shot forks are the host's choice: defaults.lifetime, the spawn policy, or a preset of its own", async () => {
    expect((await forkOf('all', 'caller', { defaults: { delivery: 'caller', lifetime: 'one-shot' } })).state).toBe('settled');
    expect((await forkOf('all', 'parent', { spawnPolicy: () => ({ lifetime: 'one-shot' }) })).state).toBe('settled');
    // A preset of the host's own asks for it; one that names no fork lifetime keeps forks continuable.
    const presets = { mine: { name: 'mine', systemPrompt: 'x', tools: ['Agent', 'send_message', 'close_agent'], defaults: { forkLifetime: 'one-shot' as const } } };
    expect((await forkOf('all', 'caller', { presets })).state).toBe('settled');
    const silent = { mine: { name: 'mine', systemPrompt: 'x', tools: ['Agent', 'send_message', 'close_agent'] } };
    expect((await forkOf('all', 'caller', { presets: silent })).state).toBe('running.idle');
  });
});
