/**
 * One reply with many Agent calls (caller delivery): every call returns its subagent's result
 * exactly once, in the parent's dialogue, and the parent holds no tool actor afterwards.
 */
import { describe, expect, it } from 'vitest';
import type { Entry } from '../../src/dialogue/entry.js';
import { scriptedModel } from '../../src/model/scripted.js';
import { createRuntime } from '../../src/runtime/runtime.js';

const taskNumber = (entry: Entry | undefined): string => (entry?.kind === 'user' ? (/task (\d+)/.exec(entry.text)?.[1] ?? '?') : '?');

describe('fan-out in one reply', () => {
  it('delivers every subagent result to its own call, once', async () => {
    const n = 60;
    const calls = Array.from({ length: n }, (_, i) => ({ id: `c${i}`, name: 'Agent', arguments: { task_name: `w${i}`, message: `task ${i}` } }));
    const model = scriptedModel({
      '/root': { 0: [{ toolCalls: calls }, { text: 'all done' }] },
      '/root/*': { 0: [(request) => ({ text: `did ${taskNumber(request.messages.at(-1))}` })] },
    });
    const rt = createRuntime({ model, limits: { maxChildren: n, maxTotal: n } });
    const turn = new Promise<void>((resolve) => rt.on('turn', (r) => r.path === '/root' && resolve()));
    rt.prompt('go');
    await turn;
    const results = rt.transcript('/root')!.log.toArray().flatMap((e) => (e.kind === 'tool_result' ? [e] : []));
    expect(results).toHaveLength(n);
    for (const r of results) expect(r.content).toContain(`did ${r.callId.slice(1)}`);
    expect(new Set(rt.results.map((r) => r.path)).size).toBe(n);
    expect(rt.stateOf('/root')).toBe('running.idle');
    rt.stop();
  });

  it('lets other macrotasks run while a large fan-out with a zero-latency model is under way (#32 item 7)', async () => {
    // Every request resolves in a microtask: without slices the whole fan-out (the root's
    // first reply, 500 spawns, 500 replies) ran in one turn, and a macrotask queued as it began
    // ran only after the last result was in.
    const n = 500;
    const calls = Array.from({ length: n }, (_, i) => ({ name: 'Agent', arguments: { task_name: `w${i}`, message: 'work' } }));
    const model = scriptedModel({ '/root': { 0: [{ toolCalls: calls }, { text: 'done' }] }, '**': { 0: [{ text: 'ok' }] } });
    const rt = createRuntime({ model, limits: { maxChildren: n, maxTotal: n } });
    const turn = new Promise<void>((resolve) => rt.on('turn', (r) => r.path === '/root' && resolve()));
    rt.prompt('go');
    const atTimer = new Promise<number>((resolve) => setImmediate(() => resolve(rt.results.length)));
    await turn;
    expect(rt.results).toHaveLength(n);
    expect(await atTimer).toBeLessThan(n);
    rt.stop();
  });
});
