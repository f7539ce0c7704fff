/**
 * Escaping forged envelope tags. Text a model, another agent or a summarizer wrote is sent
 * inside an `<agent_input …>` element that names its real sender; the text must not be able to
 * close that element early or open one claiming another sender. A plain `<agent_input` is easy
 * to catch, but a model reads past what a simple pattern does not: zero-width and other
 * invisible characters inside the tag (`<\u200Bagent_input`), full-width forms
 * (`＜ａｇｅｎｔ＿ｉｎｐｕｔ＞`), other angle brackets (`‹`, `〈`), and letters from other scripts
 * that look Latin (Cyrillic `а`, `е`, `р`, `і`). Every such opener is written `&lt;`; nothing
 * else in the text changes.
 */

/** Characters a reader does not see: zero-width spaces and joiners, bidi controls, tag characters, soft hyphens. */
const INVISIBLE = /[\p{Default_Ignorable_Code_Point}\p{Cf}]/u;
const SPACE = /\s/u;
/** Characters that look like `<` (besides those NFKC already folds to it: `＜`, `﹤`). */
const LESS_THAN_LIKE: ReadonlySet<string> = new Set(['\u2039', '\u3008', '\u2329', '\u27E8', '\u02C2', '\u1438', '\u276E', '\u29FC', '\u227A', '\u02F1']);
/** Characters that look like `/` (besides `／`, which NFKC folds). */
const SLASH_LIKE: ReadonlySet<string> = new Set(['\u2044', '\u2215', '\u29F8', '\u2571']);
/** Letters of other scripts that look like the Latin letters of a tag name, and look-alike underscores. */
const CONFUSABLE: ReadonlyMap<string, string> = new Map([
  ['а', 'a'], ['ɑ', 'a'], ['α', 'a'], ['е', 'e'], ['ҽ', 'e'], ['ɡ', 'g'], ['ց', 'g'], ['ո', 'n'], ['ռ', 'n'],
  ['т', 't'], ['τ', 't'], ['і', 'i'], ['ı', 'i'], ['ɩ', 'i'], ['ι', 'i'], ['ӏ', 'i'], ['ј', 'j'], ['р', 'p'], ['ρ', 'p'],
  ['υ', 'u'], ['ս', 'u'], ['ʋ', 'u'], ['ѕ', 's'], ['о', 'o'], ['ο', 'o'], ['с', 'c'], ['ϲ', 'c'], ['х', 'x'], ['у', 'y'],
  ['‗', '_'], ['ˍ', '_'], ['＿', '_'],
]);
/** Any character that might start a forged tag: the cheap test that lets most texts through untouched. */
const MAYBE_OPENER = new RegExp(`[<\uFF1C\uFE64${[...LESS_THAN_LIKE].join('')}]`, 'u');

/** How a reader takes one character: its look-alike letter, else its NFKC form, lower-cased. */
function fold(char: string): string {
  return CONFUSABLE.get(char) ?? char.normalize('NFKC').toLowerCase();
}

function isOpener(char: string): boolean {
  return LESS_THAN_LIKE.has(char) || fold(char) === '<';
}

/**
 * Whether the text after an opener at `start` reads as the tag `name` (optionally closing,
 * with spaces and invisible characters anywhere), followed by something that ends a name.
 */
function readsAsTag(chars: readonly string[], start: number, name: string): boolean {
  let i = start;
  const skip = (spaces: boolean): void => {
    while (i < chars.length && (INVISIBLE.test(chars[i]!) || (spaces && SPACE.test(fold(chars[i]!))))) i++;
  };
  skip(true);
  if (i < chars.length && (SLASH_LIKE.has(chars[i]!) || fold(chars[i]!) === '/')) {
    i++;
    skip(true);
  }
  let matched = 0;
  while (matched < name.length) {
    skip(false);
    if (i >= chars.length) return false;
    const folded = fold(chars[i]!);
    if (folded === '' || !name.startsWith(folded, matched)) return false;
    matched += folded.length;
    i++;
  }
  skip(false);
  return i >= chars.length || !/^[\p{L}\p{N}_]/u.test(fold(chars[i]!));
}

/**
 * `text` with every `<` (or look-alike) that would read as opening or closing the element
 * `name` written `&lt;`.
 *
 * @example
 * ```ts
 * escapeForgedTags('ok </agent_input> ＜ａｇｅｎｔ＿ｉｎｐｕｔ＞ <\u200Bagent_input>', 'agent_input');
 * // 'ok &lt;/agent_input> &lt;ａｇｅｎｔ＿ｉｎｐｕｔ＞ &lt;\u200Bagent_input>'
 * ```
 */
export function escapeForgedTags(text: string, name: string): string {
  if (!MAYBE_OPENER.test(text)) return text;
  const chars = Array.from(text);
  let forged = false;
  for (let i = 0; i < chars.length; i++) {
    if (isOpener(chars[i]!) && readsAsTag(chars, i + 1, name)) {
      chars[i] = '&lt;';
      forged = true;
    }
  }
  return forged ? chars.join('') : text;
}
