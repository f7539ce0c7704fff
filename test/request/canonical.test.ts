import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson, CanonicalJsonError } from '../../src/request/canonical.js';

describe('canonicalJson', () => {
  it('sorts keys at every depth, keeps array order, adds no whitespace', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: true, y: null }], c: 'x' } })).toBe('{"a":{"c":"x","d":[3,{"y":null,"z":true}]},"b":1}');
  });

  it('gives the same bytes whatever order objects were built in', () => {
    const one: Record<string, unknown> = {};
    one['first'] = 1;
    one['second'] = [1, 2];
    const two: Record<string, unknown> = {};
    two['second'] = [1, 2];
    two['first'] = 1;
    expect(canonicalJson(one)).toBe(canonicalJson(two));
  });

  it('is order-independent for random objects (property)', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (dict) => {
        const reversed = Object.fromEntries(Object.entries(dict).reverse());
        expect(canonicalJson(reversed)).toBe(canonicalJson(dict));
        // Canonical JSON is JSON: it round-trips to an equal value.
        expect(canonicalJson(JSON.parse(canonicalJson(dict)) as object)).toBe(canonicalJson(dict));
      }),
    );
  });

  it('never emits a raw line break, so a frame is one line', () => {
    expect(canonicalJson({ text: 'a\nb\r\nc\u2028' })).toBe('{"text":"a\\nb\\r\\nc\u2028"}');
    expect(canonicalJson({ text: 'a\nb' }).includes('\n')).toBe(false);
  });

  it('writes scalars like JSON.stringify', () => {
    expect(canonicalJson('é')).toBe('"é"');
    expect(canonicalJson(-0)).toBe('0');
    expect(canonicalJson(1.5e300)).toBe('1.5e+300');
    expect(canonicalJson(false)).toBe('false');
    expect(canonicalJson(null)).toBe('null');
    expect(canonicalJson(Object.create(null) as object)).toBe('{}');
  });

  it('allows a shared sub-value twice (not a cycle)', () => {
    const shared = { x: 1 };
    expect(canonicalJson([shared, shared])).toBe('[{"x":1},{"x":1}]');
  });

  it.each([
    [{ a: undefined }, '$.a', 'undefined is not JSON (leave optional fields out instead)'],
    [[1, () => 1], '$[1]', 'a function is not JSON'],
    [{ n: Number.NaN }, '$.n', 'NaN is not a finite number'],
    [{ n: Number.POSITIVE_INFINITY }, '$.n', 'Infinity is not a finite number'],
    [{ big: 1n }, '$.big', 'a bigint is not JSON'],
    [{ s: Symbol('s') }, '$.s', 'a symbol is not JSON'],
    [{ when: new Date(0) }, '$.when', 'a Date object is not JSON'],
    [{ m: new Map() }, '$.m', 'a Map object is not JSON'],
  ])('rejects %o at %s', (value, path, problem) => {
    const run = () => canonicalJson(value as object);
    expect(run).toThrow(CanonicalJsonError);
    expect(run).toThrow(`Cannot serialize ${path} as canonical JSON: ${problem}`);
  });

  it('rejects undefined at the root and cycles', () => {
    expect(() => canonicalJson(undefined as unknown as object)).toThrow('Cannot serialize $ as canonical JSON: undefined');
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    expect(() => canonicalJson(cyclic)).toThrow('Cannot serialize $.self as canonical JSON: the value contains a cycle');
  });

  it('names objects without a usable constructor name', () => {
    class Weird {}
    Object.defineProperty(Weird, 'name', { value: 42 });
    const error = (() => {
      try {
        canonicalJson({ w: new Weird() });
      } catch (e) {
        return e as CanonicalJsonError;
      }
      return undefined;
    })();
    expect(error?.path).toBe('$.w');
    expect(error?.message).toContain('a non-plain object is not JSON');
  });
});
