import { getEventListeners } from 'node:events';
import { APICallError } from '@ai-sdk/provider';
import { describe, expect, it, vi } from 'vitest';
import { manualClock } from '../../src/model/clock.js';
import type { ModelAdapter, ModelResponse, SampleContext } from '../../src/model/adapter.js';
import { parseDefinition } from '../../src/policy/parse-definition.js';
import { createRuntime } from '../../src/runtime/runtime.js';
import type { RetryEvent, Runtime } from '../../src/runtime/types.js';

const usage = { inputTokens: 10, outputTokens: 2, cacheReadTokens: 0, cacheWriteTokens: 0 };
const reply = (text: string): ModelResponse => ({ text, toolCalls: [], usage });

/** An error as a host adapter might throw it: an HTTP status and response headers. */
function httpError(status: number, headers: Record<string, string> = {}): Error {
  return Object.assign(new Error(`HTTP ${status}`), { status, headers });
}

/** A model whose answer for each call (0-based, all agents together) is given by `answer`; it records the signals it got. */
function modelOf(answer: (call: number, context: SampleContext) => unknown): ModelAdapter & { readonly contexts: SampleContext[] } {
  const contexts: SampleContext[] = [];
  return {
    name: 'test',
    contexts,
    async sample(_request, context) {
      contexts.push(context);
      const value = answer(contexts.length - 1, context);
      if (value instanceof Error) throw value;
      return (await value) as ModelResponse;
    },
  };
}

/** The next `retry` event of `rt`. The retry's wait is registered on the clock when this resolves. */
function nextRetry(rt: Runtime): Promise<RetryEvent> {
  return new Promise((resolve) => {
    const off = rt.on('retry', (event) => {
      off();
      resolve(event);
    });
  });
}

describe('retries of transient model failures', () => {
  it("a 429 is retried after the provider's retry-after; the retry shows in events and usage", async () => {
    const clock = manualClock();
    const model = modelOf((call) => (call === 0 ? httpError(429, { 'Retry-After': '3' }) : reply('after the wait')));
    const rt = createRuntime({ model, clock, requestTimeoutMs: Infinity });
    const pending = rt.prompt('hello');
    const retry = await nextRetry(rt);
    expect(retry).toEqual({ path: '/root', attempt: 1, delayMs: 3_000, error: 'HTTP 429', status: 429 });
    expect(model.contexts).toHaveLength(1);
    clock.advance(2_999);
    expect(model.contexts).toHaveLength(1);
    clock.advance(1);
    const outcome = await pending;
    expect(outcome).toMatchObject({ status: 'completed', text: 'after the wait' });
    expect(outcome.usage.own).toMatchObject({ requests: 2, retries: 1, inputTokens: 10 });
    expect(rt.usage()).toMatchObject({ requests: 2, retries: 1 });
    expect(clock.pending).toBe(0);
  });

  it('5xx failures back off exponentially; a failure that remains ends the turn, and the next prompt works', async () => {
    const clock = manualClock();
    const model = modelOf((call) => (call < 3 ? httpError(503) : reply('recovered')));
    const rt = createRuntime({ model, clock, requestTimeoutMs: Infinity, retry: { maxRetries: 2, initialDelayMs: 100, jitter: 0 } });
    const retries: RetryEvent[] = [];
    rt.on('retry', (e) => retries.push(e));
    const pending = rt.prompt('first');
    await nextRetry(rt);
    clock.advance(100);
    await nextRetry(rt);
    clock.advance(200);
    const failed = await pending;
    expect(retries.map((r) => [r.attempt, r.delayMs, r.status])).toEqual([
      [1, 100, 503],
      [2, 200, 503],
    ]);
    expect(failed).toMatchObject({ status: 'failed', stopReason: 'model_error', error: 'HTTP 503 (gave up after 3 attempts)' });
    expect(rt.stateOf('/root')).toBe('running.idle');
    await expect(rt.prompt('second')).resolves.toMatchObject({ status: 'completed', text: 'recovered' });
    expect(model.contexts).toHaveLength(4);
  });

  it('a failed turn counts every request it sent: two 503s, a retry, a third 503 are three requests and two retries', async () => {
    const clock = manualClock();
    const model = modelOf((call) => (call < 3 ? httpError(503) : reply('recovered')));
    const rt = createRuntime({ model, clock, requestTimeoutMs: Infinity, retry: { maxRetries: 2, initialDelayMs: 100, jitter: 0 } });
    const pending = rt.prompt('first');
    await nextRetry(rt);
    clock.advance(100);
    await nextRetry(rt);
    clock.advance(200);
    const failed = await pending;
    expect(failed).toMatchObject({ status: 'failed', stopReason: 'model_error' });
    expect(failed.usage.own).toMatchObject({ requests: 3, retries: 2, inputTokens: 0, outputTokens: 0 });
    expect(rt.usage()).toMatchObject({ requests: 3, retries: 2 });
    // The next turn adds its own request to what the failed one cost.
    const next = await rt.prompt('second');
    expect(next.usage.own).toMatchObject({ requests: 1, retries: 0, inputTokens: 10 });
    expect(rt.usage()).toMatchObject({ requests: 4, retries: 2, inputTokens: 10 });
  });

  it('a subagent whose only request fails counts it, in its result and in the session total', async () => {
    const model = modelOf((_call, { agentPath }) => (agentPath === '/root/w' ? httpError(400) : reply('root ok')));
    const rt = createRuntime({ model, requestTimeoutMs: Infinity });
    const handle = await rt.spawn('/root', { task_name: 'w', message: 'x' });
    const result = await handle.result;
    expect(result).toMatchObject({ status: 'failed', stopReason: 'model_error', error: 'HTTP 400' });
    expect(result.usage).toMatchObject({ requests: 1, retries: 0 });
    expect(result.subtreeUsage).toMatchObject({ requests: 1, retries: 0 });
    expect(rt.usage()).toMatchObject({ requests: 1, retries: 0 });
  });

  it.each([
    ['400', httpError(400)],
    ['401', httpError(401)],
    ['an AI SDK error the provider marked not retryable', new APICallError({ message: 'bad schema', url: 'https://x', requestBodyValues: {}, statusCode: 422 })],
    ['a plain error', new Error('schema mismatch')],
  ])('%s is not retried', async (_name, error) => {
    const model = modelOf((call) => (call === 0 ? error : reply('next')));
    const rt = createRuntime({ model, requestTimeoutMs: Infinity });
    const retries: RetryEvent[] = [];
    rt.on('retry', (e) => retries.push(e));
    await expect(rt.prompt('x')).resolves.toMatchObject({ status: 'failed', error: error.message });
    expect(retries).toEqual([]);
    expect(model.contexts).toHaveLength(1);
  });

  it.each([
    ['an AI SDK 429 (APICallError, retry-after-ms)', new APICallError({ message: 'slow down', url: 'https://x', requestBodyValues: {}, statusCode: 429, responseHeaders: { 'retry-after-ms': '250' } }), 250],
    ['a reset connection', Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }), 1_000],
    ['an undici fetch failure', new TypeError('fetch failed', { cause: Object.assign(new Error('connect'), { code: 'ETIMEDOUT' }) }), 1_000],
  ])('%s is retried', async (_name, error, delayMs) => {
    const clock = manualClock();
    const model = modelOf((call) => (call === 0 ? error : reply('ok')));
    const rt = createRuntime({ model, clock, requestTimeoutMs: Infinity, retry: { initialDelayMs: 1_000, jitter: 0 } });
    const pending = rt.prompt('x');
    expect(await nextRetry(rt)).toMatchObject({ attempt: 1, delayMs });
    clock.advance(delayMs);
    await expect(pending).resolves.toMatchObject({ status: 'completed', text: 'ok' });
  });

  it('a model that throws synchronously is treated like one that rejects: a 503 thrown at once is retried', async () => {
    const clock = manualClock();
    let calls = 0;
    const model: ModelAdapter = {
      name: 'sync',
      sample: () => {
        if (calls++ === 0) throw httpError(503);
        return Promise.resolve(reply('second'));
      },
    };
    const rt = createRuntime({ model, clock, requestTimeoutMs: Infinity, retry: { initialDelayMs: 5, jitter: 0 } });
    const pending = rt.prompt('x');
    await nextRetry(rt);
    clock.advance(5);
    await expect(pending).resolves.toMatchObject({ status: 'completed', text: 'second' });
  });

  it('an abort during the wait cancels the turn at once: no further attempt, no timer, no listener left', async () => {
    const clock = manualClock();
    const model = modelOf((call) => (call === 0 ? httpError(500) : reply('only later')));
    const rt = createRuntime({ model, clock, requestTimeoutMs: Infinity });
    const controller = new AbortController();
    const pending = rt.prompt('x', { signal: controller.signal });
    await nextRetry(rt);
    expect(clock.pending).toBe(1);
    controller.abort();
    await expect(pending).resolves.toMatchObject({ status: 'cancelled' });
    expect(clock.pending).toBe(0);
    expect(model.contexts).toHaveLength(1);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    await expect(rt.prompt('again')).resolves.toMatchObject({ status: 'completed', text: 'only later' });
  });

  it("a role's retry policy overrides the runtime's; a subagent whose failure remains fails with one result", async () => {
    const clock = manualClock();
    const model = modelOf((_call, { agentPath }) => (agentPath === '/root/w' ? httpError(503) : reply('root ok')));
    const role = parseDefinition(['---', 'name: fragile', 'description: d', 'retry:', '  maxRetries: 0', '---', 'Work.'].join('\n'), { file: 'fragile.md', scope: 'project' });
    const rt = createRuntime({ model, clock, requestTimeoutMs: Infinity, roles: [role], retry: { maxRetries: 5 } });
    const retries: RetryEvent[] = [];
    rt.on('retry', (e) => retries.push(e));
    const handle = await rt.spawn('/root', { task_name: 'w', message: 'x', role: 'fragile' });
    await expect(handle.result).resolves.toMatchObject({ status: 'failed', stopReason: 'model_error', error: 'HTTP 503' });
    expect(retries).toEqual([]);
    expect(rt.results.filter((r) => r.path === '/root/w')).toHaveLength(1);
    expect(rt.slotsInUse).toBe(0);
  });

  it('bad settings are rejected when the runtime starts, naming the field', () => {
    const model = modelOf(() => reply('x'));
    expect(() => createRuntime({ model, retry: { maxRetries: -1 } })).toThrow(/RuntimeOptions\.retry\.maxRetries must be an integer ≥ 0/);
    expect(() => createRuntime({ model, retry: { jitter: 2 } })).toThrow(TypeError);
    expect(() => createRuntime({ model, retry: { tries: 3 } as never })).toThrow(/unknown retry setting "tries"/);
    expect(() => createRuntime({ model, requestTimeoutMs: 0 })).toThrow(/requestTimeoutMs must be a number of ms > 0/);
    expect(() => createRuntime({ model, roles: [{ name: 'r', retry: { backoffFactor: 0.5 } }] })).toThrow(/role "r" retry\.backoffFactor must be a number ≥ 1/);
  });
});

describe('per-request timeout', () => {
  it("a request that never answers is aborted after requestTimeoutMs (the adapter's signal aborts) and retried", async () => {
    const clock = manualClock();
    const model = modelOf((call) => (call === 0 ? new Promise(() => undefined) : reply('second try')));
    const rt = createRuntime({ model, clock, requestTimeoutMs: 1_000, retry: { initialDelayMs: 10, jitter: 0 } });
    const pending = rt.prompt('x');
    await clock.whenPending(1);
    const retried = nextRetry(rt);
    clock.advance(1_000);
    expect(await retried).toMatchObject({ attempt: 1, delayMs: 10, error: 'the model request timed out after 1000 ms' });
    expect(model.contexts[0]!.signal.aborted).toBe(true);
    clock.advance(10);
    await expect(pending).resolves.toMatchObject({ status: 'completed', text: 'second try' });
    expect(clock.pending).toBe(0);
  });

  it('with the default clock the timeout is a plain timer: it aborts a request that never answers, and no timer outlives the turn', async () => {
    vi.useFakeTimers();
    try {
      let called!: () => void;
      const firstCall = new Promise<void>((resolve) => (called = resolve));
      const model = modelOf((call) => {
        if (call > 0) return reply('second try');
        called();
        return new Promise(() => undefined);
      });
      const rt = createRuntime({ model, requestTimeoutMs: 1_000, retry: { initialDelayMs: 10, jitter: 0 } });
      const retried = nextRetry(rt);
      const pending = rt.prompt('x');
      await firstCall;
      await vi.advanceTimersByTimeAsync(999);
      expect(model.contexts[0]!.signal.aborted).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(await retried).toMatchObject({ attempt: 1, delayMs: 10, error: 'the model request timed out after 1000 ms' });
      expect(model.contexts[0]!.signal.aborted).toBe(true);
      await vi.advanceTimersByTimeAsync(10);
      await expect(pending).resolves.toMatchObject({ status: 'completed', text: 'second try' });
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it("a role's requestTimeoutMs applies to its agent's requests; a timeout that remains ends the turn with a clear error", async () => {
    const clock = manualClock();
    const model = modelOf(() => new Promise(() => undefined));
    const rt = createRuntime({ model, clock, roles: [{ name: 'quick', requestTimeoutMs: 50 }], retry: { maxRetries: 0 } });
    const handle = await rt.spawn('/root', { task_name: 'w', message: 'x', role: 'quick' });
    await clock.whenPending(1);
    clock.advance(50);
    await expect(handle.result).resolves.toMatchObject({ status: 'failed', error: 'the model request timed out after 50 ms' });
    expect(clock.pending).toBe(0);
    expect(rt.slotsInUse).toBe(0);
  });

  it('a reply that arrives after an abort is dropped: one cancelled outcome, no timer or listener left, the session goes on', async () => {
    const clock = manualClock();
    let answerLate!: (value: ModelResponse) => void;
    const model = modelOf((call) => (call === 0 ? new Promise((resolve) => (answerLate = resolve)) : reply('next turn')));
    const rt = createRuntime({ model, clock, requestTimeoutMs: 5_000 });
    const controller = new AbortController();
    const turns: string[] = [];
    rt.on('turn', (t) => turns.push(t.status));
    const pending = rt.prompt('x', { signal: controller.signal });
    await clock.whenPending(1);
    controller.abort();
    await expect(pending).resolves.toMatchObject({ status: 'cancelled' });
    answerLate({ text: '', toolCalls: [{ id: 'late', name: 'Agent', arguments: { task_name: 'late', message: 'y' } }], usage });
    await expect(rt.prompt('again')).resolves.toMatchObject({ status: 'completed', text: 'next turn' });
    expect(turns).toEqual(['cancelled', 'completed']);
    expect(rt.list().map((a) => a.path)).toEqual(['/root']);
    expect(clock.pending).toBe(0);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    expect(getEventListeners(model.contexts[0]!.signal, 'abort')).toHaveLength(0);
  });

  it('a request that answers in time leaves no timer behind', async () => {
    const clock = manualClock();
    const rt = createRuntime({ model: modelOf(() => reply('quick')), clock });
    await expect(rt.prompt('x')).resolves.toMatchObject({ text: 'quick' });
    expect(clock.pending).toBe(0);
  });
});
