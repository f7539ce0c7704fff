/**
 * The regular-expression engine JSON Schema `pattern` and `patternProperties` run on: RE2
 * (through `re2js`, a maintained pure-JavaScript port), whose matching time is linear in the
 * input. A schema's pattern meets text a model wrote; on a backtracking engine (JavaScript's
 * own `RegExp`) a pattern such as `^(a+)+$` takes exponential time on a crafted answer,
 * blocking the event loop for the whole runtime. RE2 has no such inputs.
 *
 * RE2 runs ECMAScript patterns except the features that need backtracking: lookahead
 * (`(?=…)`, `(?!…)`) and backreferences (`\1`). Captureless lookbehind is supported. A
 * pattern RE2 cannot run is refused when its schema is compiled, never run on a slow engine.
 */
import { createRequire } from 'node:module';
import type { RE2JS } from 're2js';
import type { RegExpEngine, RegExpLike } from 'ajv/dist/types/index.js';

let engine: typeof RE2JS | undefined;

/** `re2js`, loaded the first time a pattern is compiled (most sessions never compile one). */
function re2(): typeof RE2JS {
  engine ??= (createRequire(import.meta.url)('re2js') as { RE2JS: typeof RE2JS }).RE2JS;
  return engine;
}

/** A pattern the linear-time engine cannot run. */
export class UnsupportedPatternError extends Error {
  override readonly name = 'UnsupportedPatternError';
  readonly code = 'unsupported_pattern';
}

/** Compiles an ECMAScript pattern for RE2 (see {@link linearRegExp}). */
function compileLinear(pattern: string, flags: string): RegExpLike {
  let compiled: RE2JS;
  try {
    const RE2 = re2();
    compiled = RE2.compile(RE2.translateRegExp(pattern), RE2.LOOKBEHINDS);
  } catch (error) {
    const why = error instanceof Error ? error.message.replace(/^error parsing regexp: /, '') : String(error);
    throw new UnsupportedPatternError(
      `pattern ${JSON.stringify(pattern)} cannot run on the linear-time regular-expression engine (${why}); lookahead and backreferences are not supported`,
    );
  }
  const source = `/${pattern}/${flags}`;
  const like: RegExpLike & { toString(): string } = { test: (input: string) => compiled.test(input), toString: () => source };
  return like;
}

/**
 * The engine as Ajv's `code.regExp` option takes it: compiles an ECMAScript pattern (as JSON
 * Schema writes it) for RE2. The result's `test` searches anywhere in the input, as JSON
 * Schema's `pattern` does; its `toString` is the pattern in slashes, which Ajv uses to share
 * one compiled pattern per source. (`code` names the engine for Ajv's standalone code, which
 * is not used.)
 *
 * @throws UnsupportedPatternError for a pattern RE2 cannot run (lookahead, backreference) or
 *   that is not a regular expression.
 *
 * @example
 * ```ts
 * linearRegExp('^(a+)+$', 'u').test('a'.repeat(10_000) + 'b'); // false, in linear time
 * ```
 */
export const linearRegExp: RegExpEngine = Object.assign(compileLinear, { code: 'require("re2js").RE2JS' });
