/**
 * After the store fails, nothing the host awaits hangs: the prompt in flight, `result()` of
 * every agent that was live, and the spawn handles' promises all reject with the store's own
 * typed error (its code says why: `store_failed`, `lease_lost`). A host that never awaited
 * them gets no unhandled rejection.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createJsonlStore, createRuntime, StoreError, ZERO_USAGE, type ModelAdapter, type SampleContext } from '../../src/index.js';

const work = mkdtempSync(join(tmpdir(), 'halt-settles-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A model whose every request waits until aborted; `started` resolves on each new request. */
function hangingModel(): ModelAdapter & { started: (path: string) => Promise<void>; aborted: Set<string> } {
  const waiting = new Map<string, () => void>();
  const seen = new Set<string>();
  const aborted = new Set<string>();
  return {
    name: 'hanging',
    aborted,
    started: (path) => (seen.has(path) ? Promise.resolve() : new Promise<void>((resolve) => waiting.set(path, resolve))),
    sample(_request, context: SampleContext) {
      seen.add(context.agentPath);
      context.signal.addEventListener('abort', () => aborted.add(context.agentPath), { once: true });
      waiting.get(context.agentPath)?.();
      return new Promise((_, reject) => context.signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true }));
    },
  };
}

function failStore(store: unknown, error: StoreError): void {
  (store as { state: { fail(e: StoreError): void } }).state.fail(error);
}

describe('a failed store settles what the host awaits', () => {
  it('the prompt in flight and result() reject with the StoreError', async () => {
    const store = createJsonlStore({ dir: join(work, 'a'), fsync: 'never' });
    const model = hangingModel();
    const runtime = createRuntime({ model, store });
    const prompt = runtime.prompt('work');
    const rootResult = runtime.result('/root');
    await model.started('/root');
    const failure = new StoreError('store_failed', 'disk gone');
    failStore(store, failure);
    await expect(prompt).rejects.toBe(failure);
    await expect(rootResult).rejects.toBe(failure);
    // Asked after the halt, result() of an agent the halt stopped rejects the same way.
    await expect(runtime.result('/root')).rejects.toBe(failure);
  });

  it("a host spawn's handle rejects with the StoreError; an unawaited one raises no unhandled rejection", async () => {
    const store = createJsonlStore({ dir: join(work, 'b'), fsync: 'never' });
    const model = hangingModel();
    const runtime = createRuntime({ model: { ...model, summarize: async () => ({ text: 'bg', usage: ZERO_USAGE }) } as ModelAdapter, store });
    const awaited = await runtime.spawn('/root', { task_name: 'job', message: 'do it' });
    // Never awaited: a halt must not turn these into unhandled rejections.
    const ignored = await runtime.spawn('/root', { task_name: 'other', message: 'do it too' });
    const ignoredPrompt = runtime.prompt('hello');
    void ignored;
    void ignoredPrompt;
    await model.started('/root/job');
    const failure = new StoreError('lease_lost', 'another runtime took over');
    failStore(store, failure);
    await expect(awaited.result).rejects.toBe(failure);
    await expect(awaited.firstReport).rejects.toBe(failure);
    await expect(runtime.result('/root/job')).rejects.toBe(failure);
    // Unhandled rejections would fail this file (vitest reports them); let them surface.
    await new Promise<void>((resolve) => setImmediate(resolve));
  });

  it('stops every agent of the tree, nested subagents included: each request is aborted and no result or turn is reported', async () => {
    const dir = join(work, 'c');
    const store = createJsonlStore({ dir, fsync: 'never' });
    const model = hangingModel();
    const runtime = createRuntime({ model, store });
    const results: string[] = [];
    const turns: string[] = [];
    runtime.on('result', (r) => results.push(r.path));
    runtime.on('turn', (t) => turns.push(t.path));
    const prompt = runtime.prompt('work');
    await model.started('/root');
    const job = await runtime.spawn('/root', { task_name: 'job', message: 'do it' });
    const nested = await runtime.spawn('/root/job', { task_name: 'deep', message: 'and this' });
    await model.started('/root/job/deep');
    const failure = new StoreError('store_failed', 'disk gone');
    failStore(store, failure);
    await expect(prompt).rejects.toBe(failure);
    await expect(job.result).rejects.toBe(failure);
    await expect(nested.result).rejects.toBe(failure);
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect([...model.aborted].sort()).toEqual(['/root', '/root/job', '/root/job/deep']);
    expect(results).toEqual([]);
    expect(turns).toEqual([]);
    await runtime.whenQuiet();
  });
});
