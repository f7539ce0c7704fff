import { afterEach, describe, expect, it, vi } from 'vitest';
import { assistantEntry, toolResultEntry, userEntry } from '../../src/dialogue/entry.js';
// A scripted reply reports tokens only; the runtime counts requests.
const ZERO_USAGE = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };
import { pathHash, scriptedCallId } from '../../src/model/call-ids.js';
import { manualClock } from '../../src/model/clock.js';
import { EntryView } from '../../src/dialogue/entry-seq.js';
import { PrefixCache } from '../../src/model/prefix-cache.js';
import type { Script } from '../../src/model/script.js';
import { missingStepText, scriptedModel } from '../../src/model/scripted.js';
import { requestPrefixBytes } from '../../src/request/serialize.js';
import { ctx, hello, rejection, request, settled } from './helpers.js';

const script: Script = {
  '/root': {
    0: [{ text: 'looking', toolCalls: [{ name: 'read_file', arguments: { path: 'a.ts' } }, { name: 'read_file', arguments: { path: 'b.ts' }, id: 'mine' }] }, { text: 'done' }],
    1: [{ text: 'second turn' }],
  },
  '/root/*': { 0: [{ text: 'any direct subagent' }], 1: [{ text: 'glob turn 1' }] },
  '/root/special': { 0: [{ text: 'special' }] },
  '/root/**/deep': { 0: [{ text: 'deep' }] },
};

afterEach(() => {
  vi.useRealTimers();
});

describe('scriptedModel: script lookup', () => {
  it('answers per path, turn and step', async () => {
    const model = scriptedModel(script);
    const first = await model.sample(hello(), ctx('/root', 0, 0));
    expect(first.text).toBe('looking');
    expect(first.toolCalls).toEqual([
      { id: scriptedCallId('/root', 0, 0, 0), name: 'read_file', arguments: { path: 'a.ts' } },
      { id: 'mine', name: 'read_file', arguments: { path: 'b.ts' } },
    ]);
    expect(first.stopReason).toBe('tool_calls');
    const second = await model.sample(hello(), ctx('/root', 0, 1));
    expect(second).toEqual({ text: 'done', toolCalls: [], usage: ZERO_USAGE, stopReason: 'stop' });
    expect((await model.sample(hello(), ctx('/root', 1, 0))).text).toBe('second turn');
  });

  it('matches globs: * stays within a segment, ** crosses segments', async () => {
    const model = scriptedModel(script);
    expect((await model.sample(hello(), ctx('/root/research'))).text).toBe('any direct subagent');
    expect((await model.sample(hello(), ctx('/root/research/tests'))).text).toBe(missingStepText(ctx('/root/research/tests')));
    expect((await model.sample(hello(), ctx('/root/a/b/deep'))).text).toBe('deep');
  });

  it('prefers exact keys over globs, and falls through to a glob for turns the exact rule lacks', async () => {
    const model = scriptedModel(script);
    expect((await model.sample(hello(), ctx('/root/special', 0))).text).toBe('special');
    expect((await model.sample(hello(), ctx('/root/special', 1))).text).toBe('glob turn 1');
  });

  it('applies ordered rules with predicate matchers', async () => {
    const model = scriptedModel([
      { match: (p) => p.endsWith('/reviewer'), script: { 0: [{ text: 'review' }] } },
      { match: '/root/?', script: { 0: [{ text: 'one letter' }] } },
      { match: '/root/reviewer', script: { 0: [{ text: 'never reached' }] } },
    ]);
    expect((await model.sample(hello(), ctx('/root/reviewer'))).text).toBe('review');
    expect((await model.sample(hello(), ctx('/root/x'))).text).toBe('one letter');
    expect((await model.sample(hello(), ctx('/root/xy'))).text).toBe(missingStepText(ctx('/root/xy')));
  });

  it('treats regex characters in globs literally', async () => {
    const model = scriptedModel({ '/root/a.b*': { 0: [{ text: 'dot' }] } });
    expect((await model.sample(hello(), ctx('/root/a.bc'))).text).toBe('dot');
    expect((await model.sample(hello(), ctx('/root/aXbc'))).text).toBe(missingStepText(ctx('/root/aXbc')));
  });

  it('calls step, turn and path functions with the request and context', async () => {
    const seen: string[] = [];
    const model = scriptedModel({
      '/root': {
        0: [(req, c) => ({ text: `step fn saw ${req.messages.length} message(s) at step ${c.step}` })],
        1: async (_req, c) => ({ text: `turn fn step ${c.step}` }),
      },
      '/root/dyn': (req, c) => {
        seen.push(`${c.agentPath}:${c.turn}:${c.step}`);
        return { text: `path fn ${req.model}` };
      },
    });
    expect((await model.sample(hello(), ctx('/root', 0, 0))).text).toBe('step fn saw 1 message(s) at step 0');
    expect((await model.sample(hello(), ctx('/root', 1, 3))).text).toBe('turn fn step 3');
    expect((await model.sample(hello(), ctx('/root/dyn', 4, 2))).text).toBe('path fn test-model');
    expect(seen).toEqual(['/root/dyn:4:2']);
  });

  it('defaults missing tool-call arguments to {} and honours an explicit stop reason', async () => {
    const model = scriptedModel({ '/root': { 0: [{ toolCalls: [{ name: 'list_agents' }], stopReason: 'length' }] } });
    const reply = await model.sample(hello(), ctx('/root'));
    expect(reply.text).toBe('');
    expect(reply.toolCalls[0]?.arguments).toEqual({});
    expect(reply.stopReason).toBe('length');
  });
});

describe('scriptedModel: deterministic ids', () => {
  it('generates the same ids on every run, distinct per path, turn, step and index', async () => {
    const a = scriptedModel(script);
    const b = scriptedModel(script);
    const idA = (await a.sample(hello(), ctx('/root'))).toolCalls[0]?.id;
    const idB = (await b.sample(hello(), ctx('/root'))).toolCalls[0]?.id;
    expect(idA).toBe(idB);
    expect(idA).toBe(`call_${pathHash('/root')}_0_0_0`);
    expect(idA).toMatch(/^call_[0-9a-f]{8}_0_0_0$/);
    const ids = new Set([
      scriptedCallId('/root', 0, 0, 0),
      scriptedCallId('/root/x', 0, 0, 0),
      scriptedCallId('/root', 1, 0, 0),
      scriptedCallId('/root', 0, 1, 0),
      scriptedCallId('/root', 0, 0, 1),
    ]);
    expect(ids.size).toBe(5);
  });
});

describe('scriptedModel: missing script', () => {
  it('answers a final text naming the gap by default', async () => {
    const model = scriptedModel({});
    const reply = await model.sample(hello(), ctx('/root/x', 2, 1));
    expect(reply).toEqual({ text: '(no script for /root/x turn 2 step 1)', toolCalls: [], usage: ZERO_USAGE, stopReason: 'stop' });
  });

  it('also covers steps beyond a scripted turn', async () => {
    const model = scriptedModel(script);
    expect((await model.sample(hello(), ctx('/root', 0, 2))).text).toBe('(no script for /root turn 0 step 2)');
  });

  it('rejects under strict', async () => {
    const model = scriptedModel(script, { strict: true });
    const error = await rejection(model.sample(hello(), ctx('/root/x/y', 2)));
    expect(error.message).toBe('scriptedModel: no script for /root/x/y turn 2 step 0');
    expect(model.calls).toHaveLength(1);
  });
});

describe('scriptedModel: failures', () => {
  it('rejects with the scripted failure message', async () => {
    const model = scriptedModel({ '/root': { 0: [{ fail: 'rate limited' }] } });
    const error = await rejection(model.sample(hello(), ctx('/root')));
    expect(error.message).toBe('rate limited');
    expect(error.name).toBe('Error');
  });
});

describe('scriptedModel: latency and abort', () => {
  it('waits per-step latency on the default clock (vitest fake timers)', async () => {
    vi.useFakeTimers();
    const model = scriptedModel({ '/root': { 0: [{ text: 'late', latencyMs: 1000 }] } });
    const reply = model.sample(hello(), ctx('/root'));
    await vi.advanceTimersByTimeAsync(999);
    expect(await settled(reply)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect((await reply).text).toBe('late');
  });

  it('waits the default latency on an injected manual clock', async () => {
    const clock = manualClock();
    const model = scriptedModel({ '/root': { 0: [{ text: 'a' }, { text: 'b', latencyMs: 5 }] } }, { latencyMs: 50, clock });
    const slow = model.sample(hello(), ctx('/root', 0, 0));
    const fast = model.sample(hello(), ctx('/root', 0, 1));
    await clock.whenPending(2);
    clock.advance(5);
    expect((await fast).text).toBe('b');
    expect(await settled(slow)).toBe(false);
    clock.advance(45);
    expect((await slow).text).toBe('a');
    expect(clock.pending).toBe(0);
    expect(clock.now).toBe(50);
  });

  it('fails only after the latency', async () => {
    const clock = manualClock();
    const model = scriptedModel({ '/root': { 0: [{ fail: 'boom', latencyMs: 10 }] } }, { clock });
    const reply = model.sample(hello(), ctx('/root'));
    await clock.whenPending();
    expect(await settled(reply)).toBe(false);
    clock.advance(10);
    expect((await rejection(reply)).message).toBe('boom');
  });

  it('rejects at once with an AbortError when the signal already aborted, and still records the call', async () => {
    const clock = manualClock();
    const model = scriptedModel(script, { clock, latencyMs: 100 });
    const controller = new AbortController();
    controller.abort();
    const error = await rejection(model.sample(hello(), ctx('/root', 0, 0, controller.signal)));
    expect(error.name).toBe('AbortError');
    expect(clock.pending).toBe(0);
    expect(model.calls).toHaveLength(1);
  });

  it('rejects promptly with an AbortError when aborted during latency', async () => {
    const clock = manualClock();
    const model = scriptedModel(script, { clock, latencyMs: 100 });
    const controller = new AbortController();
    const reply = model.sample(hello(), ctx('/root', 0, 0, controller.signal));
    await clock.whenPending();
    controller.abort('cancelled by parent');
    const error = await rejection(reply);
    expect(error.name).toBe('AbortError');
    expect(error.message).toContain('cancelled by parent');
    expect(clock.pending).toBe(0);
  });

  it('rejects during fake-timer latency without advancing time', async () => {
    vi.useFakeTimers();
    const model = scriptedModel(script, { latencyMs: 60_000 });
    const controller = new AbortController();
    const reply = model.sample(hello(), ctx('/root', 0, 0, controller.signal));
    await Promise.resolve();
    controller.abort();
    expect((await rejection(reply)).name).toBe('AbortError');
    expect(vi.getTimerCount()).toBe(0);
  });

  it('rejects when the signal aborts while a script function is running', async () => {
    const controller = new AbortController();
    const model = scriptedModel({
      '/root': (_req, c) => {
        controller.abort();
        return { text: `never seen at ${c.step}` };
      },
    });
    expect((await rejection(model.sample(hello(), ctx('/root', 0, 0, controller.signal)))).name).toBe('AbortError');
  });
});

describe('scriptedModel: calls', () => {
  it('records every request with its path, turn and step', async () => {
    const model = scriptedModel(script, { name: 'demo' });
    const req0 = hello('first');
    const req1 = hello('second');
    await model.sample(req0, ctx('/root', 0, 0));
    await model.sample(req1, ctx('/root/research', 0, 0));
    expect(model.name).toBe('demo');
    expect(model.calls).toEqual([
      { agentPath: '/root', turn: 0, step: 0, request: req0 },
      { agentPath: '/root/research', turn: 0, step: 0, request: req1 },
    ]);
    expect(model.calls[1]?.request).toBe(req1);
    expect(scriptedModel({}).name).toBe('scripted');
  });
});

describe('scriptedModel: usage', () => {
  it('fills explicit partial usage with zeros', async () => {
    const model = scriptedModel({ '/root': { 0: [{ text: 'x', usage: { inputTokens: 10, outputTokens: 2 } }] } }, { cache: true });
    expect((await model.sample(hello(), ctx('/root'))).usage).toEqual({ inputTokens: 10, outputTokens: 2, cacheReadTokens: 0, cacheWriteTokens: 0 });
    // The request was still recorded in the cache.
    expect(model.cache?.size).toBe(1);
  });

  it('is zero without explicit usage or cache', async () => {
    expect((await scriptedModel(script).sample(hello(), ctx('/root'))).usage).toEqual(ZERO_USAGE);
    expect(scriptedModel(script).cache).toBeUndefined();
  });

  it('simulates prompt caching across the steps of a turn and a forked subagent', async () => {
    const cache = new PrefixCache();
    const model = scriptedModel(script, { cache });
    expect(model.cache).toBe(cache);
    const u = userEntry({ text: 'Read a.ts and b.ts', id: 'u1' });
    const first = await model.sample(request([u]), ctx('/root', 0, 0));
    expect(first.usage.cacheReadTokens).toBe(0);
    expect(first.usage.cacheWriteTokens).toBe(first.usage.inputTokens);
    expect(first.usage.outputTokens).toBeGreaterThan(0);

    const a = assistantEntry({ text: first.text, toolCalls: first.toolCalls, id: 'a1' });
    const results = first.toolCalls.map((c) => toolResultEntry({ callId: c.id, toolName: c.name, content: 'ok', id: `r_${c.id}` }));
    const secondRequest = request([u, a, ...results]);
    const second = await model.sample(secondRequest, ctx('/root', 0, 1));
    expect(second.usage.cacheReadTokens).toBeGreaterThan(0);
    expect(second.usage.cacheReadTokens + second.usage.cacheWriteTokens).toBe(second.usage.inputTokens);

    // A fork of the parent's dialogue reads everything the parent's request had before its model frame.
    const task = userEntry({ text: 'Subagent task', origin: { kind: 'task', from: '/root' }, id: 't1' });
    const fork = await model.sample(request([u, a, ...results, task]), ctx('/root/special', 0, 0));
    expect(fork.usage.cacheReadTokens).toBe(Math.floor(requestPrefixBytes(secondRequest) / 4));
    expect(fork.usage.cacheWriteTokens).toBeGreaterThan(0);
  });

  it('creates a private cache with cache: true, and records nothing for failed or aborted requests', async () => {
    const model = scriptedModel({ '/root': { 0: [{ fail: 'x' }] } }, { cache: true });
    await rejection(model.sample(hello(), ctx('/root')));
    expect(model.cache?.size).toBe(0);
  });
});

describe('scriptedModel: summarize', () => {
  const entries = EntryView.of([userEntry({ text: 'We chose Postgres.', id: 'u1' })]);

  it('answers string, object and function summaries keyed by path', async () => {
    const model = scriptedModel({
      '/root/db': { summary: 'Postgres was chosen.' },
      '/root/cost': { summary: { text: 'Costs.', usage: { inputTokens: 40, outputTokens: 5 } } },
      '/root/*': { summary: async (input) => `Background for ${input.task} from ${input.entries.length} entries` },
    });
    const signal = new AbortController().signal;
    expect(await model.summarize({ entries, task: 'migrate', agentPath: '/root/db' }, signal)).toEqual({ text: 'Postgres was chosen.', usage: ZERO_USAGE });
    expect((await model.summarize({ entries, task: 'estimate', agentPath: '/root/cost' }, signal)).usage).toEqual({
      inputTokens: 40,
      outputTokens: 5,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
    });
    expect((await model.summarize({ entries, task: 'index', agentPath: '/root/other' }, signal)).text).toBe('Background for index from 1 entries');
    expect(model.summaryCalls.map((c) => c.agentPath)).toEqual(['/root/db', '/root/cost', '/root/other']);
    expect(model.calls).toHaveLength(0);
  });

  it('lets a function return a full summary reply', async () => {
    const model = scriptedModel({ '/root/x': { summary: () => ({ text: 'fn reply', usage: { outputTokens: 3 } }) } });
    const result = await model.summarize({ entries, task: 't', agentPath: '/root/x' }, new AbortController().signal);
    expect(result).toEqual({ text: 'fn reply', usage: { ...ZERO_USAGE, outputTokens: 3 } });
  });

  it('skips path functions and rules without a summary', async () => {
    const model = scriptedModel([
      { match: '/root/x', script: () => ({ text: 'sample only' }) },
      { match: '/root/x', script: { 0: [{ text: 'no summary here' }] } },
      { match: '/root/*', script: { summary: 'from glob' } },
    ]);
    expect((await model.summarize({ entries, task: 't', agentPath: '/root/x' }, new AbortController().signal)).text).toBe('from glob');
  });

  it('answers a default, or rejects under strict, when no summary is scripted', async () => {
    const signal = new AbortController().signal;
    expect((await scriptedModel({}).summarize({ entries, task: 't', agentPath: '/root/x' }, signal)).text).toBe('(no summary script for /root/x)');
    const error = await rejection(scriptedModel({}, { strict: true }).summarize({ entries, task: 't', agentPath: '/root/x' }, signal));
    expect(error.message).toBe('scriptedModel: no summary script for /root/x');
  });

  it('honours latency, failure and abort', async () => {
    const clock = manualClock();
    const model = scriptedModel(
      { '/root/slow': { summary: { text: 'slow', latencyMs: 30 } }, '/root/bad': { summary: { text: '', fail: 'summary failed' } } },
      { clock },
    );
    const slow = model.summarize({ entries, task: 't', agentPath: '/root/slow' }, new AbortController().signal);
    await clock.whenPending();
    clock.advance(30);
    expect((await slow).text).toBe('slow');

    expect((await rejection(model.summarize({ entries, task: 't', agentPath: '/root/bad' }, new AbortController().signal))).message).toBe('summary failed');

    const controller = new AbortController();
    const aborted = model.summarize({ entries, task: 't', agentPath: '/root/slow' }, controller.signal);
    await clock.whenPending();
    controller.abort();
    expect((await rejection(aborted)).name).toBe('AbortError');

    const already = new AbortController();
    already.abort();
    expect((await rejection(model.summarize({ entries, task: 't', agentPath: '/root/slow' }, already.signal))).name).toBe('AbortError');
  });
});
