/**
 * Measuring and clipping text the way people and terminals see it: by grapheme (an emoji with
 * skin tone, a flag, a family joined by ZWJ is one character) and by display width (CJK and
 * emoji take two terminal columns). Cutting by UTF-16 code unit (`slice`, `length`) splits
 * surrogate pairs and ZWJ sequences and misaligns CJK columns; every clip in inspection events,
 * traces and the demo goes through {@link clipText} instead.
 *
 * ANSI color codes take no columns and are kept whole, so styled terminal lines clip too.
 */
import stringWidth from 'string-width';

const graphemeSegmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

// CSI sequences (colors, cursor moves), the only escapes the CLI writes.
// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]/g;
const RESET = '\u001b[0m';

/** How {@link clipText} counts: terminal columns, or user-perceived characters. */
export type TextMeasure = 'columns' | 'graphemes';

/** Options of {@link clipText}. */
export interface ClipOptions {
  /** What `max` counts (default `columns`). */
  readonly measure?: TextMeasure;
  /** Keep the start (default) or the end of the text. */
  readonly keep?: 'start' | 'end';
  /** Marks the cut, counted within `max` (default `…`). */
  readonly ellipsis?: string;
}

/** The graphemes (user-perceived characters) of `text`, in order. */
export function graphemes(text: string): string[] {
  return Array.from(graphemeSegmenter.segment(text), (s) => s.segment);
}

/** How many graphemes `text` has: `'👨‍👩‍👧'` is 1, where `.length` says 8. ANSI codes count. */
export function graphemeCount(text: string): number {
  let n = 0;
  for (const _ of graphemeSegmenter.segment(text)) n++;
  return n;
}

/** Terminal columns `text` takes: CJK and emoji 2, combining marks 0, ANSI codes 0. */
export function displayWidth(text: string): number {
  return stringWidth(text);
}

/** `text` padded with spaces on the right to `width` columns (unchanged when already as wide). */
export function padToWidth(text: string, width: number): string {
  const visible = displayWidth(text);
  return visible >= width ? text : text + ' '.repeat(width - visible);
}

/** One piece of text: an ANSI code (no size) or a grapheme. */
type Piece = { readonly text: string; readonly ansi: boolean };

function pieces(text: string): Piece[] {
  const out: Piece[] = [];
  let last = 0;
  for (const match of text.matchAll(ANSI)) {
    for (const g of graphemes(text.slice(last, match.index))) out.push({ text: g, ansi: false });
    out.push({ text: match[0], ansi: true });
    last = match.index + match[0].length;
  }
  for (const g of graphemes(text.slice(last))) out.push({ text: g, ansi: false });
  return out;
}

/**
 * Cuts `text` to at most `max` columns (or graphemes), ellipsis included, never inside a
 * grapheme: no lone surrogate, no half of a flag or ZWJ sequence, no wide character cut to
 * one column. Text that fits is returned unchanged. ANSI codes are kept, and a cut styled line
 * ends with a reset so its color does not leak.
 *
 * @example
 * ```ts
 * clipText('日本語のテキスト', 7);                       // '日本語…' (6 + 1 columns)
 * clipText('👍🏽👍🏽👍🏽', 2, { measure: 'graphemes' });     // '👍🏽…'
 * clipText('/root/a/very/long/path', 8, { keep: 'end' }); // '…ng/path'
 * ```
 */
export function clipText(text: string, max: number, options: ClipOptions = {}): string {
  const byColumns = (options.measure ?? 'columns') === 'columns';
  const size = byColumns ? displayWidth : (s: string): number => graphemeCount(s.replace(ANSI, ''));
  if (size(text) <= max) return text;
  const ellipsis = options.ellipsis ?? '…';
  let budget = Math.max(0, max - size(ellipsis));
  const all = pieces(text);
  if (options.keep === 'end') all.reverse();
  const kept: string[] = [];
  let styled = false;
  for (const piece of all) {
    if (piece.ansi) {
      kept.push(piece.text);
      styled = true;
      continue;
    }
    const cost = byColumns ? displayWidth(piece.text) : 1;
    if (cost > budget) break;
    budget -= cost;
    kept.push(piece.text);
  }
  if (options.keep === 'end') return ellipsis + kept.reverse().join('');
  return `${kept.join('')}${ellipsis}${styled ? RESET : ''}`;
}
