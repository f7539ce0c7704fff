/**
 * The Pi session's agent files: loaded once per session, checked as the runtime will check
 * them, with every problem kept by file so Pi's interface can show it (at session start and
 * in `/agents`).
 */
import { join, relative } from 'node:path';
import type { AgentDefinition } from '../policy/definition.js';
import type { DefinitionError } from '../policy/definition-error.js';
import type { ModelTable } from '../policy/model-alias.js';
import type { ToolNameMap } from '../policy/tool-mapping.js';
import { loadDefinitions } from '../load/definitions.js';
import { knownToolsOf, Roles } from '../runtime/roles.js';
import type { RuntimeOptions, RuntimeTool } from '../runtime/types.js';

/** One problem with the agent files, for Pi's interface. */
export interface AgentFileProblem {
  readonly severity: 'error' | 'warning';
  /** The file it concerns, relative to the session's folder; undefined for a table-wide problem. */
  readonly file: string | undefined;
  /** The whole sentence, naming the file. */
  readonly message: string;
}

/** What the extension loaded for one Pi session. */
export interface PiAgentFiles {
  /** The winning definition of each role name, in name order. */
  readonly roles: readonly AgentDefinition[];
  /** Every refused file, shadowed definition, unknown key, unmapped tool or unknown model. */
  readonly problems: readonly AgentFileProblem[];
  /** The folders read, relative to the session's folder, most specific first. */
  readonly dirs: readonly string[];
}

/** Input of {@link loadPiAgentFiles}. */
export interface LoadPiAgentFilesInput {
  readonly cwd: string;
  readonly dirs: readonly string[];
  /** The runtime tools subagents will have (Pi's tools), for the tool checks. */
  readonly tools: readonly RuntimeTool[];
  readonly toolNames: ToolNameMap;
  readonly models: ModelTable;
  /** Problems found before the files (the models table's), reported with them. */
  readonly modelProblems?: readonly string[];
  readonly runtime?: Pick<RuntimeOptions, 'capabilities' | 'confirm' | 'roleCatalog'>;
}

/**
 * Loads the folders (the first is the project's, labelled `project`) and checks the roles with
 * the runtime's own rules, so the warnings are those the runtime reports when it starts.
 *
 * @example
 * ```ts
 * const files = await loadPiAgentFiles({ cwd, dirs: ['.pi/agents', '.claude/agents'], tools, toolNames: PI_TOOL_NAMES, models });
 * for (const problem of files.problems) ctx.ui.notify(problem.message, problem.severity);
 * ```
 */
export async function loadPiAgentFiles(input: LoadPiAgentFilesInput): Promise<PiAgentFiles> {
  const loaded = await loadDefinitions(input.dirs.map((dir, i) => ({ path: join(input.cwd, dir), scope: i === 0 ? 'project' : dir })));
  const roles = [...loaded.definitions.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const shown = (file: string): string => relative(input.cwd, file) || file;
  // Paths in messages are made relative too, so they read as the user knows the files.
  const local = (message: string): string => message.split(input.cwd + '/').join('');
  // A loader warning names its file first (a shadowed definition: the shadowed file).
  const fileOf = (message: string): string | undefined => /(\S+\.md)\b/.exec(message)?.[1];
  const problems: AgentFileProblem[] = [
    ...loaded.errors.map((error: DefinitionError) => ({ severity: 'error' as const, file: shown(error.file), message: local(error.message) })),
    ...(input.modelProblems ?? []).map((message) => ({ severity: 'warning' as const, file: undefined, message })),
    ...loaded.warnings.map((message) => {
      const file = fileOf(message);
      return { severity: 'warning' as const, file: file === undefined ? undefined : shown(file), message: local(message) };
    }),
  ];
  if (roles.length > 0) {
    const checked = new Roles(
      { roles, toolNames: input.toolNames, models: input.models, canConfirm: input.runtime?.confirm !== undefined, ...(input.runtime?.roleCatalog !== undefined ? { roleCatalog: input.runtime.roleCatalog } : {}) },
      knownToolsOf({ tools: input.tools, ...(input.runtime?.capabilities ? { capabilities: input.runtime.capabilities } : {}) }),
    );
    for (const warning of checked.warnings) {
      problems.push({ severity: 'warning', file: warning.file === undefined ? undefined : shown(warning.file), message: local(warning.message) });
    }
  }
  return { roles, problems, dirs: input.dirs };
}
