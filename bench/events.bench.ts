/**
 * Event stream overhead: one session of 1,000 subagents (the root's one reply delegates to
 * all of them at once, each answers, the root finishes, the session stops) with a consumer
 * iterating every event of `runtime.events()`, against the same session with none, measured
 * in this run. The consumer's session also streams: its model requests are given `onDelta`.
 */
import { performance } from 'node:perf_hooks';
import { scriptedModel } from '../src/model/scripted.js';
import { DEFAULT_MAX_SETTLED } from '../src/runtime/retention.js';
import { createRuntime } from '../src/runtime/runtime.js';
import { median } from './measure.js';
import type { BenchFigures } from './run.js';

const AGENTS = 1_000;

/** ms from the prompt to the stopped session (and, with a consumer, to its last event read). */
export async function sessionMs(n: number, consume: boolean): Promise<{ readonly ms: number; readonly events: number }> {
  const calls = Array.from({ length: n }, (_, i) => ({ name: 'Agent', arguments: { task_name: `w${i}`, message: 'work' } }));
  const model = scriptedModel({ '/root': { 0: [{ toolCalls: calls }, { text: 'done' }] }, '**': { 0: [{ text: 'ok' }] } });
  const rt = createRuntime({ model, limits: { maxChildren: n, maxTotal: n, maxDepth: 2 } });
  let events = 0;
  let dropped = 0;
  const t0 = performance.now();
  const reading = consume
    ? (async () => {
        for await (const event of rt.events()) {
          events++;
          if (event.type === 'lagged') dropped += event.dropped;
        }
      })()
    : undefined;
  await rt.prompt('go');
  rt.stop();
  await reading;
  const ms = performance.now() - t0;
  // Default retention keeps the latest DEFAULT_MAX_SETTLED results, so 1,000 subagents and the root keep 1,000.
  const kept = Math.min(n + 1, DEFAULT_MAX_SETTLED);
  if (rt.results.length !== kept) throw new Error(`expected ${kept} results kept of ${n} subagents and the root, got ${rt.results.length}`);
  // The figure is only honest if the consumer really saw every event.
  if (dropped > 0) throw new Error(`the consumer fell behind and lost ${dropped} events`);
  return { ms, events };
}

export default async function run(): Promise<BenchFigures> {
  for (let r = 0; r < 2; r++) {
    await sessionMs(AGENTS, true);
    await sessionMs(AGENTS, false);
  }
  const plain: number[] = [];
  const consumed: number[] = [];
  let events = 0;
  for (let r = 0; r < 7; r++) {
    plain.push((await sessionMs(AGENTS, false)).ms);
    const withConsumer = await sessionMs(AGENTS, true);
    consumed.push(withConsumer.ms);
    events = withConsumer.events;
  }
  return [
    ['events.per_session_1000', events],
    ['events.overhead.ratio', median(consumed) / median(plain)],
  ];
}
