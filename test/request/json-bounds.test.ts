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
