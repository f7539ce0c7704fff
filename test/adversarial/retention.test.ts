/**
 * Default retention (the second campaign's fourteenth defect): a long-lived runtime kept every
 * settled agent's result and final dialogue forever (4,306 B each in the campaign), so a host
 * running for days grew without bound unless it knew to set a policy. The default now keeps
 * the latest DEFAULT_MAX_SETTLED (1,000); keep-all is `{ maxSettled: Infinity }`. Counted,
 * never by heap size or time (`npm run bench` measures the bytes).
 */
import { describe, expect, it } from 'vitest';
import { createRuntime, DEFAULT_MAX_SETTLED, type Runtime } from '../../src/index.js';
import { hostileModel } from './helpers.js';

const usage = { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 };
const model = () => hostileModel(() => ({ text: 'ok', toolCalls: [], usage }));
const EXTRA = 30;
/** The documented default, written out so the test reads the bound, not the constant. */
const BOUND = 1_000;

/** Settles `count` subagents of the root, eight at a time. */
async function settle(rt: Runtime, count: number): Promise<void> {
  for (let start = 0; start < count; start += 8) {
    const handles = await Promise.all(Array.from({ length: Math.min(8, count - start) }, (_, i) => rt.spawn('/root', { task_name: `w${start + i}`, message: 'work' })));
    await Promise.all(handles.map((h) => h.result));
  }
  await rt.whenQuiet();
}

describe('default retention is bounded', () => {
  it('keeps the latest 1,000 settled agents, dropping the oldest first', async () => {
    const rt = createRuntime({ model: model() });
    await settle(rt, BOUND + EXTRA);
    expect(rt.results).toHaveLength(BOUND);
    expect(rt.results[0]!.path).toBe(`/root/w${EXTRA}`);
    expect(rt.results.at(-1)!.path).toBe(`/root/w${BOUND + EXTRA - 1}`);
    await expect(rt.result('/root/w0')).rejects.toMatchObject({ code: 'unknown_agent', message: expect.stringContaining('no longer retained') });
    expect(rt.transcript(`/root/w${EXTRA - 1}`)).toBeUndefined();
    expect(rt.transcript(`/root/w${EXTRA}`)).toBeDefined();
    expect(DEFAULT_MAX_SETTLED).toBe(BOUND);
    rt.stop();
  });

  it('keep-all is an option: { maxSettled: Infinity }', async () => {
    const rt = createRuntime({ model: model(), retention: { maxSettled: Infinity } });
    await settle(rt, BOUND + EXTRA);
    expect(rt.results).toHaveLength(BOUND + EXTRA);
    await expect(rt.result('/root/w0')).resolves.toMatchObject({ status: 'completed', text: 'ok' });
    rt.stop();
  });
});
