/**
 * The length, in UTF-8 bytes, of the common prefix of two strings.
 *
 * Providers see requests as UTF-8 bytes, so that is the unit prefix reuse is measured in.
 * Counting UTF-16 code units would undercount every non-ASCII character and split surrogate
 * pairs; encoding both whole strings would cost memory proportional to the request size. This
 * walks code units (cheap, no allocation), then encodes only the common part's length and the
 * one pair of code points where the strings part ways: two different characters can still
 * share leading UTF-8 bytes (`é` is C3 A9, `è` is C3 A8), and those bytes are shared too.
 */

const isHighSurrogate = (unit: number): boolean => unit >= 0xd800 && unit <= 0xdbff;
const isLowSurrogate = (unit: number): boolean => unit >= 0xdc00 && unit <= 0xdfff;

/**
 * Number of leading bytes the UTF-8 encodings of `a` and `b` have in common. Lone surrogates
 * count as U+FFFD (three bytes), which is how Node and `TextEncoder` encode them.
 */
export function sharedPrefixBytes(a: string, b: string): number {
  const limit = Math.min(a.length, b.length);
  let bytes = 0;
  let start = 0;
  for (;;) {
    let i = start;
    while (i < limit && a.charCodeAt(i) === b.charCodeAt(i)) i++;
    // A shared high surrogate followed by a low surrogate on either side is half of a
    // character that differs (or ends) there: step back so it is compared whole.
    if (i > start && isHighSurrogate(a.charCodeAt(i - 1)) && (isLowSurrogate(a.charCodeAt(i)) || isLowSurrogate(b.charCodeAt(i)))) i--;
    bytes += Buffer.byteLength(a.slice(start, i), 'utf8');
    if (i >= a.length || i >= b.length) return bytes;
    const x = codePointBytes(a, i);
    const y = codePointBytes(b, i);
    if (!x.equals(y)) return bytes + sharedLeadingBytes(x, y);
    // Different code units, same bytes: both are U+FFFD or a lone surrogate (each one code
    // unit wide), which all encode as EF BF BD. The bytes still match, so keep going.
    bytes += x.length;
    start = i + 1;
  }
}

function codePointBytes(text: string, index: number): Buffer {
  // codePointAt yields a whole pair, or the lone surrogate itself (encoded as U+FFFD).
  return Buffer.from(String.fromCodePoint(text.codePointAt(index) ?? 0), 'utf8');
}

function sharedLeadingBytes(x: Buffer, y: Buffer): number {
  const limit = Math.min(x.length, y.length);
  let n = 0;
  while (n < limit && x[n] === y[n]) n++;
  return n;
}
