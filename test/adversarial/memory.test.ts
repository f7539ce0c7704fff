/**
 * Defect 6 (memory grew with every distinct subagent path): checked by counting, never by
 * timing or heap size. XState caches a parent's transition candidates per event type, and a
 * finished child's done event is named after the child's actor id; so the distinct done-event
 * types a parent receives must stay bounded by its live children, not by the paths it has
 * run. Every per-path structure of the runtime must be bounded the same way.
 */
import { describe, expect, it } from 'vitest';
import type { InspectionEvent } from 'xstate';
import type { ModelAdapter } from '../../src/model/adapter.js';
import { RuntimeCore } from '../../src/runtime/core.js';
import { agentCoreBuilders } from '../../src/runtime/agent-logic.js';
import { spawnSubagent } from '../../src/runtime/spawn.js';
import { createRecorder, type TraceRecord } from '../../src/inspect/recorder.js';
import { ChildIds } from '../../machines/subagent-ids.js';
import { scriptedModel } from '../../src/model/scripted.js';
import { lastRequestOf } from '../../src/runtime/requests.js';
import { NO_CHILDREN } from '../../src/runtime/registry.js';
import type { AgentContext } from '../../machines/agent.types.js';

const usage = { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 };
const quickModel: ModelAdapter = { name: 'quick', sample: () => Promise.resolve({ text: 'ok', toolCalls: [], usage }) };

/** A runtime core whose root's received event types are collected, as the transition cache keys them. */
function observedCore(maxSettled: number): { core: RuntimeCore; rootEventTypes: Set<string> } {
  const rootEventTypes = new Set<string>();
  const inspect = (event: InspectionEvent): void => {
    if (event.type === '@xstate.event' && event.actorRef.sessionId === event.rootId) rootEventTypes.add(event.event.type);
  };
  const core = new RuntimeCore({ model: quickModel, retention: { maxSettled }, inspect }, agentCoreBuilders);
  core.startRoot();
  return { core, rootEventTypes };
}

const childEvents = (types: ReadonlySet<string>): string[] => [...types].filter((t) => t.startsWith('xstate.done.actor.') || t.startsWith('xstate.error.actor.'));

describe('defect 6: memory per distinct subagent path', () => {
  it('200 distinct agents run one after another leave one done-event type at the parent and bounded maps', async () => {
    const { core, rootEventTypes } = observedCore(10);
    for (let i = 0; i < 200; i++) {
      const handle = await spawnSubagent(core, '/root', { task_name: `w${i}`, message: 'work' });
      await handle.result;
    }
    await core.lifecycle.whenQuiet();
    expect(childEvents(rootEventTypes)).toEqual(['xstate.done.actor.subagent:0']);
    expect(core.footprint()).toEqual({ records: 1, tombstones: 200, retained: 10, accounts: 1, resultWaiters: 0, busy: 0, turnWaiters: 0, childActorIds: 1 });
    // Released results leave nothing retained.
    for (const result of core.retention.results()) core.directory.release(result.path);
    expect(core.footprint().retained).toBe(0);
  });

  it('batches of 8 concurrent distinct agents use at most 8 ids in all, and cancelled ones give theirs back', async () => {
    const { core, rootEventTypes } = observedCore(0);
    for (let batch = 0; batch < 20; batch++) {
      const handles = await Promise.all(Array.from({ length: 8 }, (_, i) => spawnSubagent(core, '/root', { task_name: `b${batch}-${i}`, message: 'work' })));
      // Every other batch is cancelled before it answers: cancellation must free ids too.
      if (batch % 2 === 1) for (const h of handles) core.lifecycle.cancel(h.path);
      await Promise.all(handles.map((h) => h.result));
    }
    await core.lifecycle.whenQuiet();
    expect(childEvents(rootEventTypes).length).toBeLessThanOrEqual(8);
    expect(core.footprint()).toMatchObject({ records: 1, retained: 0, accounts: 1, resultWaiters: 0, busy: 0, childActorIds: 8 });
  });

  it('a spawn that fails after its reservation gives its id back', async () => {
    const { core } = observedCore(0);
    for (let i = 0; i < 5; i++) {
      let reads = 0;
      // Valid when checked, throwing when the task is composed (after the reservation).
      const attachments = [{ name: 'f', get content(): string { if (reads++ > 0) throw new Error('gone'); return 'text'; } }];
      await expect(spawnSubagent(core, '/root', { task_name: `f${i}`, message: 'work', attachments })).rejects.toMatchObject({ code: 'start_failed' });
    }
    const handle = await spawnSubagent(core, '/root', { task_name: 'ok', message: 'work' });
    await handle.result;
    expect(core.footprint()).toMatchObject({ records: 1, childActorIds: 1 });
  });

  it('a name spawned again from a result listener starts, although its predecessor still holds the path as systemId', async () => {
    const { core } = observedCore(0);
    const again: Array<Promise<unknown>> = [];
    core.events.on('result', (r) => {
      if (r.path === '/root/x' && again.length === 0) again.push(spawnSubagent(core, '/root', { task_name: 'x', message: 'again' }).then((h) => h.result));
    });
    await (await spawnSubagent(core, '/root', { task_name: 'x', message: 'first' })).result;
    await expect(again[0]).resolves.toMatchObject({ path: '/root/x', status: 'completed' });
  });

  it('inspectors still name agents by path (the actor id is short, the path is the systemId)', async () => {
    const records: TraceRecord[] = [];
    const recorder = createRecorder((line) => records.push(JSON.parse(line) as TraceRecord));
    const core = new RuntimeCore({ model: quickModel, inspect: recorder.inspect }, agentCoreBuilders);
    core.startRoot();
    const outer = await spawnSubagent(core, '/root', { task_name: 'outer', message: 'work' });
    await outer.result;
    const actors = records.filter((r) => r.kind === 'actor').map((r) => r.actor);
    expect(actors).toContain('/root/outer');
    expect(actors).toContain('/root/outer#model');
    expect(actors.filter((a) => a.includes('subagent:'))).toEqual([]);
    const done = records.find((r) => r.kind === 'event' && r.actor === '/root' && r.event?.startsWith('xstate.done.actor.') === true);
    expect(done?.from).toBe('/root/outer');
  });
});

describe('what an idle subagent holds (#31 item 5)', () => {
  it('an idle continuable subagent keeps no last request, and the one rebuilt from its dialogue is the one it sent', async () => {
    const model = scriptedModel({ '**': { 0: [{ text: 'ok' }] } });
    const core = new RuntimeCore({ model, retention: { maxSettled: 0 } }, agentCoreBuilders);
    core.startRoot();
    const handle = await spawnSubagent(core, '/root', { task_name: 'w', message: 'work', context: 'none' }, { lifetime: 'continuable' });
    await handle.firstReport;
    await core.lifecycle.whenQuiet();
    const record = core.registry.get('/root/w');
    expect(core.directory.stateOf('/root/w')).toBe('running.idle');
    expect(record?.lastRequest).toBeUndefined();
    // A spawn from it measures against the rebuilt request: it must be the request sent.
    const sent = model.calls.filter((c) => c.agentPath === '/root/w').at(-1)?.request;
    const rebuilt = lastRequestOf((record?.actor?.getSnapshot() as { context: AgentContext }).context);
    expect(sent).toBeDefined();
    expect({ ...rebuilt, messages: [...(rebuilt?.messages ?? [])] }).toEqual({ ...sent, messages: [...(sent?.messages ?? [])] });
  });
});

describe('what a leaf record holds (#31 item 5)', () => {
  it('a leaf shares the empty children set, the empty grants and its parent\'s tool lists; a parent returns to the shared set when its subagents end', async () => {
    const { core } = observedCore(0);
    const a = await spawnSubagent(core, '/root', { task_name: 'a', message: 'work' }, { lifetime: 'continuable' });
    const b = await spawnSubagent(core, '/root', { task_name: 'b', message: 'work' }, { lifetime: 'continuable' });
    await Promise.all([a.firstReport, b.firstReport]);
    const [ra, rb, root] = ['/root/a', '/root/b', '/root'].map((p) => core.registry.get(p));
    expect(ra?.children).toBe(NO_CHILDREN);
    expect(ra?.children).toBe(rb?.children);
    expect(ra?.grants).toBe(rb?.grants);
    expect(ra?.grants).toEqual({ externalDirectories: [], inheritsExtensions: false });
    expect(ra?.permissions).toBe(rb?.permissions);
    expect([...(root?.children ?? [])]).toEqual(['/root/a', '/root/b']);
    expect(() => (NO_CHILDREN as Set<string>).add('/root/x')).toThrow(/internal error/);
    core.lifecycle.cancel('/root/a');
    core.lifecycle.cancel('/root/b');
    await Promise.all([a.result, b.result]);
    expect(core.registry.get('/root')?.children).toBe(NO_CHILDREN);
  });
});

describe('ChildIds', () => {
  it('reuses given-back ids before making new ones', () => {
    const ids = new ChildIds();
    const [a, b, c] = [ids.take(), ids.take(), ids.take()];
    expect([a, b, c]).toEqual(['subagent:0', 'subagent:1', 'subagent:2']);
    ids.give(b);
    expect(ids.inUse).toBe(2);
    expect(ids.take()).toBe('subagent:1');
    ids.give('/root/x');
    ids.give('subagent:99');
    expect(ids.take()).toBe('subagent:3');
    expect(ids.distinct).toBe(4);
  });
});
