import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonProblem, jsonTextDepth } from '../../src/request/json-bounds.js';
import { admitToolCall, argumentsProblem } from '../../src/request/tool-call-admission.js';
import { DEFAULT_INPUT_LIMITS } from '../../src/request/input-limits.js';

const bounds = { maxDepth: 3, maxBytes: 1_000 };

describe('jsonProblem', () => {
  it('accepts plain JSON within the bounds, whatever its shape', () => {
    for (const value of [null, true, 0, -1.5, 'text', [], {}, [1, [2, [3]]], { a: { b: { c: 'd' } } }, Object.create(null) as object]) {
      expect(jsonProblem(value, bounds)).toBeUndefined();
    }
  });

  it('counts depth as levels of objects and arrays: exactly maxDepth passes, one more fails', () => {
    expect(jsonProblem({ a: [{}] }, bounds)).toBeUndefined();
    expect(jsonProblem({ a: [{ b: [] }] }, bounds)).toEqual({ path: '$.a[0].b', problem: 'the value is nested deeper than 3 levels', bound: 'maxDepth' });
  });

  it('counts size as the UTF-8 bytes of the JSON text', () => {
    const text = JSON.stringify({ k: 'é'.repeat(10) });
    const exact = Buffer.byteLength(text);
    expect(jsonProblem({ k: 'é'.repeat(10) }, { maxDepth: 3, maxBytes: exact })).toBeUndefined();
    expect(jsonProblem({ k: 'é'.repeat(10) }, { maxDepth: 3, maxBytes: exact - 1 })).toMatchObject({ bound: 'maxBytes' });
    expect(jsonProblem([1, 22, 333, true, null], { maxDepth: 3, maxBytes: JSON.stringify([1, 22, 333, true, null]).length })).toBeUndefined();
  });

  it('locates each kind of non-JSON value', () => {
    expect(jsonProblem({ a: [1, Number.NaN] }, bounds)).toEqual({ path: '$.a[1]', problem: 'NaN is not a finite number' });
    expect(jsonProblem({ 'odd key': undefined }, bounds)).toEqual({ path: '$["odd key"]', problem: 'undefined is not JSON' });
    expect(jsonProblem(new Map(), bounds)?.problem).toBe('an object that is not a plain object is not JSON');
    expect(jsonProblem(Symbol('s'), bounds)?.problem).toBe('a symbol is not JSON');
  });

  it('refuses a shared sub-value repeated past the size bound instead of walking it exponentially', () => {
    let value: unknown = 'leaf';
    for (let i = 0; i < 60; i++) value = [value, value];
    expect(jsonProblem(value, { maxDepth: 100, maxBytes: 1_048_576 })).toMatchObject({ bound: 'maxBytes' });
  });

  it('shortens the location of a deep problem to its first and last keys', () => {
    let value: unknown = 1;
    for (let i = 0; i < 100; i++) value = { a: value };
    const found = jsonProblem(value, { maxDepth: 50, maxBytes: 1_000_000 });
    expect(found?.path).toBe('$.a.a.a.a.a.a…(38 more)….a.a.a.a.a.a');
  });

  it('counts exactly the UTF-8 bytes JSON.stringify writes, escapes, non-ASCII and numbers included', () => {
    const text = fc.string({ unit: fc.constantFrom('a', 'Z', '"', '\\', '\n', '\u0001', '\u007f', 'é', '€', '\ud83d\ude00', '\ud800') });
    const number = fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constantFrom(-0, 1e21, -1e21, 2 ** 53, 0.1, 1e-7));
    const json = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: 'small' }, text, number, fc.boolean(), fc.constant(null), fc.array(tie('value'), { maxLength: 4 }), fc.dictionary(text, tie('value'), { maxKeys: 4 })),
    })).value;
    fc.assert(
      fc.property(json, (value) => {
        const exact = Buffer.byteLength(JSON.stringify(value));
        expect(jsonProblem(value, { maxDepth: 64, maxBytes: exact })).toBeUndefined();
        expect(jsonProblem(value, { maxDepth: 64, maxBytes: exact - 1 })).toMatchObject({ bound: 'maxBytes' });
      }),
      { numRuns: 500 },
    );
  });

  it('finds a problem behind a long run of plain values, in arrays and objects alike', () => {
    const items: unknown[] = Array.from({ length: 50 }, (_, i) => ({ i, text: 'x'.repeat(i) }));
    expect(jsonProblem([...items, { last: Number.NaN }], { maxDepth: 3, maxBytes: 1e6 })).toEqual({ path: '$[50].last', problem: 'NaN is not a finite number' });
    expect(jsonProblem({ a: items, b: [undefined] }, { maxDepth: 3, maxBytes: 1e6 })).toEqual({ path: '$.b[0]', problem: 'undefined is not JSON' });
    // Nesting the quick check does not recurse into is walked iteratively, to the same verdict.
    let deep: unknown = 'leaf';
    for (let i = 0; i < 300; i++) deep = [deep];
    expect(jsonProblem(deep, { maxDepth: 400, maxBytes: 1e6 })).toBeUndefined();
    expect(jsonProblem(deep, { maxDepth: 299, maxBytes: 1e6 })).toMatchObject({ bound: 'maxDepth' });
  });

  it('names a throwing Proxy trap as a problem, never throws', () => {
    const trap = new Proxy({}, { ownKeys: () => { throw new Error('trap'); } });
    expect(jsonProblem({ p: trap }, bounds)).toEqual({ path: '$.p', problem: 'reading it failed (trap)' });
  });
});

describe('jsonTextDepth', () => {
  it('reads nesting without parsing, skipping brackets inside strings and escapes', () => {
    expect(jsonTextDepth('1', 5)).toBe(0);
    expect(jsonTextDepth('{"a":[1,"]]]\\"[[["]}', 5)).toBe(2);
    expect(jsonTextDepth('['.repeat(100_000), 64)).toBe(65);
  });
});

describe('admitToolCall', () => {
  it('keeps a good call as it is and replaces refused arguments with {} and the reason', () => {
    const good = { id: 'c', name: 'echo', arguments: { text: 'x' } };
    expect(admitToolCall(good, DEFAULT_INPUT_LIMITS)).toBe(good);
    expect(admitToolCall({ id: 'c', name: 'echo', arguments: { n: Infinity } as never }, DEFAULT_INPUT_LIMITS)).toEqual({
      id: 'c',
      name: 'echo',
      arguments: {},
      argumentsError: '$.n: Infinity is not a finite number',
    });
    expect(argumentsProblem('x'.repeat(100), { ...DEFAULT_INPUT_LIMITS, maxArgumentBytes: 10 })).toBe('$: the value is larger than 10 bytes of JSON (limit maxArgumentBytes)');
  });
});
