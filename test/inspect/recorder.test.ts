/**
 * The trace recorder: a session's inspection events as JSON Lines, one small record per
 * event, timed by an injected clock, with no dialogue in any line.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createActor, createMachine, type InspectionEvent } from 'xstate';
import { actorAddress, createRecorder, traceRecord, type TraceRecord } from '../../src/inspect/recorder.js';
import { createRuntime } from '../../src/runtime/runtime.js';
import { MARKER, ONE_SHOT_FORKS, sessionModel, SYSTEM_PROMPT } from './helpers.js';

describe('createRecorder with a file', () => {
  it('writes one JSON line per actor, event and snapshot of the whole tree', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'trace-'));
    try {
      const file = join(dir, 'session.jsonl');
      let tick = 1000;
      const recorder = createRecorder(file, { now: () => tick++ });
      const rt = createRuntime({ model: sessionModel(), systemPrompt: SYSTEM_PROMPT, ...ONE_SHOT_FORKS, inspect: recorder.inspect });
      rt.prompt(`Please find the answer. ${MARKER}`);
      await rt.whenQuiet();
      await recorder.close();

      const text = await readFile(file, 'utf8');
      expect(text).not.toContain(MARKER);
      expect(text).not.toContain(SYSTEM_PROMPT);
      const records = text.trimEnd().split('\n').map((line) => JSON.parse(line) as TraceRecord);
      expect(records).toHaveLength(recorder.count);
      expect(records.map((r) => r.t)).toEqual(records.map((_, i) => 1000 + i));

      const actors = records.filter((r) => r.kind === 'actor').map((r) => r.actor);
      expect(actors).toEqual(expect.arrayContaining(['/root', '/root#model', '/root/research', '/root/research#model']));
      expect(actors).toContain('/root#tools');

      const child = records.filter((r) => r.actor === '/root/research' && r.kind === 'snapshot');
      expect(child.at(-1)).toMatchObject({ state: 'settled', status: 'done', event: 'xstate.done.actor.model' });
      const root = records.filter((r) => r.actor === '/root' && r.kind === 'snapshot').map((r) => r.state);
      expect(root.at(0)).toBe('running.idle');
      expect(root).toContain('running.working.acting');
      expect(root.at(-1)).toBe('running.idle');
      expect(records.find((r) => r.kind === 'event' && r.actor === '/root' && r.event === 'inbox')).toBeDefined();
      const done = records.find((r) => r.kind === 'event' && r.actor === '/root/research' && r.event === 'xstate.done.actor.model');
      expect(done?.from).toBe('/root/research#model');
      // The subagent's report reaches its parent with the parent's public send: its sender is the path the report names.
      const report = records.find((r) => r.kind === 'event' && r.actor === '/root' && r.event === 'subagent.report');
      expect(report?.from).toBe('/root/research');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('trace records', () => {
  const machine = createMachine({ id: 'door', initial: 'closed', states: { closed: { on: { open: 'opened' } }, opened: {} }, context: { note: 'n' } });

  function recordRun(options: { context?: boolean } = {}): string[] {
    const lines: string[] = [];
    let tick = 0;
    const recorder = createRecorder((line) => lines.push(line), { now: () => tick++, ...options });
    const actor = createActor(machine, { inspect: recorder.inspect, id: 'door-1' });
    actor.start();
    actor.send({ type: 'open' });
    actor.stop();
    return lines;
  }

  it('records actor, event and snapshot kinds, ending each line with a newline', () => {
    const lines = recordRun();
    expect(lines.every((l) => l.endsWith('\n'))).toBe(true);
    const records = lines.map((l) => JSON.parse(l) as TraceRecord);
    expect(records.map((r) => [r.kind, r.event ?? '', r.state ?? ''])).toEqual([
      ['actor', '', ''],
      ['event', 'xstate.init', ''],
      ['snapshot', 'xstate.init', 'closed'],
      ['event', 'open', ''],
      ['snapshot', 'open', 'opened'],
      ['snapshot', 'xstate.stop', 'opened'],
    ]);
    expect(records.every((r) => r.actor === 'door-1' && r.context === undefined)).toBe(true);
  });

  it('adds the context on request', () => {
    const records = recordRun({ context: true }).map((l) => JSON.parse(l) as TraceRecord);
    expect(records.find((r) => r.kind === 'snapshot')?.context).toEqual({ note: 'n' });
  });

  it('omits microsteps and actions', () => {
    const ref = { id: 'x', sessionId: 's' };
    const microstep = { type: '@xstate.microstep', actorRef: ref, rootId: 's', event: { type: 'e' }, snapshot: {}, _transitions: [] } as unknown as InspectionEvent;
    expect(traceRecord(microstep, 0)).toBeUndefined();
  });

  it('addresses agents by path and their actors under it', () => {
    const root = { id: '/root', sessionId: 'x:0' };
    const child = { id: '/root/a', sessionId: 'x:1', _parent: root };
    expect(actorAddress(root)).toBe('/root');
    expect(actorAddress(child)).toBe('/root/a');
    expect(actorAddress({ id: 'model', sessionId: 'x:2', _parent: child })).toBe('/root/a#model');
    expect(actorAddress({ id: 'tool:c1', sessionId: 'x:3', _parent: { id: 'inner', sessionId: 'x:4', _parent: root } })).toBe('/root#inner#tool:c1');
    expect(actorAddress({ sessionId: 'x:5' })).toBe('x:5');
  });
});
