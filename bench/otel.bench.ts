/**
 * Tracing overhead: one session of 1,000 subagents (the root's one reply delegates to all of
 * them at once, each answers, the root finishes, the session stops) traced with a real tracer
 * (the SDK's TracerProvider and BatchSpanProcessor) into an exporter that drops what it gets,
 * against the same session without telemetry, measured in this run.
 *
 * The figure is the median, over interleaved pairs (which of the two runs first alternates), of
 * each pair's ratio of process CPU time (user and system, GC threads included): on a machine
 * other jobs share, wall-clock time mostly measures how long the process waited for a core, and
 * that swung single-session ratios between 0.9 and 1.5 while the CPU time each session used did not.
 * Its spread over the pairs is printed too (`.p10`, `.p90`).
 *
 * A third session of each round runs with the API's no-op tracer (`trace.getTracer` with no
 * provider registered: every span is non-recording), so the builder and the runtime's hooks do
 * all their work and the SDK none. `otel.overhead.noop_tracer.ratio` is that session against
 * the untraced one (this library's share) and `otel.overhead.sdk_share.ratio` the traced one
 * against it (the SDK's share: its spans, attributes, ids, clock and batch processor), each the
 * median of its per-round ratios; the two multiply to about the overall figure.
 */
import { performance } from 'node:perf_hooks';
import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import { trace } from '@opentelemetry/api';
import { BatchSpanProcessor, TracerProvider, type ReadableSpan, type SpanExporter } from '@opentelemetry/sdk-trace';
import { scriptedModel } from '../src/model/scripted.js';
import { DEFAULT_MAX_SETTLED } from '../src/runtime/retention.js';
import { createRuntime } from '../src/runtime/runtime.js';
import { median, orderings, quantile } from './measure.js';
import type { BenchFigures } from './run.js';

const AGENTS = 1_000;
/**
 * Interleaved rounds per run (each a traced, a no-op-traced and an untraced session). Single
 * pairs' ratios spread from about 0.75 to 1.4 on the shared 2-core machine even at load 4, and
 * with 25 pairs three runs' medians ranged 0.98-1.15 (budget) and 1.20-1.26 (otel) at one
 * commit; 101 rounds narrow the median's own noise about twofold.
 */
const ROUNDS = 101;

/** An exporter that takes every batch and keeps nothing (it counts, so the figure can be checked). */
class NoopExporter implements SpanExporter {
  spans = 0;
  export(spans: ReadableSpan[], done: (result: { code: number }) => void): void {
    this.spans += spans.length;
    done({ code: 0 });
  }
  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}


setFlagsFromString('--expose-gc');
/** A full collection (exposed at run time, so `npm run bench` needs no flag). */
const gc = runInNewContext('gc') as () => void;
const collect = (): void => {
  gc();
  gc();
};

/** How a session is traced: by the SDK, by the API's no-op tracer, or not at all. */
type Tracing = 'sdk' | 'noop' | 'none';

/** ms from the prompt to the stopped session (and, traced, its spans handed to the exporter). */
async function sessionMs(n: number, tracing: Tracing): Promise<{ readonly ms: number; readonly cpuMs: number; readonly spans: number }> {
  const traced = tracing === 'sdk';
  const calls = Array.from({ length: n }, (_, i) => ({ name: 'Agent', arguments: { task_name: `w${i}`, message: 'work' } }));
  const model = scriptedModel({ '/root': { 0: [{ toolCalls: calls }, { text: 'done' }] }, '**': { 0: [{ text: 'ok' }] } });
  const exporter = new NoopExporter();
  const provider = traced ? new TracerProvider({ spanProcessors: [new BatchSpanProcessor({ exporter, maxQueueSize: 16_384 })] }) : undefined;
  // A collected heap to start from: the garbage of the session before is not collected on this one's clock.
  collect();
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const rt = createRuntime({ model, limits: { maxChildren: n, maxTotal: n, maxDepth: 2 }, ...telemetryFor(tracing, provider) });
  await rt.prompt('go');
  rt.stop();
  await provider?.forceFlush();
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  // Default retention keeps the latest DEFAULT_MAX_SETTLED results, so 1,000 subagents and the root keep 1,000.
  const kept = Math.min(n + 1, DEFAULT_MAX_SETTLED);
  if (rt.results.length !== kept) throw new Error(`expected ${kept} results kept of ${n} subagents and the root, got ${rt.results.length}`);
  // Every agent, Agent call and model request has its span: the root's 2 requests, each subagent's 1.
  const expected = 1 + n + n + 2 + n;
  if (traced && exporter.spans !== expected) throw new Error(`expected ${expected} spans, the exporter got ${exporter.spans}`);
  await provider?.shutdown();
  return { ms, cpuMs: (cpu.user + cpu.system) / 1000, spans: exporter.spans };
}

/** The runtime's telemetry option for `tracing`. */
function telemetryFor(tracing: Tracing, provider: TracerProvider | undefined): { telemetry?: { tracer: ReturnType<TracerProvider['getTracer']> } } {
  if (tracing === 'sdk' && provider) return { telemetry: { tracer: provider.getTracer('bench') } };
  // No provider is registered globally here, so the API hands out its no-op tracer.
  if (tracing === 'noop') return { telemetry: { tracer: trace.getTracer('bench') } };
  return {};
}

/** The three sessions of round `r` run in `ORDERS[r % 6]`. */
const ORDERS = orderings<Tracing>(['sdk', 'noop', 'none']);

export default async function run(): Promise<BenchFigures> {
  for (let r = 0; r < 3; r++) for (const tracing of ORDERS[r]!) await sessionMs(AGENTS, tracing);
  const ratios: number[] = [];
  const ours: number[] = [];
  const sdk: number[] = [];
  let spans = 0;
  for (let r = 0; r < ROUNDS; r++) {
    const cpu: Partial<Record<Tracing, number>> = {};
    for (const tracing of ORDERS[r % ORDERS.length]!) {
      const session = await sessionMs(AGENTS, tracing);
      cpu[tracing] = session.cpuMs;
      if (tracing === 'sdk') spans = session.spans;
    }
    ratios.push(cpu.sdk! / cpu.none!);
    ours.push(cpu.noop! / cpu.none!);
    sdk.push(cpu.sdk! / cpu.noop!);
  }
  return [
    ['otel.spans_per_session_1000', spans],
    ['otel.overhead.ratio', median(ratios)],
    ['otel.overhead.ratio.p10', quantile(ratios, 0.1)],
    ['otel.overhead.ratio.p90', quantile(ratios, 0.9)],
    ['otel.overhead.noop_tracer.ratio', median(ours)],
    ['otel.overhead.sdk_share.ratio', median(sdk)],
  ];
}
