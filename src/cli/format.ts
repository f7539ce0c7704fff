/**
 * Small text helpers for the command line: colors, durations, truncation, and the final
 * report of every subagent's result.
 */
import type { AgentResult, PrefixReuse, Usage } from '../index.js';
import { clipText, displayWidth, padToWidth } from '../text/clip.js';

/** A place text goes: `process.stdout`, or a test's collecting sink. */
export interface TextSink {
  write(text: string): unknown;
  /** Set by Node on terminal streams. */
  readonly isTTY?: boolean;
  /** Terminal width, when known. */
  readonly columns?: number;
}

/** ANSI styles the demo uses; each is the identity when color is off. */
export interface Palette {
  readonly bold: (text: string) => string;
  readonly dim: (text: string) => string;
  readonly red: (text: string) => string;
  readonly green: (text: string) => string;
  readonly yellow: (text: string) => string;
  readonly blue: (text: string) => string;
  readonly magenta: (text: string) => string;
  readonly cyan: (text: string) => string;
}

const sgr =
  (open: number, close: number) =>
  (text: string): string =>
    `\u001b[${open}m${text}\u001b[${close}m`;
const identity = (text: string): string => text;

/** A palette with ANSI colors, or one that leaves text alone. */
export function palette(color: boolean): Palette {
  if (!color) {
    return { bold: identity, dim: identity, red: identity, green: identity, yellow: identity, blue: identity, magenta: identity, cyan: identity };
  }
  return {
    bold: sgr(1, 22),
    dim: sgr(2, 22),
    red: sgr(31, 39),
    green: sgr(32, 39),
    yellow: sgr(33, 39),
    blue: sgr(34, 39),
    magenta: sgr(35, 39),
    cyan: sgr(36, 39),
  };
}

// eslint-disable-next-line no-control-regex
const ANSI_PATTERN = /\u001b\[[0-9;?]*[A-Za-z]/g;

/** The text without ANSI escape sequences. */
export function stripAnsi(text: string): string {
  return text.replace(ANSI_PATTERN, '');
}

/** Seconds with two decimals, right-aligned: `  0.42s`. */
export function stamp(ms: number): string {
  return `${(Math.max(0, ms) / 1000).toFixed(2).padStart(6)}s`;
}

/** A short duration: `340ms`, `1.24s`. */
export function duration(ms: number): string {
  const value = Math.max(0, Math.round(ms));
  return value < 1000 ? `${value}ms` : `${(value / 1000).toFixed(2)}s`;
}

/** Collapses whitespace and cuts to `max` columns with an ellipsis (never inside a character). */
export function truncate(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return clipText(flat, max).replace(/\s+…$/, '…');
}

/** Pads to `width` columns (ANSI codes take none, CJK and emoji take two). */
export function padVisible(text: string, width: number): string {
  return padToWidth(text, width);
}

/** Cuts a line that may hold ANSI codes to `width` columns (ending with `…`). */
export function clipVisible(text: string, width: number): string {
  return clipText(text, width);
}

/** Whether an agent state is final. */
export function isFinalState(state: string): boolean {
  return state === 'settled' || state === 'cancelled';
}

/** Colors a state string by what it means. */
export function colorState(state: string, p: Palette): string {
  if (state === 'settled') return p.green(state);
  if (state === 'cancelled') return p.red(state);
  if (state.startsWith('running.working.sampling')) return p.yellow(state);
  if (state.startsWith('running.working')) return p.magenta(state);
  if (state === 'running.idle') return p.cyan(state);
  return p.dim(state);
}

const number = (n: number): string => n.toLocaleString('en-US');

/** Wraps text into lines of at most `width` columns, breaking at spaces. */
export function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line === '') line = word;
    else if (displayWidth(line) + 1 + displayWidth(word) <= width) line += ` ${word}`;
    else {
      lines.push(line);
      line = word;
    }
  }
  if (line !== '') lines.push(line);
  return lines;
}

/** Options of {@link formatResult}. */
export interface ResultFormat {
  readonly color: boolean;
  /** Characters of final text shown before it is cut (default 280). */
  readonly maxText?: number;
  /** Line width for the final text (default 96). */
  readonly width?: number;
}

/** One result with its metadata, as several readable lines. */
export function formatResult(result: AgentResult, options: ResultFormat): string[] {
  const p = palette(options.color);
  const status =
    result.status === 'completed' ? p.green(result.status) : result.status === 'cancelled' ? p.red(result.status) : p.yellow(result.status);
  const turns = `${result.turns} ${result.turns === 1 ? 'turn' : 'turns'}`;
  const u = result.usage;
  const lines = [
    p.bold(result.path),
    `  ${result.role ? `role ${result.role}` : 'no role'} · context ${result.context} · ${status} · stop ${result.stopReason} · ${number(Math.round(result.elapsedMs))} ms · ${turns}`,
    `  usage: ${usageLine(u)}`,
  ];
  // Only subagents that delegated themselves have a subtree worth a second line.
  if (result.subtreeUsage.requests !== u.requests) lines.push(`  with its subagents: ${usageLine(result.subtreeUsage)}`);
  lines.push(`  prefix shared: ${prefixLine(result.prefix)}`);
  if (result.error !== undefined) lines.push(`  ${p.dim(`note: ${result.error}`)}`);
  const text = truncate(result.text, options.maxText ?? 280);
  if (text === '') lines.push(`  ${p.dim('│ (no final text)')}`);
  else for (const line of wrap(text, (options.width ?? 96) - 4)) lines.push(`  ${p.dim('│')} ${line}`);
  return lines;
}

/**
 * What a subagent's first request shared with its parent's last one: bytes, estimated tokens,
 * the share of its input, and why it shares less than it inherited.
 */
export function prefixLine(prefix: PrefixReuse): string {
  const percent = `${Math.round(prefix.sharedRatio * 100)}% of its input`;
  const shared = `${number(prefix.sharedBytes)} bytes (~${number(prefix.sharedTokens)} tokens), ${percent}`;
  if (prefix.reasons.length > 0) return `${shared}; less than inherited: ${prefix.reasons.join(', ')}`;
  return prefix.inheritedBytes > 0 ? `${shared}, all it inherited` : shared;
}

/** Tokens, requests (and retries, cost when known) of a usage value, on one line. */
export function usageLine(u: Usage): string {
  const requests = `${number(u.requests)} ${u.requests === 1 ? 'request' : 'requests'}`;
  const retries = u.retries > 0 ? ` (${number(u.retries)} retried)` : '';
  const cost = u.cost !== undefined ? ` · cost ${u.cost.toFixed(4)}` : '';
  return `input ${number(u.inputTokens)} · output ${number(u.outputTokens)} · cache read ${number(u.cacheReadTokens)} · cache write ${number(u.cacheWriteTokens)} · ${requests}${retries}${cost}`;
}

/** The end-of-session report: every subagent's one result, in delivery order. */
export function formatResults(results: readonly AgentResult[], options: ResultFormat): string {
  const p = palette(options.color);
  const header = p.bold(`Results: ${results.length} subagents, one result each (in delivery order)`);
  const blocks = results.map((r) => formatResult(r, options).join('\n'));
  return `${header}\n\n${blocks.join('\n\n')}\n`;
}
