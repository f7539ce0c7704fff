/**
 * errorText: readable text for whatever a host tool, callback or provider throws, and never a
 * throw of its own, however hostile the value.
 */
import { describe, expect, it } from 'vitest';
import { errorText, MAX_ERROR_TEXT } from '../../src/dialogue/error-text.js';

/** A Proxy on which every read, and so every conversion, throws. */
const hostile = (): object =>
  new Proxy(
    {},
    {
      get: () => {
        throw new Error('trap');
      },
      ownKeys: () => {
        throw new Error('trap');
      },
      getOwnPropertyDescriptor: () => {
        throw new Error('trap');
      },
    },
  );

describe('errorText', () => {
  it('gives a string as it is, and an Error its message', () => {
    expect(errorText('disk full')).toBe('disk full');
    expect(errorText('')).toBe('');
    expect(errorText(new Error('disk full'))).toBe('disk full');
    expect(errorText(new TypeError('bad type'))).toBe('bad type');
  });

  it("names an Error without a message by its name, or 'Error' without one", () => {
    expect(errorText(new RangeError(''))).toBe('RangeError');
    const anonymous = new Error('');
    anonymous.name = '';
    expect(errorText(anonymous)).toBe('Error');
    // A message that is not a string is not shown as one.
    const odd = new Error('x');
    Object.defineProperty(odd, 'message', { value: 42 });
    expect(errorText(odd)).toBe('Error');
  });

  it('shows other objects as JSON, BigInts as digits and cycles marked', () => {
    expect(errorText({ code: 'E42', status: 503 })).toBe('{"code":"E42","status":503}');
    expect(errorText(Object.create(null))).toBe('{}');
    expect(errorText({ tokens: 10n })).toBe('{"tokens":"10"}');
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic['self'] = cyclic;
    expect(errorText(cyclic)).toBe('{"name":"loop","self":"[Circular]"}');
    expect(errorText([1, 'two'])).toBe('[1,"two"]');
  });

  it('falls back to String() when an object has no JSON, or its JSON throws', () => {
    expect(errorText({ toJSON: () => undefined })).toBe('[object Object]');
    const throwing = {
      toJSON() {
        throw new Error('no JSON');
      },
      toString: () => 'described by toString',
    };
    expect(errorText(throwing)).toBe('described by toString');
  });

  it('shows symbols, BigInts and other primitives', () => {
    expect(errorText(Symbol('stop'))).toBe('Symbol(stop)');
    expect(errorText(10n)).toBe('10');
    expect(errorText(404)).toBe('404');
    expect(errorText(undefined)).toBe('undefined');
    expect(errorText(null)).toBe('null');
    expect(errorText(false)).toBe('false');
  });

  it('never throws: a value nothing can describe is named by its type', () => {
    expect(errorText(hostile())).toBe('an unprintable object was thrown');
    const fn = Object.assign(() => {}, {
      toString() {
        throw new Error('no text');
      },
      toJSON() {
        throw new Error('no JSON');
      },
    });
    expect(errorText(fn)).toBe('an unprintable function was thrown');
    // An Error whose message getter throws cannot be printed by Error.prototype.toString either.
    const broken = new Error('x');
    Object.defineProperty(broken, 'message', {
      get() {
        throw new Error('getter');
      },
    });
    expect(errorText(broken)).toBe('an unprintable object was thrown');
  });

  it(`keeps at most ${MAX_ERROR_TEXT} characters, and says when it cut`, () => {
    expect(errorText('x'.repeat(MAX_ERROR_TEXT))).toBe('x'.repeat(MAX_ERROR_TEXT));
    expect(errorText('y'.repeat(MAX_ERROR_TEXT + 1))).toBe(`${'y'.repeat(MAX_ERROR_TEXT)}… (truncated)`);
    expect(errorText(new Error('z'.repeat(5 * MAX_ERROR_TEXT)))).toHaveLength(MAX_ERROR_TEXT + '… (truncated)'.length);
  });
});
