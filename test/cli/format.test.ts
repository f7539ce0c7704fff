import { describe, expect, it } from 'vitest';
import type { AgentResult } from '../../src/index.js';
import { clipVisible, duration, formatResult, formatResults, palette, stamp, stripAnsi, truncate, wrap } from '../../src/cli/format.js';

const result = (overrides: Partial<AgentResult> = {}): AgentResult => ({
  text: 'Found it.',
  path: '/root/audit',
  role: 'reviewer',
  context: 'none',
  contextMode: 'none',
  status: 'completed',
  stopReason: 'completed',
  error: undefined,
  elapsedMs: 1234.4,
  sessionId: 's',
  treeId: 't',
  usage: { inputTokens: 1500, outputTokens: 20, cacheReadTokens: 300, cacheWriteTokens: 1200, requests: 2, retries: 0 },
  subtreeUsage: { inputTokens: 1500, outputTokens: 20, cacheReadTokens: 300, cacheWriteTokens: 1200, requests: 2, retries: 0 },
  turns: 1,
  prefix: { sharedBytes: 1200, sharedTokens: 300, sharedRatio: 0.2, inputBytes: 6000, inheritedBytes: 1400, reasons: ['tool_filter'] },
  ...overrides,
});

describe('format', () => {
  it('shows a result with every metadata field', () => {
    const lines = formatResult(result(), { color: false });
    expect(lines).toEqual([
      '/root/audit',
      '  role reviewer · context none · completed · stop completed · 1,234 ms · 1 turn',
      '  usage: input 1,500 · output 20 · cache read 300 · cache write 1,200 · 2 requests',
      '  prefix shared: 1,200 bytes (~300 tokens), 20% of its input; less than inherited: tool_filter',
      '  │ Found it.',
    ]);
  });

  it('says when the prefix is shared, when there is no role or text, and notes errors', () => {
    const text = formatResult(result({ role: undefined, prefix: { sharedBytes: 4096, sharedTokens: 1024, sharedRatio: 0.5, inputBytes: 8192, inheritedBytes: 4096, reasons: [] }, text: '', status: 'cancelled', stopReason: 'cancelled', error: 'cancelled by /root', turns: 0 }), {
      color: false,
    }).join('\n');
    expect(text).toContain('no role · context none · cancelled · stop cancelled');
    expect(text).toContain('0 turns');
    expect(text).toContain('prefix shared: 4,096 bytes (~1,024 tokens), 50% of its input, all it inherited');
    expect(text).toContain('note: cancelled by /root');
    expect(text).toContain('(no final text)');
  });

  it('truncates long final text and wraps it', () => {
    const lines = formatResult(result({ text: 'word '.repeat(200) }), { color: false, maxText: 100, width: 44 });
    const textLines = lines.filter((l) => l.startsWith('  │ '));
    expect(textLines.length).toBeGreaterThan(1);
    expect(textLines.every((l) => l.length <= 44)).toBe(true);
    expect(textLines.at(-1)).toMatch(/…$/);
    expect(formatResults([result(), result({ path: '/root/b' })], { color: false })).toMatch(/^Results: 2 subagents, one result each/);
  });

  it('colors only when asked', () => {
    expect(formatResult(result(), { color: true }).join('')).toContain('\u001b[');
    expect(palette(false).red('x')).toBe('x');
    expect(stripAnsi(palette(true).red('x'))).toBe('x');
  });

  it('small helpers', () => {
    expect(stamp(420)).toBe('  0.42s');
    expect(duration(340)).toBe('340ms');
    expect(duration(1240)).toBe('1.24s');
    expect(truncate('a  b\n c', 10)).toBe('a b c');
    expect(truncate('abcdefghijk', 5)).toBe('abcd…');
    expect(wrap('aa bb cc', 5)).toEqual(['aa bb', 'cc']);
    const colored = `${palette(true).green('abcdefghij')}xyz`;
    expect(stripAnsi(clipVisible(colored, 6))).toBe('abcde…');
    expect(clipVisible('short', 10)).toBe('short');
  });
});
