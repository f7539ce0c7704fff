import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sharedPrefixBytes } from '../../src/request/prefix-bytes.js';

/** The obvious definition: encode both, compare bytes. */
function naive(a: string, b: string): number {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  let n = 0;
  while (n < x.length && n < y.length && x[n] === y[n]) n++;
  return n;
}

describe('sharedPrefixBytes', () => {
  it('counts ASCII bytes', () => {
    expect(sharedPrefixBytes('abcdef', 'abcxyz')).toBe(3);
    expect(sharedPrefixBytes('abc', 'abc')).toBe(3);
    expect(sharedPrefixBytes('abc', 'abcd')).toBe(3);
    expect(sharedPrefixBytes('', 'abc')).toBe(0);
  });

  it('counts UTF-8 bytes, not UTF-16 code units', () => {
    // "é" is 2 bytes, "中" 3, "😀" 4 (two code units).
    expect(sharedPrefixBytes('é中😀x', 'é中😀y')).toBe(2 + 3 + 4);
    expect('é中😀'.length).toBe(4);
  });

  it('counts the leading bytes two different characters share', () => {
    expect(sharedPrefixBytes('é', 'è')).toBe(1); // C3 A9 vs C3 A8
    expect(sharedPrefixBytes('中', '丰')).toBe(2); // E4 B8 AD vs E4 B8 B0
    expect(sharedPrefixBytes('😀', '😁')).toBe(3); // F0 9F 98 80 vs F0 9F 98 81
  });

  it('never splits a surrogate pair whose low halves differ', () => {
    // Same high surrogate, different low surrogate: compared as whole code points.
    expect(sharedPrefixBytes('a😀', 'a😁')).toBe(1 + 3);
    expect(sharedPrefixBytes('a\uD83D', 'a😀')).toBe(naive('a\uD83D', 'a😀'));
    expect(sharedPrefixBytes('a😀', 'a\uD83D')).toBe(1);
  });

  it('treats lone surrogates and U+FFFD as the replacement bytes they encode to', () => {
    expect(sharedPrefixBytes('\uDC00x', '\uDC01x')).toBe(4);
    expect(sharedPrefixBytes('\uFFFDab', '\uD800ac')).toBe(4);
    expect(sharedPrefixBytes('\uD800x', '\uFFFD\uDC00')).toBe(naive('\uD800x', '\uFFFD\uDC00'));
  });

  it('agrees with byte-wise comparison on random strings (property)', () => {
    const piece = fc.constantFrom('a', 'b', 'é', 'è', '中', '丰', '😀', '😁', '\uD83D', '\uDE00', '\uDC00', '\uFFFD', '\n');
    const text = fc.array(piece, { maxLength: 12 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(text, text, text, (common, x, y) => {
        const a = common + x;
        const b = common + y;
        expect(sharedPrefixBytes(a, b)).toBe(naive(a, b));
        expect(sharedPrefixBytes(b, a)).toBe(naive(a, b));
      }),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' }), (a, b) => {
        expect(sharedPrefixBytes(a, b)).toBe(naive(a, b));
      }),
    );
  });
});
