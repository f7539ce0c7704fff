import { describe, expect, it } from 'vitest';
import { clipText, displayWidth, graphemeCount, graphemes, padToWidth } from '../../src/text/clip.js';
import { sanitizeContext } from '../../src/inspect/sanitize.js';
import { clipVisible, padVisible, truncate, wrap } from '../../src/cli/format.js';

const FAMILY = '👨‍👩‍👧‍👦'; // one grapheme, 11 code units, 2 columns
const FLAG = '🇯🇵'; // two regional indicators, 2 columns
const THUMB = '👍🏽'; // emoji with a skin-tone modifier
const CJK = '日本語のテキスト'; // 8 wide characters, 16 columns

/** Whether a string holds a surrogate without its partner. */
const hasLoneSurrogate = (s: string): boolean => /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(s);

describe('text measure', () => {
  it('counts graphemes and columns, not code units', () => {
    expect(FAMILY.length).toBe(11);
    expect(graphemeCount(FAMILY + FLAG + THUMB)).toBe(3);
    expect(graphemes(`a${FLAG}b`)).toEqual(['a', FLAG, 'b']);
    expect(displayWidth(CJK)).toBe(16);
    expect(displayWidth(`${FAMILY}x`)).toBe(3);
    expect(displayWidth('\u001b[31mred\u001b[0m')).toBe(3);
  });

  it('pads by columns, so CJK and ASCII cells line up', () => {
    const cells = ['abc', '日本', FLAG, `${FAMILY}!`].map((s) => `${padToWidth(s, 8)}|`);
    for (const cell of cells) expect(displayWidth(cell)).toBe(9);
  });
});

describe('clipText', () => {
  it('returns text that fits unchanged', () => {
    expect(clipText(CJK, 16)).toBe(CJK);
    expect(clipText(FAMILY.repeat(3), 3, { measure: 'graphemes' })).toBe(FAMILY.repeat(3));
  });

  it('never splits a ZWJ sequence, a flag or a skin tone, at any cut', () => {
    const text = `${FAMILY}a${FLAG}${THUMB}b${FAMILY}${FLAG}c`;
    for (let max = 0; max <= displayWidth(text); max++) {
      const cut = clipText(text, max);
      expect(hasLoneSurrogate(cut), `columns ${max}`).toBe(false);
      expect(displayWidth(cut), `columns ${max}`).toBeLessThanOrEqual(Math.max(max, 1));
      // What is kept is whole graphemes of the original, in order.
      const kept = cut.replace(/…$/, '');
      expect(text.startsWith(kept), `columns ${max}`).toBe(true);
      expect(graphemes(kept).every((g) => graphemes(text).includes(g))).toBe(true);
    }
    for (let max = 1; max <= graphemeCount(text); max++) {
      const cut = clipText(text, max, { measure: 'graphemes' });
      expect(hasLoneSurrogate(cut)).toBe(false);
      expect(graphemeCount(cut)).toBeLessThanOrEqual(max);
    }
  });

  it('does not cut a wide character to one column', () => {
    expect(clipText(CJK, 6)).toBe('日本…'); // 4 + 1 columns: a third character would need 7
    expect(clipText(CJK, 7)).toBe('日本語…');
    expect(displayWidth(clipText(CJK, 7))).toBe(7);
  });

  it('keeps the end when asked', () => {
    expect(clipText(`abc${FLAG}${FAMILY}`, 5, { keep: 'end' })).toBe(`…${FLAG}${FAMILY}`);
    expect(clipText('/root/a/very/long/path', 8, { keep: 'end' })).toBe('…ng/path');
  });

  it('keeps ANSI codes whole and resets the color after a cut', () => {
    const line = `\u001b[32m${CJK}\u001b[0m`;
    const cut = clipText(line, 5);
    expect(cut).toBe('\u001b[32m日本…\u001b[0m');
    expect(displayWidth(cut)).toBe(5);
  });
});

describe('text in inspection events and the demo', () => {
  it('an inspector event clips a long emoji text to whole graphemes and counts characters', () => {
    const text = `${FAMILY}${FLAG}`.repeat(150); // 300 graphemes
    const sanitized = sanitizeContext({ background: text }) as { background: string };
    expect(hasLoneSurrogate(sanitized.background)).toBe(false);
    expect(sanitized.background.endsWith('… (300 chars)')).toBe(true);
    expect(graphemeCount(sanitized.background.replace(/… \(300 chars\)$/, ''))).toBe(200);
    // Idempotent: a clipped text passes through again unchanged.
    expect(sanitizeContext({ background: sanitized.background })).toMatchObject({ background: sanitized.background });
  });

  it('the demo pads, clips, truncates and wraps by columns', () => {
    const rows = [['/root/调研', 'running'], ['/root/research', 'settled'], [`/root/${FAMILY}`, 'idle']];
    const lines = rows.map(([name, state]) => `${padVisible(name!, 16)}${state}`);
    const stateColumn = lines.map((l, i) => displayWidth(l) - displayWidth(rows[i]![1]!));
    expect(new Set(stateColumn)).toEqual(new Set([16]));
    expect(displayWidth(clipVisible(`\u001b[1m${CJK.repeat(3)}\u001b[0m`, 21))).toBeLessThanOrEqual(21);
    const short = truncate(`${THUMB} `.repeat(50), 10);
    expect(hasLoneSurrogate(short)).toBe(false);
    expect(displayWidth(short)).toBeLessThanOrEqual(10);
    for (const line of wrap(`${CJK} ${CJK} abc ${CJK}`, 20)) expect(displayWidth(line)).toBeLessThanOrEqual(20);
  });
});
