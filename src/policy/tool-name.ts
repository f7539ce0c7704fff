/**
 * Tool names as definition files write them, and how they match the runtime's tools.
 *
 * Claude Code files write `tools: Read, Grep, Bash(git diff:*)` while hosts such as Pi name
 * their tools `read`, `grep`, `bash`. So that such files work unedited, tool names match
 * ignoring case, and an entry with a permission pattern is matched by its base tool name
 * (the pattern itself is checked per call, see `permission-pattern.ts`).
 */

/**
 * Splits a comma-separated tool list, ignoring commas inside parentheses so that a
 * specifier such as `Task(a, b)` stays one entry. Entries are trimmed; empty ones dropped.
 */
export function splitToolList(value: string): string[] {
  const names: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of value) {
    if (char === '(') depth += 1;
    else if (char === ')') depth = Math.max(0, depth - 1);
    if (char === ',' && depth === 0) {
      names.push(current);
      current = '';
    } else {
      current += char;
    }
  }
  names.push(current);
  return names.map((name) => name.trim()).filter((name) => name.length > 0);
}

/** The tool name without an argument specifier: `Bash(git:*)` → `Bash`. */
export function toolBaseName(spec: string): string {
  const open = spec.indexOf('(');
  return (open < 0 ? spec : spec.slice(0, open)).trim();
}

/** One tool entry of a definition, split into its tool name and optional pattern. */
export interface ToolEntry {
  /** The entry as written, e.g. `Bash(git diff *)`. */
  readonly text: string;
  /** The tool name, e.g. `Bash`. */
  readonly tool: string;
  /** The pattern inside the parentheses, when there is one (`git diff *`). */
  readonly pattern?: string;
}

/** Splits `Bash(git diff *)` into tool and pattern. An entry without `(…)` has no pattern. */
export function parseToolEntry(text: string): ToolEntry {
  const trimmed = text.trim();
  const open = trimmed.indexOf('(');
  if (open < 0 || !trimmed.endsWith(')')) return { text: trimmed, tool: trimmed };
  const tool = trimmed.slice(0, open).trim();
  const pattern = trimmed.slice(open + 1, -1).trim();
  // `Bash()` and `Bash(*)` mean the whole tool, as in Claude Code.
  if (pattern === '' || pattern === '*') return { text: trimmed, tool };
  return { text: trimmed, tool, pattern };
}

/** Whether `spec` carries a permission pattern (`Bash(git diff *)`; not `Bash()` or `Bash(*)`). */
export function hasSpecifier(spec: string): boolean {
  return parseToolEntry(spec).pattern !== undefined;
}

/**
 * Whether `spec` (as a definition file writes it) refers to the tool called `name`: their
 * base names are equal ignoring case. One relation serves listing, execution checks and
 * capability lookups, so a tool shown to the model is never refused at execution time.
 */
export function toolNameMatches(spec: string, name: string): boolean {
  return toolBaseName(spec).toLowerCase() === name.toLowerCase();
}
