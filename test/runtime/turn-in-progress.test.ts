/**
 * A handle on the turn an agent is in (#30 item 7): after resumeRuntime, the host can await
 * the root turn the crash interrupted, as `prompt` would have let it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { scriptedModel } from '../../src/model/scripted.js';
import { manualClock } from '../../src/model/clock.js';
import { createRuntime } from '../../src/runtime/runtime.js';
import { resumeRuntime } from '../../src/runtime/resume.js';
import { createJsonlStore, openJsonlStore } from '../../src/store/jsonl.js';

const dir = mkdtempSync(join(tmpdir(), 'turn-in-progress-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('runtime.turnInProgress', () => {
  it('is undefined for an idle agent and resolves with the outcome of a running turn', async () => {
    const clock = manualClock();
    const rt = createRuntime({ model: scriptedModel({ '/root': { 0: [{ text: 'answer', latencyMs: 5 }] } }, { clock, strict: true }) });
    expect(rt.turnInProgress()).toBeUndefined();
    const prompted = rt.prompt('question');
    await clock.whenPending(1);
    const handle = rt.turnInProgress();
    expect(handle).toBeDefined();
    clock.advance(5);
    const [viaPrompt, viaHandle] = await Promise.all([prompted, handle!]);
    expect(viaHandle).toMatchObject({ path: '/root', turn: 0, status: 'completed', text: 'answer' });
    expect(viaHandle.text).toBe(viaPrompt.text);
    expect(rt.turnInProgress()).toBeUndefined();
    expect(rt.turnInProgress('/root/nobody')).toBeUndefined();
  });

  it('after resumeRuntime, awaits the root turn the crash interrupted', async () => {
    const clock = manualClock();
    const script = { '/root': { 0: [{ text: 'the answer', latencyMs: 5 }] } };
    const store = createJsonlStore({ dir, sessionId: 'crash', fsync: 'never' });
    const crashed = createRuntime({ model: scriptedModel(script, { clock, strict: true }), store });
    void crashed.prompt('question').catch(() => undefined);
    await clock.whenPending(1);
    // The process dies here: the model request is in flight, the journal holds the prompt.
    await store.close();

    const reopened = openJsonlStore({ dir, sessionId: 'crash', fsync: 'never' });
    const resumed = resumeRuntime({ model: scriptedModel(script, { strict: true }), store: reopened });
    const handle = resumed.turnInProgress();
    expect(handle).toBeDefined();
    await expect(handle!).resolves.toMatchObject({ path: '/root', turn: 0, status: 'completed', text: 'the answer' });
    await reopened.close();
  });
});
