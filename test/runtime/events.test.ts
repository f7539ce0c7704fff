import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createRuntime, defineRuntimeTool, RuntimeError, type ModelAdapter, type RuntimeStreamEvent, type SampleContext } from '../../src/index.js';
import { manualClock, scriptedModel } from '../../src/testing/index.js';
import { deferred } from './helpers.js';

/** Reads an iterator to its end. */
async function collect(events: AsyncIterable<RuntimeStreamEvent>): Promise<RuntimeStreamEvent[]> {
  const out: RuntimeStreamEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}

const indexOf = (events: readonly RuntimeStreamEvent[], predicate: (e: RuntimeStreamEvent) => boolean): number => {
  const i = events.findIndex(predicate);
  expect(i, 'event not found').toBeGreaterThanOrEqual(0);
  return i;
};

const lookup = defineRuntimeTool({
  name: 'lookup',
  description: 'Looks a word up.',
  schema: z.object({ word: z.string() }),
  execute: ({ word }) => (word === 'missing' ? { content: `no entry for ${word}`, isError: true } : `${word}: a definition`),
});

/** The root delegates to /root/research, which looks two words up; the root streams its answer in chunks. */
function delegatingModel() {
  return scriptedModel(
    {
      '/root': {
        0: [
          { toolCalls: [{ name: 'Agent', arguments: { task_name: 'research', message: 'look it up' } }], usage: { inputTokens: 10, outputTokens: 2 } },
          { chunks: ['The parser ', 'drops a ', 'brace.'], reasoning: 'The research says line 88.', usage: { inputTokens: 20, outputTokens: 6 } },
        ],
      },
      '/root/research': {
        0: [
          { text: 'Checking.', toolCalls: [{ name: 'lookup', arguments: { word: 'brace' }, id: 'c1' }, { name: 'lookup', arguments: { word: 'missing' }, id: 'c2' }] },
          { text: 'line 88', usage: { inputTokens: 7, outputTokens: 3 } },
        ],
      },
    },
    { chunkSize: 4 },
  );
}

describe('runtime.events()', () => {
  it('yields the whole tree in order: deltas before the turn ends, spawned before settled, tool started before finished', async () => {
    const rt = createRuntime({ model: delegatingModel(), tools: [lookup] });
    const reading = collect(rt.events());
    const outcome = await rt.prompt('Why do nested blocks break?');
    rt.stop();
    const events = await reading; // ends by itself once the session ended
    // The root's result, then its final state change, are the last events.
    expect(events.at(-2)).toMatchObject({ type: 'session-ended', path: '/root', result: { status: 'cancelled' } });
    expect(events.at(-1)).toEqual({ type: 'state-changed', path: '/root', state: 'cancelled' });

    // The root's answer streamed in its chunks, reasoning first, all before its turn ended.
    const rootText = events.filter((e) => e.type === 'text-delta' && e.path === '/root' && e.step === 1);
    expect(rootText.map((e) => (e.type === 'text-delta' ? e.text : ''))).toEqual(['The parser ', 'drops a ', 'brace.']);
    expect(rootText.map((e) => (e.type === 'text-delta' ? e.text : '')).join('')).toBe(outcome.text);
    const reasoning = indexOf(events, (e) => e.type === 'reasoning-delta' && e.path === '/root');
    const firstText = indexOf(events, (e) => e.type === 'text-delta' && e.path === '/root' && e.step === 1);
    const turnEnded = indexOf(events, (e) => e.type === 'turn-ended' && e.path === '/root');
    expect(reasoning).toBeLessThan(firstText);
    expect(events.findLastIndex((e) => e.type === 'text-delta' && e.path === '/root')).toBeLessThan(turnEnded);

    // The subagent: spawned before any of its state changes, settled after; its text (not
    // chunked by the script) arrives in chunkSize pieces.
    const spawned = indexOf(events, (e) => e.type === 'subagent-spawned' && e.path === '/root/research');
    const settled = indexOf(events, (e) => e.type === 'subagent-settled' && e.path === '/root/research');
    expect(spawned).toBeLessThan(indexOf(events, (e) => e.type === 'state-changed' && e.path === '/root/research'));
    expect(spawned).toBeLessThan(settled);
    expect(events[spawned]).toMatchObject({ parentPath: '/root', context: 'none', delivery: 'caller', lifetime: 'one-shot', task: 'look it up' });
    expect(events[settled]).toMatchObject({ result: { status: 'completed', text: 'line 88' } });
    expect(events.filter((e) => e.type === 'text-delta' && e.path === '/root/research' && e.step === 1).map((e) => (e.type === 'text-delta' ? e.text : ''))).toEqual(['line', ' 88']);

    // Tool calls: the root's Agent call, the subagent's two lookups; each started, then finished once.
    for (const callId of ['c1', 'c2']) {
      const started = indexOf(events, (e) => e.type === 'tool-call-started' && e.callId === callId);
      const finished = events.filter((e) => e.type === 'tool-call-finished' && e.callId === callId);
      expect(finished).toHaveLength(1);
      expect(started).toBeLessThan(events.indexOf(finished[0]!));
    }
    expect(events.find((e) => e.type === 'tool-call-started' && e.callId === 'c1')).toMatchObject({ path: '/root/research', toolName: 'lookup', args: { word: 'brace' } });
    expect(events.find((e) => e.type === 'tool-call-finished' && e.callId === 'c1')).toMatchObject({ isError: false, cancelled: false, content: 'brace: a definition' });
    expect(events.find((e) => e.type === 'tool-call-finished' && e.callId === 'c2')).toMatchObject({ isError: true, content: 'no entry for missing' });
    const agentCall = indexOf(events, (e) => e.type === 'tool-call-started' && e.path === '/root' && e.toolName === 'Agent');
    expect(agentCall).toBeLessThan(spawned);
    expect(settled).toBeLessThan(indexOf(events, (e) => e.type === 'tool-call-finished' && e.path === '/root' && e.toolName === 'Agent'));

    // Usage: the subagent's own, then the root's subtree including it.
    const researchUsage = events.filter((e) => e.type === 'usage-updated' && e.path === '/root/research');
    expect(researchUsage.at(-1)).toMatchObject({ usage: { inputTokens: 7, outputTokens: 3 } });
    expect(events.filter((e) => e.type === 'usage-updated' && e.path === '/root').at(-1)).toMatchObject({
      usage: { inputTokens: 30, outputTokens: 8 },
      subtreeUsage: { inputTokens: 37, outputTokens: 11 },
      sessionUsage: { inputTokens: 37, outputTokens: 11 },
    });
  });

  it('filters by path: only that agent, ending after it settled', async () => {
    const rt = createRuntime({ model: delegatingModel(), tools: [lookup] });
    const reading = collect(rt.events({ path: '/root/research' }));
    await rt.prompt('go');
    const events = await reading; // ended without a stop: its agent settled
    expect(new Set(events.map((e) => e.path))).toEqual(new Set(['/root/research']));
    expect(events[0]?.type).toBe('subagent-spawned');
    expect(events.filter((e) => e.type === 'subagent-settled')).toHaveLength(1);
    expect(events.some((e) => e.type === 'tool-call-started')).toBe(true);
    rt.stop();
  });

  it('with subtree, takes the agent and its subagents at any depth, and nothing else', async () => {
    const model = scriptedModel({
      '/root': { 0: [{ toolCalls: [{ name: 'Agent', arguments: { task_name: 'a', message: 'a' } }, { name: 'Agent', arguments: { task_name: 'c', message: 'c' } }] }, { text: 'done' }] },
      '/root/a': { 0: [{ toolCalls: [{ name: 'Agent', arguments: { task_name: 'b', message: 'b' } }] }, { text: 'a done' }] },
      '**': { 0: [{ text: 'leaf' }] },
    });
    const rt = createRuntime({ model });
    const subtree = collect(rt.events({ path: '/root/a', subtree: true }));
    const only = collect(rt.events({ path: '/root/a' }));
    await rt.prompt('go');
    const [tree, own] = await Promise.all([subtree, only]);
    expect(new Set(tree.map((e) => e.path))).toEqual(new Set(['/root/a', '/root/a/b']));
    expect(tree.filter((e) => e.type === 'subagent-settled').map((e) => e.path)).toEqual(['/root/a/b', '/root/a']);
    expect(new Set(own.map((e) => e.path))).toEqual(new Set(['/root/a']));
    rt.stop();
  });

  it('break and an aborted signal unsubscribe: no listener is left, and model requests stop streaming', async () => {
    const asked: boolean[] = [];
    const model: ModelAdapter = {
      name: 'recording',
      sample: async (_request, context: SampleContext) => {
        asked.push(context.onDelta !== undefined);
        return { text: `answer ${asked.length}`, toolCalls: [], usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 } };
      },
    };
    const rt = createRuntime({ model });
    await rt.prompt('nobody listens'); // a session without consumers is not asked to stream

    const iterator = rt.events();
    const first = (async () => {
      for await (const event of iterator) if (event.type === 'text-delta') return event.text;
      return undefined;
    })();
    await rt.prompt('one listener');
    await expect(first).resolves.toBe('answer 2'); // the adapter did not stream: its text came as one delta
    await expect(iterator.next()).resolves.toEqual({ done: true, value: undefined });
    await rt.prompt('after break');

    const controller = new AbortController();
    const aborted = collect(rt.events({ signal: controller.signal }));
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
    await rt.prompt('with a signal');
    controller.abort();
    const seen = await aborted; // ends quietly, nothing thrown
    expect(seen.some((e) => e.type === 'text-delta')).toBe(true);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    await rt.prompt('after abort');

    expect(asked).toEqual([false, true, false, true, false]);
    rt.stop();
  });

  it('return() ends an iterator that is waiting, and an iterator opened on an ended session or agent ends at once', async () => {
    const rt = createRuntime({ model: scriptedModel({ '**': { 0: [{ text: 'ok' }] } }) });
    const iterator = rt.events();
    const pending = iterator.next();
    await iterator.return?.();
    await expect(pending).resolves.toEqual({ done: true, value: undefined });

    const handle = await rt.spawn('/root', { task_name: 'quick', message: 'go' });
    await handle.result;
    await expect(collect(rt.events({ path: '/root/quick' }))).resolves.toEqual([]);
    rt.stop();
    await expect(collect(rt.events())).resolves.toEqual([]);
  });

  it('rejects malformed options with a RuntimeError and subscribes nothing', () => {
    const rt = createRuntime({ model: scriptedModel({}) });
    for (const bad of [{ path: 'root' }, { path: 7 }, { subtree: 'yes' }, { signal: {} }, { bufferSize: 0 }, { bufferSize: 1.5 }]) {
      expect(() => rt.events(bad as never)).toThrow(RuntimeError);
    }
    expect(() => rt.events(null as never)).toThrow(/options object/);
    rt.stop();
  });

  it('bounds what an unread iterator holds: the oldest are dropped and a lagged event says how many', async () => {
    const rt = createRuntime({ model: delegatingModel(), tools: [lookup] });
    const everything = collect(rt.events());
    const slow = rt.events({ bufferSize: 3 });
    await rt.prompt('go');
    rt.stop();
    const all = await everything;
    const lagged = await slow.next();
    expect(lagged.value).toEqual({ type: 'lagged', path: '/root', dropped: all.length - 3 });
    const rest = await collect(slow);
    expect(rest).toEqual(all.slice(-3));
  });

  it('an iterator read in bursts long after the events keeps them all, in order', async () => {
    const calls = Array.from({ length: 300 }, (_, i) => ({ name: 'Agent', arguments: { task_name: `w${i}`, message: 'work' } }));
    const model = scriptedModel({ '/root': { 0: [{ toolCalls: calls }, { text: 'done' }] }, '**': { 0: [{ text: 'ok' }] } });
    const rt = createRuntime({ model, limits: { maxChildren: 300, maxTotal: 300 } });
    const reference = collect(rt.events());
    const late = rt.events();
    await rt.prompt('go');
    const firstHalf: RuntimeStreamEvent[] = [];
    for (let i = 0; i < 1500; i++) {
      const next = await late.next();
      if (next.done) break;
      firstHalf.push(next.value);
    }
    rt.stop();
    const all = await reference;
    expect(all.length).toBeGreaterThan(2000);
    expect([...firstHalf, ...(await collect(late))]).toEqual(all);
  });

  it('a tool call stopped with its step finishes as cancelled, once', async () => {
    const never = defineRuntimeTool({ name: 'hang', description: 'Never returns.', schema: z.object({}), execute: () => new Promise<string>(() => {}) });
    const started = deferred<void>();
    const model = scriptedModel({ '/root/worker': { 0: [{ toolCalls: [{ name: 'hang', id: 'h1' }] }] } });
    const rt = createRuntime({ model, tools: [never] });
    const reading = collect(rt.events({ path: '/root/worker' }));
    const off = rt.on('change', (c) => c.path === '/root/worker' && c.state === 'running.working.acting' && started.resolve());
    await rt.spawn('/root', { task_name: 'worker', message: 'hang' });
    await started.promise;
    off();
    rt.cancel('/root/worker');
    const events = await reading;
    const finished = events.filter((e) => e.type === 'tool-call-finished');
    expect(finished).toEqual([expect.objectContaining({ callId: 'h1', toolName: 'hang', isError: true, cancelled: true })]);
    expect(events.findIndex((e) => e.type === 'tool-call-started')).toBeLessThan(events.indexOf(finished[0]!));
    rt.stop();
  });

  it("an adapter that does not stream: its reply's reasoning parts, then its text, as one delta each, before the turn ends", async () => {
    const model: ModelAdapter = {
      name: 'whole',
      sample: async () => ({
        text: 'Because of line 88.',
        reasoning: [{ text: 'Look at the parser.' }, { text: '', providerMetadata: { anthropic: { redactedData: 'x' } } }],
        toolCalls: [],
        usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 },
      }),
    };
    const rt = createRuntime({ model });
    const reading = collect(rt.events({ path: '/root' }));
    await rt.prompt('why?');
    rt.stop();
    const kinds = (await reading).filter((e) => e.type === 'text-delta' || e.type === 'reasoning-delta' || e.type === 'turn-ended');
    expect(kinds.map((e) => [e.type, e.type === 'turn-ended' ? '' : e.text])).toEqual([
      ['reasoning-delta', 'Look at the parser.'],
      ['text-delta', 'Because of line 88.'],
      ['turn-ended', ''],
    ]);
  });

  it("drops an adapter's malformed deltas and deltas after its reply", async () => {
    let late: ((d: unknown) => void) | undefined;
    const model: ModelAdapter = {
      name: 'sloppy',
      sample: async (_request, context) => {
        const emit = context.onDelta as (d: unknown) => void;
        emit({ kind: 'text', text: 'good ' });
        emit({ kind: 'text', text: 42 });
        emit({ kind: 'sound', text: 'beep' });
        emit(null);
        emit({ kind: 'text', text: '' });
        emit({ kind: 'reasoning', text: 'hmm' });
        late = emit;
        return { text: 'good answer', toolCalls: [], usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 } };
      },
    };
    const rt = createRuntime({ model });
    const reading = collect(rt.events({ path: '/root' }));
    await rt.prompt('go');
    late?.({ kind: 'text', text: 'too late' });
    rt.stop();
    const deltas = (await reading).filter((e) => e.type === 'text-delta' || e.type === 'reasoning-delta');
    expect(deltas.map((e) => [e.type, e.type === 'text-delta' || e.type === 'reasoning-delta' ? e.text : ''])).toEqual([
      ['text-delta', 'good '],
      ['reasoning-delta', 'hmm'],
    ]);
  });

  it('a retried request: the failed attempt streams, a retry event follows, the next attempt streams from its start; late deltas of the failed one are dropped', async () => {
    const clock = manualClock();
    let failedDelta: ((d: { kind: 'text'; text: string }) => void) | undefined;
    let attempts = 0;
    const model: ModelAdapter = {
      name: 'flaky',
      sample: async (_request, context) => {
        attempts++;
        if (attempts === 1) {
          context.onDelta?.({ kind: 'text', text: 'par' });
          failedDelta = context.onDelta;
          throw Object.assign(new Error('HTTP 503'), { status: 503 });
        }
        failedDelta?.({ kind: 'text', text: 'stale' });
        context.onDelta?.({ kind: 'text', text: 'full answer' });
        return { text: 'full answer', toolCalls: [], usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 } };
      },
    };
    const rt = createRuntime({ model, clock, requestTimeoutMs: Infinity, retry: { maxRetries: 1, initialDelayMs: 50, jitter: 0 } });
    const reading = collect(rt.events({ path: '/root' }));
    const retried = new Promise<void>((resolve) => rt.on('retry', () => resolve()));
    const outcome = rt.prompt('go');
    await retried;
    clock.advance(50);
    await expect(outcome).resolves.toMatchObject({ status: 'completed', text: 'full answer' });
    rt.stop();
    const seen = (await reading).filter((e) => e.type === 'text-delta' || e.type === 'retry' || e.type === 'turn-ended');
    expect(seen.map((e) => (e.type === 'text-delta' ? e.text : e.type))).toEqual(['par', 'retry', 'full answer', 'turn-ended']);
    expect(seen[1]).toEqual({ type: 'retry', path: '/root', attempt: 1, delayMs: 50, error: 'HTTP 503', status: 503 });
  });
});

describe('Agent calls answered by their subagent', () => {
  it('finish in their own runtime’s stream when two runtimes use the same paths and call ids', async () => {
    const script = (answer: string) =>
      scriptedModel({
        '/root': { 0: [{ toolCalls: [{ name: 'Agent', arguments: { task_name: 'w', message: 'work' }, id: 'call_same' }] }, { text: 'done' }] },
        '/root/w': { 0: [{ text: answer }] },
      });
    const slowScript = script('answer of A');
    const childWaiting = deferred<void>();
    const gate = deferred<void>();
    const slow: ModelAdapter = {
      name: 'slow-child',
      sample: async (request, context: SampleContext) => {
        if (context.agentPath === '/root/w') {
          childWaiting.resolve();
          await gate.promise;
        }
        return slowScript.sample(request, context);
      },
    };
    const a = createRuntime({ model: slow });
    const b = createRuntime({ model: script('answer of B') });
    const readingA = collect(a.events());
    const readingB = collect(b.events());
    const turnA = a.prompt('Go');
    await childWaiting.promise;
    await b.prompt('Go');
    gate.resolve();
    await turnA;
    a.stop();
    b.stop();
    for (const [events, answer] of [[await readingA, 'answer of A'], [await readingB, 'answer of B']] as const) {
      const finished = events.filter((e) => e.type === 'tool-call-finished' && e.path === '/root' && e.callId === 'call_same');
      expect(finished).toHaveLength(1);
      expect(finished[0]).toMatchObject({ cancelled: false, content: expect.stringContaining(answer) });
    }
  });
});
