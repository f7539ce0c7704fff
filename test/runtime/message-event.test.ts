/**
 * `send_message` is a typed XState event that goes from the sender's actor to the target's:
 * an inspection observer sees its source and its target, and the target takes it as an
 * inbox item with a `message` origin.
 */
import type { AnyActorRef, InspectionEvent } from 'xstate';
import { describe, expect, it } from 'vitest';
import { scriptedModel } from '../../src/model/scripted.js';
import { createRuntime } from '../../src/runtime/runtime.js';
import { RuntimeError } from '../../src/runtime/errors.js';

/** The inspected `send_message` events, as (source system id, target system id, payload). */
function messageEvents(events: InspectionEvent[]): Array<{ source: string | undefined; target: string | undefined; event: Record<string, unknown> }> {
  return events
    .filter((e): e is InspectionEvent & { type: '@xstate.event' } => e.type === '@xstate.event' && e.event.type === 'send_message')
    .map((e) => ({
      source: (e.sourceRef as (AnyActorRef & { systemId?: string }) | undefined)?.systemId,
      target: (e.actorRef as AnyActorRef & { systemId?: string }).systemId,
      event: e.event as Record<string, unknown>,
    }));
}

describe('send_message as an event between actors', () => {
  it("reaches the target from the sender's actor, so inspection shows both", async () => {
    const model = scriptedModel({
      '/root/a': { 0: [{ toolCalls: [{ name: 'send_message', arguments: { agent_id: '/root/b', message: 'hi sibling' } }] }, { text: 'a done' }] },
      '/root/b': { 0: [{ text: 'b idle' }], 1: [{ text: 'b read it' }] },
    });
    const events: InspectionEvent[] = [];
    const rt = createRuntime({ model, defaults: { lifetime: 'continuable' }, inspect: (e) => events.push(e) });
    await (await rt.spawn('/root', { task_name: 'b', message: 'wait' })).firstReport;
    await (await rt.spawn('/root', { task_name: 'a', message: 'greet b' })).firstReport;
    await rt.whenQuiet();

    const relayed = messageEvents(events).filter((m) => m.source !== undefined);
    expect(relayed).toEqual([
      { source: '/root/a', target: '/root/b', event: { type: 'send_message', from: '/root/a', to: '/root/b', message: 'hi sibling' } },
    ]);
    const entry = rt.transcript('/root/b')!.log.toArray().find((e) => e.kind === 'user' && e.text === 'hi sibling');
    expect(entry?.kind === 'user' && entry.origin).toEqual({ kind: 'message', from: '/root/a' });
    expect(model.calls.filter((c) => c.agentPath === '/root/b')).toHaveLength(2);
    rt.stop();
  });

  it('the host sending for a live agent goes through that agent too', async () => {
    const model = scriptedModel({ '/root/w': { 0: [{ text: 'ready' }], 1: [{ text: 'got it' }] } });
    const events: InspectionEvent[] = [];
    const rt = createRuntime({ model, defaults: { lifetime: 'continuable' }, inspect: (e) => events.push(e) });
    await (await rt.spawn('/root', { task_name: 'w', message: 'stand by' })).firstReport;
    rt.send('/root', '/root/w', 'follow-up');
    await rt.whenQuiet();
    const sent = messageEvents(events);
    // Into the root from outside (no source), then from the root's actor to the worker's.
    expect(sent.map((m) => [m.source, m.target])).toEqual([
      [undefined, '/root'],
      ['/root', '/root/w'],
    ]);
    expect(rt.transcript('/root/w')!.log.toArray().some((e) => e.kind === 'user' && e.text === 'follow-up')).toBe(true);
    rt.stop();
  });

  it('unknown, unpublished and finished targets get the same typed errors, and nothing is sent', async () => {
    const model = scriptedModel({ '/root/done': { 0: [{ text: 'finished' }] } });
    const events: InspectionEvent[] = [];
    const rt = createRuntime({ model, inspect: (e) => events.push(e) });
    await (await rt.spawn('/root', { task_name: 'done', message: 'x' })).result;
    const codes = ['/root/ghost', '/root/done'].map((to) => {
      try {
        rt.send('/root', to, 'x');
        return 'sent';
      } catch (error) {
        return error instanceof RuntimeError ? error.code : 'untyped';
      }
    });
    expect(codes).toEqual(['unknown_agent', 'agent_closed']);
    expect(messageEvents(events)).toEqual([]);
  });
});
