/**
 * Tool names as definition files write them, and how they match the runtime's tools.
 *
 * Claude Code files write `tools: Read, Grep, Bash(git diff:*)` while hosts such as Pi name
 * their tools `read`, `grep`, `bash`. So that such files work unedited, tool names match
 * ignoring case, and a parenthesized argument specifier is matched by its base tool name
 * (this library does not enforce argument patterns; callers are told which entries were
 * broadened).
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

/** Whether `spec` carries an argument specifier that matching ignores. */
export function hasSpecifier(spec: string): boolean {
  return toolBaseName(spec) !== spec.trim();
}

/**
 * Whether `spec` (as a definition file writes it) refers to the tool called `name`: their
 * base names are equal ignoring case. One relation serves listing, execution checks and
 * capability lookups, so a tool shown to the model is never refused at execution time.
 */
export function toolNameMatches(spec: string, name: string): boolean {
  return toolBaseName(spec).toLowerCase() === name.toLowerCase();
}
