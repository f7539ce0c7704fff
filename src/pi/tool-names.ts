/**
 * Claude Code's tool names, as `.claude/agents` files write them, mapped to Pi's built-in
 * tools. A name with no Pi tool (`WebFetch`, `NotebookEdit`, …) stays as written, and the
 * runtime warns about it when it starts, naming the role and its file.
 */
import type { ToolNameMap } from '../policy/tool-mapping.js';

/**
 * The default mapping. The extension's `runtime.toolNames` option adds to it and wins, for
 * example `{ WebFetch: 'fetch_url' }` for a tool another extension registers.
 */
export const PI_TOOL_NAMES: ToolNameMap = Object.freeze({
  Read: 'read',
  Write: 'write',
  Edit: 'edit',
  Bash: 'bash',
  Grep: 'grep',
  Glob: 'find',
  LS: 'ls',
});
