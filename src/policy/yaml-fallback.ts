/**
 * The second chance Claude Code gives front matter that is not valid YAML.
 *
 * Many published agent files write `description: Use this agent when: …` without quotes. The
 * `": "` inside the value makes strict YAML read a nested mapping and fail. Claude Code's
 * loader then retries once, after wrapping in double quotes every top-level `key: value` line
 * whose value is unquoted and holds a character YAML treats specially (`: `, `#`, `{`, `[`,
 * `*`, `&`, `!`, `|`, `>`, `%`, `@`, a backtick). We do the same, so such files load, and the
 * caller warns so the author can fix the file.
 *
 * Two deliberate differences, both keeping valid structure intact: a value that opens a flow
 * collection (`[a, b]`, `{…}`) or a block scalar (`|`, `>`) is left alone, so a list of tools
 * stays a list.
 */

/** A line the fallback rewrote. */
export interface QuotedLine {
  /** 0-based index of the line in the YAML text. */
  readonly index: number;
  readonly key: string;
}

/** The rewritten YAML (same number of lines) and what changed. */
export interface QuotedYaml {
  readonly text: string;
  readonly quoted: readonly QuotedLine[];
}

// A top-level `key: value` line: not indented, not a list item, a plain key.
const KEY_VALUE = /^([A-Za-z_][A-Za-z0-9_-]*):[ \t]+(.+)$/;
// Characters that make an unquoted value mean something else to YAML.
const SPECIAL = /[{}[\]*&#!|>%@`]|: /;
// Values whose first character opens structure the retry must keep.
const STRUCTURAL_START = /^[[{|>]/;

/**
 * Quotes the values Claude Code's retry would quote. Returns the text unchanged (and no
 * quoted lines) when there is nothing to quote.
 */
export function quoteProblemValues(yaml: string): QuotedYaml {
  const lines = yaml.split('\n');
  const quoted: QuotedLine[] = [];
  const out = lines.map((line, index) => {
    const match = KEY_VALUE.exec(line);
    if (match === null) return line;
    const key = match[1] as string;
    const value = (match[2] as string).trimEnd();
    if (isQuoted(value) || STRUCTURAL_START.test(value) || !SPECIAL.test(value)) return line;
    quoted.push({ index, key });
    return `${key}: "${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
  });
  return { text: out.join('\n'), quoted };
}

function isQuoted(value: string): boolean {
  return value.length >= 2 && ((value.startsWith('"') && value.endsWith('"')) || (value.startsWith("'") && value.endsWith("'")));
}
