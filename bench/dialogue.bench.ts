/**
 * Dialogue benchmarks: the cost of taking an `all` snapshot and of one append must not grow
 * with the dialogue's size. Each figure is a ratio (100,000 entries vs 1,000) measured in
 * the same run, as the median of several alternating rounds so drift hits both sizes alike.
 */
import { selectSnapshot } from '../src/context/select.js';
import { Dialogue } from '../src/dialogue/dialogue.js';
import { assistantEntry, compactionEntry, toolResultEntry, userEntry, type Entry } from '../src/dialogue/entry.js';
import type { BenchFigures } from './run.js';
import { median, medianMs } from './measure.js';

const SMALL = 1_000;
const LARGE = 100_000;
const ROUNDS = 5;
/** Appends timed per sample; well below the free capacity a freshly forked buffer has at 1k entries. */
const BATCH = 256;
const SAMPLES = 31;
const WARMUP = 5;

/** Keeps results alive so the optimizer cannot drop the measured work. */
let sink: unknown;

/**
 * A dialogue of `size` entries: turns of [task, reply with a call, result, final reply], a
 * compaction halfway anchored further back, and an active turn whose last reply holds the
 * triggering `Agent` call beside a realized sibling call.
 */
function buildDialogue(size: number): Dialogue {
  let d = Dialogue.empty();
  let turn = 0;
  const tail = 4;
  while (d.length < size - tail) {
    const t = turn++;
    d = d.append(userEntry({ id: `u${t}`, text: `task ${t}`, opensTurn: true }));
    if (d.length === Math.floor(size / 2)) d = d.append(compactionEntry({ id: 'summary', summary: 'so far', anchorId: `u${Math.floor(t / 2)}` }));
    d = d.append(assistantEntry({ id: `a${t}`, text: 'looking', toolCalls: [{ id: `c${t}`, name: 'read', arguments: { path: `f${t}` } }] }));
    d = d.append(toolResultEntry({ id: `r${t}`, callId: `c${t}`, toolName: 'read', content: 'contents' }));
    d = d.append(assistantEntry({ id: `f${t}`, text: 'done' }));
  }
  d = d.append(userEntry({ id: 'task', text: 'delegate', opensTurn: true }));
  d = d.append(assistantEntry({ id: 'step', text: 'spawning', toolCalls: [{ id: 'agent', name: 'Agent', arguments: { task_name: 'sub', message: 'go', context: 'all' } }, { id: 'sib', name: 'read', arguments: {} }] }));
  d = d.append(toolResultEntry({ id: 'rsib', callId: 'sib', toolName: 'read', content: 'ok' }));
  return d;
}

/** Median ms of one `all` snapshot of `d`. */
function snapshotMs(d: Dialogue): number {
  return medianMs(() => {
    sink = selectSnapshot(d, 'all', { triggeringCallId: 'agent' });
  }, SAMPLES, 2_000, WARMUP);
}

/** An idle dialogue of `size` entries that further turns can be appended to. */
function idle(size: number): Dialogue {
  const d = buildDialogue(size).append(toolResultEntry({ id: 'ragent', callId: 'agent', toolName: 'Agent', content: 'receipt' }));
  return d.append(assistantEntry({ id: 'final', text: 'all done' }));
}

/**
 * Median ms of one append to the newest version of a `size`-entry dialogue. Each sample
 * starts from its own fresh version (a fork of the same base, so every sample sees the same
 * buffer state) and times a batch of appends onto it: appending repeatedly to one old
 * version would copy, which is not the common path being measured.
 */
function appendMs(base: Dialogue): number {
  const batch: Entry[] = [];
  for (let i = 0; i < BATCH / 2; i++) {
    batch.push(userEntry({ id: `b${i}`, text: 'more', opensTurn: true }));
    batch.push(assistantEntry({ id: `bf${i}`, text: 'ok' }));
  }
  const pool = Array.from({ length: SAMPLES + WARMUP + 1 }, (_, i) => base.append(userEntry({ id: `fork${i}`, text: 'fork', opensTurn: true })).append(assistantEntry({ id: `forkf${i}`, text: 'ok' })));
  pool.shift(); // the first fork extended the base's own buffer in place; every other fork has a fresh one
  let next = 0;
  return medianMs(() => {
    let d = pool[next++] as Dialogue;
    for (const entry of batch) d = d.append(entry);
    sink = d;
  }, SAMPLES, 1, WARMUP) / BATCH;
}

/** Median over alternating rounds of large/small ratios. */
function ratio(measure: (size: number) => number): number {
  const ratios: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const small = measure(SMALL);
    const large = measure(LARGE);
    ratios.push(large / small);
  }
  return median(ratios);
}

/** Measures both figures; builds its dialogues once and reuses them across rounds. */
export default async (): Promise<BenchFigures> => {
  const dialogues = new Map([SMALL, LARGE].map((n) => [n, buildDialogue(n)]));
  const idles = new Map([SMALL, LARGE].map((n) => [n, idle(n)]));
  const snapshot = ratio((n) => snapshotMs(dialogues.get(n) as Dialogue));
  const append = ratio((n) => appendMs(idles.get(n) as Dialogue));
  void sink;
  return [
    ['snapshot.all.ratio_100k_vs_1k', snapshot],
    ['dialogue.append.ratio_100k_vs_1k', append],
  ];
};
