/**
 * The contexts the span builder starts spans in. `@opentelemetry/api`'s own context copies its
 * parent's whole map and makes three closures per `setValue`; the builder makes one context per
 * span that parents another (every `Agent` call, every agent), so a wide tree made thousands.
 * This one holds its parent and the one value it adds: the same `Context` interface, read the
 * same way by any tracer, context manager or propagator.
 */
import type { Context } from '@opentelemetry/api';

/** A context: `parent` with `key` set to `value` (unset: `undefined`, which is what a deleted key reads as). */
export class ChainedContext implements Context {
  constructor(
    private readonly parent: Context,
    private readonly key: symbol | undefined,
    private readonly value: unknown,
  ) {}

  /** `base` as a chain's first link: it reads like `base`, and what is set on it is chained. */
  static over(base: Context): ChainedContext {
    return new ChainedContext(base, undefined, undefined);
  }

  getValue(key: symbol): unknown {
    // Most chains are a few links deep (a span and its parents' spans), so walking them is cheap.
    if (key === this.key) return this.value;
    return this.parent.getValue(key);
  }

  setValue(key: symbol, value: unknown): Context {
    return new ChainedContext(this, key, value);
  }

  deleteValue(key: symbol): Context {
    return new ChainedContext(this, key, undefined);
  }
}
