/**
 * Stopping an agent's actor, as a host holding it (from an inspection event) would, stops its
 * subtree with the same children-first order `runtime.cancel` reports, one result each, and
 * frees every slot.
 */
import type { AnyActorRef, InspectionEvent } from 'xstate';
import { describe, expect, it } from 'vitest';
import { scriptedModel } from '../../src/model/scripted.js';
import { createRuntime } from '../../src/runtime/runtime.js';
import type { AgentResult } from '../../src/runtime/types.js';

function session() {
  const never = { text: 'never', latencyMs: 1e9 };
  const model = scriptedModel({ '**': { 0: [never] } });
  const actors = new Map<string, AnyActorRef>();
  const inspect = (e: InspectionEvent): void => {
    const systemId = (e.actorRef as AnyActorRef & { systemId?: string }).systemId;
    if (systemId) actors.set(systemId, e.actorRef as AnyActorRef);
  };
  const rt = createRuntime({ model, inspect });
  const results: AgentResult[] = [];
  rt.on('result', (r) => results.push(r));
  return { rt, actors, results };
}

async function tree(rt: ReturnType<typeof session>['rt']): Promise<void> {
  await rt.spawn('/root', { task_name: 'a', message: 'a' });
  await rt.spawn('/root/a', { task_name: 'x', message: 'x' });
  await rt.spawn('/root/a', { task_name: 'y', message: 'y' });
  await rt.spawn('/root', { task_name: 'b', message: 'b' });
}

describe("stopping an agent's actor", () => {
  it('stops the subtree children first, in the order runtime.cancel reports', async () => {
    const cancelled = session();
    await tree(cancelled.rt);
    const report = cancelled.rt.cancel('/root');
    const order = report.stopped.map((s) => s.path);
    expect(order).toEqual(['/root/a/x', '/root/a/y', '/root/a', '/root/b', '/root']);
    expect(cancelled.results.map((r) => r.path)).toEqual(order);

    const stopped = session();
    await tree(stopped.rt);
    stopped.actors.get('/root')!.stop();
    expect(stopped.results.map((r) => r.path)).toEqual(order);
    expect(stopped.results.every((r) => r.status === 'cancelled')).toBe(true);
    expect(stopped.rt.slotsInUse).toBe(0);
    expect(stopped.rt.list()).toEqual([]);
    await stopped.rt.whenQuiet();
  });
});
