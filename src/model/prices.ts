/**
 * Prices per model, and the cost of a usage value at one of them.
 */
import type { Usage } from './adapter.js';

/**
 * What one model costs, per million tokens, in any currency (all prices of a table share it).
 * Cache reads and writes cost the input price unless priced separately.
 */
export interface ModelPrice {
  readonly input: number;
  readonly output: number;
  readonly cacheRead?: number;
  readonly cacheWrite?: number;
}

/**
 * Prices keyed by model id (the `model` of requests: `RuntimeOptions.modelId`, a role's or a
 * spawn's model).
 *
 * @example
 * ```ts
 * const prices: PriceTable = {
 *   'claude-sonnet-4-5': { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
 *   'claude-haiku-4-5': { input: 1, output: 5, cacheRead: 0.1, cacheWrite: 1.25 },
 * };
 * ```
 */
export type PriceTable = Readonly<Record<string, ModelPrice>>;

const PRICE_FIELDS = ['input', 'output', 'cacheRead', 'cacheWrite'] as const;

/** Checks a price table; throws a `TypeError` naming the model and field that is wrong. */
export function checkPriceTable(table: unknown): PriceTable {
  if (table === null || typeof table !== 'object' || Array.isArray(table)) {
    throw new TypeError('prices must be an object keyed by model id, e.g. { "my-model": { input: 3, output: 15 } }');
  }
  for (const [model, price] of Object.entries(table)) {
    if (price === null || typeof price !== 'object') throw new TypeError(`prices["${model}"] must be an object with input and output prices`);
    for (const field of PRICE_FIELDS) {
      const value = (price as Record<string, unknown>)[field];
      const required = field === 'input' || field === 'output';
      if (value === undefined && !required) continue;
      if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
        throw new TypeError(`prices["${model}"].${field} must be a finite number >= 0 (per million tokens); got ${String(value)}`);
      }
    }
  }
  return table as PriceTable;
}

/**
 * The cost of `usage` at `price`. Input tokens that were neither read from nor written to the
 * cache cost the input price; cache reads and writes cost their own prices.
 */
export function costOf(usage: Usage, price: ModelPrice): number {
  const plainInput = Math.max(0, usage.inputTokens - usage.cacheReadTokens - usage.cacheWriteTokens);
  const micro =
    plainInput * price.input +
    usage.cacheReadTokens * (price.cacheRead ?? price.input) +
    usage.cacheWriteTokens * (price.cacheWrite ?? price.input) +
    usage.outputTokens * price.output;
  return micro / 1_000_000;
}
