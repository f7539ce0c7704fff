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
