/**
 * Journal benchmarks: what journaling costs a running session, and how resume time grows
 * with the journal. Ratios come from one run; the per-1k figure is printed for reference.
 */
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { scriptedModel } from '../src/model/scripted.js';
import { createRuntime } from '../src/runtime/runtime.js';
import { resumeRuntime } from '../src/runtime/resume.js';
import { sealLine } from '../src/store/envelope.js';
import { createJsonlStore, openJsonlStore } from '../src/store/jsonl.js';
import type { SessionStore } from '../src/store/types.js';
import { median } from './measure.js';
import type { BenchFigures } from './run.js';

const SUBAGENTS = 1000;
const quietModel = () => scriptedModel({ '**': { 0: [{ text: 'ok' }] } });

/** ms for a session whose root starts `SUBAGENTS` one-shot subagents, eight at a time, each settling. */
async function sessionMs(store: SessionStore | undefined): Promise<number> {
  const t0 = performance.now();
  const rt = createRuntime({ model: quietModel(), limits: { maxChildren: 8, maxTotal: 8 }, ...(store ? { store } : {}) });
  for (let i = 0; i < SUBAGENTS; i += 8) {
    const batch = await Promise.all(Array.from({ length: 8 }, (_, j) => rt.spawn('/root', { task_name: `c${j}`, message: `work item ${i + j}` })));
    await Promise.all(batch.map((h) => h.result));
  }
  rt.stop();
  if (store) await store.close();
  return performance.now() - t0;
}

/** `journal.overhead.ratio`: the same session journaled to JSON Lines, against no journal (medians, interleaved). */
async function overheadRatio(dir: string): Promise<number> {
  const plain: number[] = [];
  const journaled: number[] = [];
  for (let i = 0; i < 9; i++) {
    plain.push(await sessionMs(undefined));
    journaled.push(await sessionMs(createJsonlStore({ dir, sessionId: `overhead_${i}` })));
  }
  return median(journaled.slice(2)) / median(plain.slice(2));
}

/** A journal whose root holds `entries` dialogue entries (person prompts and replies). */
async function journalWith(dir: string, entries: number): Promise<string> {
  const sessionId = `resume_${entries}`;
  const store = createJsonlStore({ dir, sessionId, fsync: 'never' });
  createRuntime({ model: quietModel(), store });
  await store.close();
  const file = join(dir, `${sessionId}.jsonl`);
  // Lines are sealed with their place in the journal, after the ones the runtime wrote.
  const written = readFileSync(file, 'utf8').split('\n').length - 1;
  const lines: string[] = [];
  for (let i = 0; i < entries / 2; i++) {
    const user = { kind: 'user', id: `u_${i}`, text: `Question ${i}: what changed in module ${i % 97}?`, origin: { kind: 'person' }, opensTurn: true, attachments: [] };
    const reply = { kind: 'assistant', id: `a_${i}`, text: `Module ${i % 97} changed its error handling in change ${i}.`, toolCalls: [] };
    lines.push(sealLine(JSON.stringify({ type: 'advance', path: '/root', state: 'running.idle', entries: [user, reply], turns: i + 1 }), written + i));
  }
  appendFileSync(file, `${lines.join('\n')}\n`);
  return sessionId;
}

/** Median ms to open the journal and resume its session. */
function resumeMs(dir: string, sessionId: string): number {
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    const store = openJsonlStore({ dir, sessionId, fsync: 'never' });
    const rt = resumeRuntime({ model: quietModel(), store });
    times.push(performance.now() - t0);
    rt.stop();
    void store.close();
  }
  return median(times);
}

export default async function journalBench(): Promise<BenchFigures> {
  const dir = mkdtempSync(join(tmpdir(), 'journal-bench-'));
  try {
    const overhead = await overheadRatio(dir);
    const small = resumeMs(dir, await journalWith(dir, 10_000));
    const large = resumeMs(dir, await journalWith(dir, 100_000));
    return [
      ['journal.overhead.ratio', overhead],
      ['journal.resume.ms_per_1k_entries', large / 100],
      ['journal.resume.ratio_100k_vs_10k', large / small],
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
