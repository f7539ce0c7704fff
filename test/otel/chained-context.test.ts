import { describe, expect, it } from 'vitest';
import * as api from '@opentelemetry/api';
import { ChainedContext } from '../../src/otel/chained-context.js';

describe('the span builder\'s contexts', () => {
  const a = api.createContextKey('a');
  const b = api.createContextKey('b');

  it('read their base\'s values, and what each link sets, as the API\'s contexts do', () => {
    const base = api.ROOT_CONTEXT.setValue(a, 'from base');
    const chained = ChainedContext.over(base);
    expect(chained.getValue(a)).toBe('from base');
    const one = chained.setValue(b, 1);
    const two = one.setValue(b, 2).setValue(a, 'shadowed');
    // Each link is immutable: setting makes a new context and leaves the one it was set on as it was.
    expect([one.getValue(a), one.getValue(b)]).toEqual(['from base', 1]);
    expect([two.getValue(a), two.getValue(b)]).toEqual(['shadowed', 2]);
    expect(chained.getValue(b)).toBeUndefined();
  });

  it('delete a value for their descendants only, and set it again after', () => {
    const set = ChainedContext.over(api.ROOT_CONTEXT.setValue(a, 'x')).setValue(b, 'y');
    const removed = set.deleteValue(a);
    expect([removed.getValue(a), removed.getValue(b)]).toEqual([undefined, 'y']);
    expect(set.getValue(a)).toBe('x');
    expect(removed.setValue(a, 'again').getValue(a)).toBe('again');
  });

  it('carry a span the API finds, and drop it', () => {
    const spanContext = { traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', traceFlags: 1 };
    const context = api.trace.setSpanContext(ChainedContext.over(api.ROOT_CONTEXT), spanContext);
    expect(api.trace.getSpanContext(context)).toEqual(spanContext);
    expect(api.trace.getSpanContext(api.trace.deleteSpan(context))).toBeUndefined();
  });
});
