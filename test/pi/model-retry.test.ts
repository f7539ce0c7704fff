import { createModels, fauxAssistantMessage, fauxProvider, InMemoryCredentialStore, type FauxResponseStep } from '@earendil-works/pi-ai';
import { describe, expect, it } from 'vitest';
import { manualClock } from '../../src/model/clock.js';
import { piModelAdapter } from '../../src/pi/model.js';
import { createRuntime } from '../../src/runtime/runtime.js';
import type { RetryEvent } from '../../src/runtime/types.js';

/** A Pi model adapter over the faux provider, answering `responses` in order. */
async function fauxAdapter(responses: FauxResponseStep[]) {
  const faux = fauxProvider({ tokensPerSecond: 1_000_000 });
  const credentials = new InMemoryCredentialStore();
  await credentials.modify(faux.provider.id, async () => ({ type: 'api_key', key: 'offline' }));
  const models = createModels({ credentials });
  models.setProvider(faux.provider);
  faux.setResponses(responses);
  const model = piModelAdapter({
    model: () => faux.getModel(),
    stream: (m, context, options) => models.streamSimple(m, context, options),
    sessionId: () => undefined,
    tool: () => undefined,
  });
  return { faux, model };
}

describe('Pi model adapter: failures the runtime retries', () => {
  it("retries what Pi's session would (a rate limit), after the backoff; the turn completes", async () => {
    const { faux, model } = await fauxAdapter([fauxAssistantMessage('', { stopReason: 'error', errorMessage: '429 rate limit exceeded' }), fauxAssistantMessage('done')]);
    const clock = manualClock();
    const rt = createRuntime({ model, clock, requestTimeoutMs: Infinity, retry: { initialDelayMs: 100, jitter: 0 } });
    const retries: RetryEvent[] = [];
    const retried = new Promise<void>((resolve) =>
      rt.on('retry', (e) => {
        retries.push(e);
        resolve();
      }),
    );
    const pending = rt.prompt('hello');
    await retried;
    clock.advance(100);
    await expect(pending).resolves.toMatchObject({ status: 'completed', text: 'done', usage: { own: { retries: 1, requests: 2 } } });
    expect(retries).toEqual([{ path: '/root', attempt: 1, delayMs: 100, error: '429 rate limit exceeded' }]);
    expect(faux.state.callCount).toBe(2);
  });

  it('does not retry an error Pi would not (a bad request), nor a context overflow', async () => {
    const { faux, model } = await fauxAdapter([
      fauxAssistantMessage('', { stopReason: 'error', errorMessage: 'invalid_request_error: tools.0.name is invalid' }),
      fauxAssistantMessage('', { stopReason: 'error', errorMessage: 'prompt is too long: 250000 tokens > 200000 maximum' }),
    ]);
    const rt = createRuntime({ model, requestTimeoutMs: Infinity });
    const retries: RetryEvent[] = [];
    rt.on('retry', (e) => retries.push(e));
    await expect(rt.prompt('one')).resolves.toMatchObject({ status: 'failed', error: expect.stringMatching(/invalid_request_error/) });
    await expect(rt.prompt('two')).resolves.toMatchObject({ status: 'failed', error: expect.stringMatching(/prompt is too long/) });
    expect(retries).toEqual([]);
    expect(faux.state.callCount).toBe(2);
  });
});
