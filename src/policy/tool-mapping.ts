/**
 * Mapping the tool names definition files use (Claude Code's `Read`, `Edit`, `Bash`) to the
 * names a host gives its tools (`read_file`, `edit_file`, `bash`). A pattern moves with its
 * tool: `Read(./src/**)` becomes `read_file(./src/**)`.
 */
import { parseToolEntry } from './tool-name.js';

/** Definition tool name → host tool name. Lookups try the exact name, then ignore case. */
export type ToolNameMap = Readonly<Record<string, string>>;

/**
 * The entry with its tool name mapped; the entry unchanged when the map has no name for it.
 *
 * @example
 * ```ts
 * mapToolEntry('Read(./src/**)', { Read: 'read_file' }); // 'read_file(./src/**)'
 * ```
 */
export function mapToolEntry(entry: string, map: ToolNameMap | undefined): string {
  const mapped = mappedName(parseToolEntry(entry).tool, map);
  if (mapped === undefined) return entry;
  const { pattern } = parseToolEntry(entry);
  return pattern === undefined ? mapped : `${mapped}(${pattern})`;
}

/** The host name `tool` maps to, or undefined. */
export function mappedName(tool: string, map: ToolNameMap | undefined): string | undefined {
  if (map === undefined) return undefined;
  if (Object.hasOwn(map, tool)) return map[tool];
  const folded = tool.toLowerCase();
  const key = Object.keys(map).find((name) => name.toLowerCase() === folded);
  return key === undefined ? undefined : map[key];
}
