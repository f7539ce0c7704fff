import { describe, expect, it } from 'vitest';
import { scriptedModel } from '../../src/model/scripted.js';
import { createRuntime } from '../../src/runtime/runtime.js';
import type { InspectionEvent } from 'xstate';

describe('compaction', () => {
  it('the host compacts an idle agent: a summary anchored at the next turn replaces what came before', async () => {
    const model = scriptedModel({
      '/root': { 0: [{ text: 'a1' }], 1: [{ text: 'a2' }], 2: [(req) => ({ text: `saw ${req.messages.length}` })], summary: 'the story so far' },
    });
    const rt = createRuntime({ model });
    rt.prompt('q1');
    await rt.whenQuiet();
    rt.prompt('q2');
    await rt.whenQuiet();
    await rt.compact('/root');
    const dialogue = rt.transcript('/root')!;
    expect(dialogue.latestCompaction()?.summary).toBe('the story so far');
    expect(dialogue.effective().length).toBe(1);
    rt.prompt('q3');
    await rt.whenQuiet();
    const sent = model.calls.at(-1)!.request.messages.toArray();
    expect(sent.map((e) => e.kind)).toEqual(['compaction', 'user']);
    expect(dialogue.log.length).toBe(5); // the raw log keeps everything, append-only
  });

  it('the policy compacts before a request that would pass its size, keeping the active turn', async () => {
    const big = 'x'.repeat(400);
    const model = scriptedModel({
      '/root': {
        0: [{ text: big }],
        1: [{ text: big }],
        2: [{ toolCalls: [{ name: 'list_agents' }] }, (req) => ({ text: `kinds ${req.messages.toArray().map((e) => e.kind).join(',')}` })],
        summary: 'compacted history',
      },
    });
    const rt = createRuntime({ model, compaction: { maxRequestBytes: 1500 } });
    for (const q of ['q1', 'q2', 'q3']) {
      rt.prompt(q);
      await rt.whenQuiet();
    }
    const log = rt.transcript('/root')!;
    const compaction = log.latestCompaction();
    expect(compaction?.summary).toBe('compacted history');
    // Anchored at the active turn's opener: q3 and its work stay verbatim.
    const anchor = log.log.toArray().find((e) => e.id === compaction?.anchorId);
    expect(anchor?.kind === 'user' && anchor.text).toBe('q3');
    const last = log.at(log.length - 1);
    expect(last?.kind === 'assistant' && last.text).toBe('kinds compaction,user,assistant,tool_result');
  });

  it('a subagent\'s own compaction absorbs the background it was seeded with', async () => {
    const model = scriptedModel({
      '/root': { 0: [{ text: 'we use Postgres' }] },
      '/root/sum': {
        0: [{ text: 'first answer' }],
        1: [(req) => ({ text: req.messages.toArray().map((e) => (e.kind === 'user' ? e.origin.kind : e.kind)).join(',') })],
        summary: (input) => (input.task.startsWith('Summarize the conversation') ? 'compacted: background and first turn' : 'BACKGROUND: the team uses Postgres'),
      },
    });
    const rt = createRuntime({ model });
    rt.prompt('what database?');
    await rt.whenQuiet();
    const handle = await rt.spawn('/root', { task_name: 'sum', message: 'plan the migration', context: 'summary' }, { lifetime: 'continuable' });
    await handle.firstReport;
    const seeded = rt.transcript('/root/sum')!.effective().toArray();
    expect(seeded[0]?.kind === 'user' && seeded[0].origin.kind).toBe('background');
    await rt.compact('/root/sum');
    rt.send('/root', '/root/sum', 'and the rollback plan?');
    await rt.whenQuiet();
    const last = rt.transcript('/root/sum')!.at(-1);
    // The follow-up request carried the compaction, then the follow-up: no background entry.
    expect(last?.kind === 'assistant' && last.text).toBe('compaction,message');
    expect(rt.transcript('/root/sum')!.latestCompaction()?.summary).toBe('compacted: background and first turn');
  });

  it('a spawn is never refused or summarized because the parent dialogue is large', async () => {
    const model = scriptedModel({ '/root': { 0: [{ text: 'y'.repeat(50_000) }] }, '/root/f': { 0: [(req) => ({ text: String(req.messages.length) })] } });
    const rt = createRuntime({ model });
    rt.prompt('make a long answer');
    await rt.whenQuiet();
    const result = await (await rt.spawn('/root', { task_name: 'f', message: 'read it', context: 'all' }, { lifetime: 'one-shot' })).result;
    expect(result).toMatchObject({ status: 'completed', text: '3' });
    expect(model.summaryCalls).toHaveLength(0);
  });
});

const idOf = (e: InspectionEvent): string | undefined => (e.actorRef as { id?: string }).id;

describe('inspect option', () => {
  it('sees every actor of the tree, and no dialogue in snapshots', async () => {
    const events: InspectionEvent[] = [];
    const marker = 'SECRET-MARKER-'.repeat(40);
    const model = scriptedModel({
      '/root': { 0: [{ toolCalls: [{ name: 'Agent', arguments: { task_name: 'kid', message: 'go', context: 'all' } }] }, { text: 'ok' }] },
      '/root/kid': { 0: [{ text: 'kid done' }] },
    });
    const rt = createRuntime({ model, inspect: (e) => events.push(e) });
    rt.prompt(marker);
    await rt.whenQuiet();
    const actors = new Set(events.filter((e) => e.type === '@xstate.actor').map(idOf));
    expect(actors.has('/root')).toBe(true);
    expect(actors.has('/root/kid')).toBe(true);
    const snapshots = events.filter((e) => e.type === '@xstate.snapshot' && (idOf(e) === '/root' || idOf(e) === '/root/kid'));
    expect(snapshots.length).toBeGreaterThan(0);
    for (const e of snapshots) {
      const context = (e as unknown as { snapshot: { context: { dialogue: unknown } } }).snapshot.context;
      expect(context.dialogue).toEqual(expect.objectContaining({ entries: expect.any(Number) }));
    }
    expect(JSON.stringify(events.map((e) => ('snapshot' in e ? e.snapshot : e.type)))).not.toContain(marker);
  });
});
