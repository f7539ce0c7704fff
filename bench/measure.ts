/**
 * Timing helpers for benchmarks: medians of repeated samples, measured with hrtime.
 */
import { performance } from 'node:perf_hooks';

/** Median of a list of numbers. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** The `q` quantile (0..1) of a list of numbers, by nearest rank (the spread of a figure's samples). */
export function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

/**
 * The six orders of three session kinds, for interleaved rounds: round `r` runs them in
 * `orders[r % 6]`, so each kind runs first, second and third equally often and in every
 * neighbourhood (what runs before a session changes its heap and its compiled code).
 */
export function orderings<T>(kinds: readonly [T, T, T]): readonly (readonly T[])[] {
  const [a, b, c] = kinds;
  return [
    [a, b, c],
    [c, a, b],
    [b, c, a],
    [a, c, b],
    [b, a, c],
    [c, b, a],
  ];
}

/**
 * Median time in ms of `fn`, each sample running it `inner` times (to lift tiny operations
 * above timer resolution), after `warmup` unmeasured samples.
 */
export function medianMs(fn: () => void, samples = 31, inner = 1, warmup = 5): number {
  for (let i = 0; i < warmup; i++) for (let j = 0; j < inner; j++) fn();
  const times: number[] = [];
  for (let i = 0; i < samples; i++) {
    const t0 = performance.now();
    for (let j = 0; j < inner; j++) fn();
    times.push((performance.now() - t0) / inner);
  }
  return median(times);
}

/** Async variant of {@link medianMs}. */
export async function medianMsAsync(fn: () => Promise<void>, samples = 31, inner = 1, warmup = 5): Promise<number> {
  for (let i = 0; i < warmup; i++) for (let j = 0; j < inner; j++) await fn();
  const times: number[] = [];
  for (let i = 0; i < samples; i++) {
    const t0 = performance.now();
    for (let j = 0; j < inner; j++) await fn();
    times.push((performance.now() - t0) / inner);
  }
  return median(times);
}

/** A workload of size `n` that reports its own time in ms. */
export type SizedRun = (n: number) => Promise<number>;

/** Samples in ms of each workload at each size, one per repetition, in repetition order. */
export type SizedSamples<K extends string> = Record<K, Map<number, number[]>>;

/**
 * Samples each workload at each size `reps` times. Every repetition runs every size, and at
 * each size every workload, so load drifts hit all alike and a repetition's samples are
 * close in time (ratios taken within a repetition cancel slow drifts). One unmeasured round
 * at every size, then `largeWarmups` more runs at the largest, warm them up: a fresh process
 * needs several large runs before V8 has grown its heap and optimized the hot code (the first
 * 1,000-call replies took 1.1-1.4 s, then 0.55-0.9 s, and from about the fifth 0.25-0.45 s). A sample at a small size is the mean of `runsAt(n)` runs, so a run of a few
 * ms is not lost in scheduler noise. The heap is not collected between samples: a forced
 * collection shrinks V8's young generation, and the next sample then promotes and scavenges
 * far more than a process in its steady state does.
 */
export async function interleavedSamples<K extends string>(
  runs: Readonly<Record<K, SizedRun>>,
  sizes: readonly number[],
  reps: number,
  runsAt: (n: number) => number = () => 1,
  largeWarmups = 0,
): Promise<SizedSamples<K>> {
  const keys = Object.keys(runs) as K[];
  const sample = async (run: SizedRun, n: number): Promise<number> => {
    const count = runsAt(n);
    let total = 0;
    for (let i = 0; i < count; i++) total += await run(n);
    return total / count;
  };
  for (const n of sizes) for (const key of keys) await sample(runs[key], n);
  const largest = Math.max(...sizes);
  for (let i = 0; i < largeWarmups; i++) for (const key of keys) await runs[key](largest);
  const samples = Object.fromEntries(keys.map((key) => [key, new Map<number, number[]>(sizes.map((n) => [n, []]))])) as SizedSamples<K>;
  for (let r = 0; r < reps; r++) {
    for (const n of sizes) for (const key of keys) samples[key].get(n)!.push(await sample(runs[key], n));
  }
  return samples;
}

/** µs per item as the slope of total ms from size 1 to size `n` (`t` maps size to total ms). */
export function slopeUs(t: (n: number) => number, n: number): number {
  return ((t(n) - t(1)) / (n - 1)) * 1000;
}

/** The median over repetitions of `f(r)`, for `reps` repetitions. */
export function medianOverReps(reps: number, f: (r: number) => number): number {
  return median(Array.from({ length: reps }, (_, r) => f(r)));
}
