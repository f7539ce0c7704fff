/**
 * Format 4 journals facts, not the machine's context: an agent's phase (never a state name)
 * and its first report as a fact of its own; formats 1 to 3 are read the way they were written.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AGENT_PHASES } from '../../machines/agent.meta.js';
import { scriptedModel } from '../../src/model/scripted.js';
import { createRuntime } from '../../src/runtime/runtime.js';
import { JOURNAL_FORMAT } from '../../src/store/format.js';
import { createJsonlStore, readJournal } from '../../src/store/jsonl.js';
import { replayJournal } from '../../src/store/replay.js';
import { StoreError, type JournalRecord } from '../../src/store/types.js';

const work = mkdtempSync(join(tmpdir(), 'journal-facts-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const header = (format: number): JournalRecord => ({ type: 'session', format, sessionId: 's', createdAt: 0 });
const blob: JournalRecord = { type: 'blob', hash: 'h', value: {} };
const spawn = (path: string, parent: string | null): JournalRecord => ({ type: 'spawn', path, parent, sessionId: 's', role: null, preset: 'default', head: 'h', tools: { allowed: [], removed: [] }, persona: null, snapshot: { length: 0, call: null }, projectContext: null, input: {} });

describe('journal format 4', () => {
  it('writes phases and the first report, and no state name', async () => {
    const store = createJsonlStore({ dir: work, sessionId: 'facts', fsync: 'never' });
    const model = scriptedModel({
      '/root': { 0: [{ toolCalls: [{ id: 'c1', name: 'Agent', arguments: { task_name: 'w', message: 'look', context: 'all' } }] }, { text: 'done' }] },
      '/root/w': { 0: [{ text: 'looked' }] },
    });
    const rt = createRuntime({ model, store });
    const turn = new Promise<void>((resolve) => rt.on('turn', (r) => r.path === '/root' && resolve()));
    rt.prompt('go');
    await turn;
    await store.flush();
    const { records } = readJournal(join(work, 'facts.jsonl'), false);
    rt.stop();
    expect(records[0]).toMatchObject({ type: 'session', format: JOURNAL_FORMAT });
    expect(JOURNAL_FORMAT).toBe(4);
    const advances = records.filter((r) => r.type === 'advance');
    expect(advances.length).toBeGreaterThan(3);
    for (const record of advances) {
      expect(Object.keys(record)).not.toContain('state');
      expect(AGENT_PHASES).toContain(record['phase']);
    }
    // The continuable fork and the root each made their first report once, and the journal says so once.
    expect(advances.filter((r) => r['reported'] === true).map((r) => r['path']).sort()).toEqual(['/root', '/root/w']);
    const image = replayJournal(records, 'facts.jsonl');
    expect(image.agents.get('/root')).toMatchObject({ phase: 'idle', reported: true, turns: 1 });
    expect(image.agents.get('/root/w')).toMatchObject({ phase: 'idle', reported: true, turns: 1 });
  });

  it('takes the first report from the journal, not from the turns', () => {
    const records = [header(4), blob, spawn('/root', null), { type: 'advance', path: '/root', phase: 'idle', turns: 3 }];
    expect(replayJournal(records, 'j').agents.get('/root')).toMatchObject({ phase: 'idle', turns: 3, reported: false });
    const reported = [...records, { type: 'advance', path: '/root', phase: 'waiting_on_model', reported: true }];
    expect(replayJournal(reported, 'j').agents.get('/root')).toMatchObject({ phase: 'waiting_on_model', reported: true });
  });

  it('reads the state names of formats 1 to 3 as the phases they meant, and their first report from the turns', () => {
    const states = { 'reserved.runningHooks': 'reserved', preparingSummary: 'preparing_summary', 'running.working.sampling': 'waiting_on_model', 'running.working.acting': 'running_tools', 'running.idle': 'idle' };
    for (const [state, phase] of Object.entries(states)) {
      const records = [header(3), blob, spawn('/root', null), { type: 'advance', path: '/root', state, turns: 1 }];
      expect(replayJournal(records, 'j').agents.get('/root')).toMatchObject({ phase, reported: true });
    }
    const fresh = [header(3), blob, spawn('/root', null), { type: 'advance', path: '/root', state: 'running.idle' }];
    expect(replayJournal(fresh, 'j').agents.get('/root')).toMatchObject({ reported: false });
  });

  it('refuses an advance record that names neither a phase nor an old state', () => {
    for (const odd of [{ phase: 'sampling' }, { state: 'running.working.thinking' }, { phase: 3 }, {}]) {
      const records = [header(4), blob, spawn('/root', null), { type: 'advance', path: '/root', ...odd }];
      expect(() => replayJournal(records, 'j')).toThrow(StoreError);
      expect(() => replayJournal(records, 'j')).toThrow(/j: record 4: an advance record names neither a phase nor a state of formats 1 to 3/);
    }
  });
});
