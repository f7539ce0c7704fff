/**
 * Registry invariants under random operation sequences, driven through the real runtime:
 * slots match live subagents, the tree stays within its limits, and every spawned agent
 * yields exactly one result once everything has stopped. Time only moves on a manual clock.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { manualClock } from '../../src/model/clock.js';
import { scriptedModel } from '../../src/model/scripted.js';
import { createRuntime } from '../../src/runtime/runtime.js';
import { afterMicrotasks } from '../../src/testing/deferred.js';
import type { Runtime } from '../../src/runtime/types.js';

const LIMITS = { maxDepth: 2, maxChildren: 3, maxTotal: 5 };
const REFUSALS = new Set(['name_taken', 'capacity', 'depth_limit', 'parent_not_running']);

type Op =
  | { kind: 'spawn'; parent: number; name: number; context: 'none' | 'all' | 'summary' | 1; delivery: 'caller' | 'parent'; lifetime: 'one-shot' | 'continuable' }
  | { kind: 'advance'; ms: number }
  | { kind: 'cancel'; target: number }
  | { kind: 'close'; target: number }
  | { kind: 'send'; target: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.record({
    kind: fc.constant('spawn' as const),
    parent: fc.nat(10),
    name: fc.nat(3),
    context: fc.constantFrom('none' as const, 'all' as const, 'summary' as const, 1 as const),
    delivery: fc.constantFrom('caller' as const, 'parent' as const),
    lifetime: fc.constantFrom('one-shot' as const, 'continuable' as const),
  }) },
  fc.record({ kind: fc.constant('advance' as const), ms: fc.constantFrom(5, 10, 25) }),
  fc.record({ kind: fc.constant('cancel' as const), target: fc.nat(10) }),
  fc.record({ kind: fc.constant('close' as const), target: fc.nat(10) }),
  fc.record({ kind: fc.constant('send' as const), target: fc.nat(10) }),
);

function pick(rt: Runtime, index: number, running: boolean): string | undefined {
  const live = rt.list().filter((a) => !running || a.state.startsWith('running'));
  return live.length === 0 ? undefined : live[index % live.length]!.path;
}

function checkInvariants(rt: Runtime): void {
  const live = rt.list();
  const paths = live.map((a) => a.path);
  expect(new Set(paths).size).toBe(paths.length);
  // Every live subagent holds exactly one slot; the root holds none.
  expect(rt.slotsInUse).toBe(live.length - 1);
  for (const agent of live) {
    if (agent.path === rt.rootPath) continue;
    const parent = agent.path.slice(0, agent.path.lastIndexOf('/'));
    expect(paths).toContain(parent);
    expect(agent.path.split('/').length - 2).toBeLessThanOrEqual(LIMITS.maxDepth);
  }
  for (const agent of live) expect(live.filter((a) => a.path.startsWith(`${agent.path}/`) && !a.path.slice(agent.path.length + 1).includes('/')).length).toBeLessThanOrEqual(LIMITS.maxChildren);
  expect(rt.slotsInUse).toBeLessThanOrEqual(LIMITS.maxTotal);
}

describe('registry invariants (property)', () => {
  it('hold after every operation, and every spawned agent reports exactly once', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 10, maxLength: 40 }), async (ops) => {
        const clock = manualClock();
        // Subagents answer after 10 ms (one-shot ones settle, continuable ones go idle).
        const model = scriptedModel({ '/root': () => ({ text: 'root ok' }), '/root/**': () => ({ text: 'done', latencyMs: 10 }) }, { clock });
        // The host injects messages from the root to any agent, so the scope is the whole session.
        const rt = createRuntime({ model, limits: LIMITS, messaging: { scope: 'session' } });
        const spawned = new Map<string, number>();
        for (const step of ops) {
          switch (step.kind) {
            case 'spawn': {
              const parent = pick(rt, step.parent, true);
              if (!parent) break;
              const before = rt.slotsInUse;
              try {
                const handle = await rt.spawn(parent, { task_name: `n${step.name}`, message: 'work', context: step.context }, { delivery: step.delivery, lifetime: step.lifetime });
                spawned.set(handle.path, (spawned.get(handle.path) ?? 0) + 1);
              } catch (error) {
                expect(REFUSALS.has((error as { code: string }).code)).toBe(true);
                expect(rt.slotsInUse).toBe(before);
              }
              break;
            }
            case 'advance':
              clock.advance(step.ms);
              break;
            case 'cancel': {
              const target = pick(rt, step.target, false);
              if (target && target !== rt.rootPath) {
                const report = rt.cancel(target);
                // Children are reported before their parents.
                const order = report.stopped.map((s) => s.path);
                for (const [i, p] of order.entries()) expect(order.slice(i + 1).some((q) => q.startsWith(`${p}/`))).toBe(false);
              }
              break;
            }
            case 'close': {
              const target = pick(rt, step.target, true);
              if (target && target !== rt.rootPath) rt.close(target);
              break;
            }
            case 'send': {
              const target = pick(rt, step.target, true);
              if (target && target !== rt.rootPath) rt.send(rt.rootPath, target, 'ping');
              break;
            }
          }
          await afterMicrotasks();
          checkInvariants(rt);
          // No agent has more results than it was spawned.
          for (const [path, count] of spawned) expect(rt.results.filter((r) => r.path === path).length).toBeLessThanOrEqual(count);
        }
        rt.stop();
        await afterMicrotasks();
        expect(rt.slotsInUse).toBe(0);
        for (const [path, count] of spawned) expect(rt.results.filter((r) => r.path === path)).toHaveLength(count);
        expect(rt.results.filter((r) => r.path === rt.rootPath)).toHaveLength(1);
      }),
      { numRuns: 100 },
    );
  });
});
