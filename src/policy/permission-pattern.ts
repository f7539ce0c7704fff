/**
 * Claude Code's permission patterns, `Tool(pattern)`, matched against what one tool call does.
 *
 * A definition's `tools: Read, Bash(git diff *)` allows the bash tool only for commands that
 * match `git diff *`. A host tool says what its calls are matched on by declaring a
 * {@link PermissionMatcher}: the command for a shell tool, the path for a file tool. Matching
 * is strict on purpose: anything the rule cannot see through is refused, never let pass.
 *
 * Command patterns (`kind: 'command'`):
 * - `npm test:*` (Claude's prefix form): the command is `npm test` or starts with `npm test `.
 * - A pattern with `*` is a wildcard match, `*` standing for any run of characters:
 *   `git diff *` matches `git diff HEAD~1`; a trailing ` *` also matches the bare command
 *   (`git diff`), and `ls *` does not match `lsof`.
 * - Without `*`, the command must equal the pattern.
 * - A command is split at unquoted `;`, `&&`, `||`, `|`, `&` and newlines, and every part must
 *   match an allow pattern (any part matching a deny pattern denies the call). Command
 *   substitution (`$(…)`, backticks, `<(…)`, `>(…)`) and unquoted redirections (`>`, `<`)
 *   never match an allow pattern: `git diff > src/a.ts` writes a file.
 * - Whitespace outside quotes is collapsed to one space before matching.
 *
 * Path patterns (`kind: 'path'`), gitignore-like globs as Claude Code reads them:
 * - `//abs/path/**` is absolute; `~/x/**` is under the home directory;
 * - `/src/**`, `./src/**` and `src/**` are under the workspace root;
 * - `*` matches within one path segment, `**` across segments, dot files included.
 * - The call's path is resolved against the workspace root (so `./src/../.env` is `.env`)
 *   before matching. Links are not followed: a host whose file tools follow links should
 *   resolve the path in its `subject` function.
 */
import { posix } from 'node:path';
import picomatch from 'picomatch';

/** What a tool's calls are matched on, and how patterns for it are read. */
export type PermissionMatcherKind = 'command' | 'path';

/**
 * Declared by a host tool so `Tool(pattern)` entries can be enforced on its calls.
 *
 * @example
 * ```ts
 * const bash = defineRuntimeTool({
 *   name: 'bash', description: 'Runs a command.', schema: z.object({ command: z.string() }),
 *   permission: { kind: 'command', subject: (args) => args.command },
 *   execute: run,
 * });
 * ```
 */
export interface PermissionMatcher<T = unknown> {
  readonly kind: PermissionMatcherKind;
  /** The command or path(s) one call acts on, from its validated arguments. */
  subject(args: T): string | readonly string[];
}

/** Where relative path patterns and paths are anchored. */
export interface PathAnchors {
  /** The workspace root: `./x`, `/x` and `x` patterns, and relative call paths, are under it. */
  readonly root: string;
  /** The home directory, for `~/` patterns and paths. */
  readonly home: string;
}

/** Whether every part of `command` (parts are joined by `&&`, `|`, …) matches one of `patterns`. */
export function commandMatchesAll(patterns: readonly string[], command: string): boolean {
  const parts = splitCommand(command);
  if (parts === undefined || parts.length === 0) return false;
  return parts.every((part) => patterns.some((p) => commandPartMatches(p, part)));
}

/** Whether any part of `command` matches one of `patterns` (for deny lists). Opaque commands count as matching. */
export function commandMatchesAny(patterns: readonly string[], command: string): boolean {
  const parts = splitCommand(command);
  // A command we cannot see through may run anything: for a deny list, that is a match.
  if (parts === undefined) return true;
  return parts.some((part) => patterns.some((p) => commandPartMatches(p, part)));
}

/** Whether `path` (resolved against the anchors) matches the path pattern. */
export function pathMatches(pattern: string, path: string, anchors: PathAnchors): boolean {
  const target = resolvePath(path, anchors);
  const glob = resolvePattern(pattern, anchors);
  return picomatch(glob, { dot: true })(target);
}

function commandPartMatches(pattern: string, part: string): boolean {
  const normalized = collapse(pattern);
  if (normalized.endsWith(':*')) {
    const prefix = normalized.slice(0, -2).trimEnd();
    return part === prefix || part.startsWith(`${prefix} `);
  }
  if (!normalized.includes('*')) return part === normalized;
  if (normalized.endsWith(' *') && part === normalized.slice(0, -2)) return true;
  const source = normalized.split('*').map(escapeRegExp).join('[\\s\\S]*');
  return new RegExp(`^${source}$`).test(part);
}

/**
 * The parts of a command between unquoted control operators, each with unquoted whitespace
 * collapsed; undefined when the command holds substitution or redirection outside single
 * quotes (or an unclosed quote), which no pattern can vouch for.
 */
export function splitCommand(command: string): string[] | undefined {
  const parts: string[] = [];
  let current = '';
  let quote: "'" | '"' | undefined;
  const flush = (): void => {
    const part = current.trim();
    if (part !== '') parts.push(part);
    current = '';
  };
  for (let i = 0; i < command.length; i++) {
    const char = command[i] as string;
    const next = command[i + 1];
    if (quote === "'") {
      current += char;
      if (char === "'") quote = undefined;
      continue;
    }
    if (char === '\\') {
      // An escaped character is literal, but an escaped newline would join lines: refuse.
      if (next === undefined || next === '\n') return undefined;
      current += char + next;
      i++;
      continue;
    }
    if (char === '`' || (char === '$' && next === '(')) return undefined;
    if (quote === '"') {
      current += char;
      if (char === '"') quote = undefined;
      continue;
    }
    if (char === "'" || char === '"') {
      quote = char;
      current += char;
      continue;
    }
    if (char === '<' || char === '>') return undefined;
    if (char === ';' || char === '\n' || char === '|' || char === '&') {
      flush();
      if ((char === '|' || char === '&') && next === char) i++;
      continue;
    }
    if (/\s/.test(char)) {
      if (!current.endsWith(' ')) current += ' ';
      continue;
    }
    current += char;
  }
  if (quote !== undefined) return undefined;
  flush();
  return parts;
}

function collapse(text: string): string {
  return text.trim().replace(/\s+/g, ' ');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function resolvePath(path: string, anchors: PathAnchors): string {
  const slashed = path.replace(/\\/g, '/');
  if (slashed === '~' || slashed.startsWith('~/')) return posix.resolve(anchors.home, `.${slashed.slice(1)}`);
  return posix.resolve(anchors.root, slashed);
}

function resolvePattern(pattern: string, anchors: PathAnchors): string {
  if (pattern.startsWith('//')) return posix.normalize(pattern.slice(1));
  if (pattern.startsWith('~/')) return `${trimSlash(anchors.home)}/${pattern.slice(2)}`;
  const relative = pattern.startsWith('./') ? pattern.slice(2) : pattern.startsWith('/') ? pattern.slice(1) : pattern;
  return `${trimSlash(anchors.root)}/${relative}`;
}

function trimSlash(path: string): string {
  return path.length > 1 ? path.replace(/\/+$/, '') : path;
}
