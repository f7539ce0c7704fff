/**
 * A host tool with its implementation, as hosts define it once for every host: `createRuntime`
 * runs it, and so does `delegatingAgent`. Pure: the runtime decides when it runs.
 */
import { defineHostTool, type HostTool, type HostToolDefinition } from '../request/host-tool.js';
import type { ToolArgsOf, ToolInputSchema } from '../request/tool-input.js';
import type { PermissionMatcher } from './permission-pattern.js';

/** What a host tool's `execute` gets besides its validated arguments. */
export interface ToolExecutionContext {
  /** The calling agent's path. */
  readonly path: string;
  /** Aborts when the calling agent is cancelled. */
  readonly signal: AbortSignal;
  readonly callId: string;
  /** Directories outside the workspace the host granted the calling agent at its spawn (none for the root). */
  readonly externalDirectories: readonly string[];
  /** Whether the host let the calling agent load the project's extensions (true for the root). */
  readonly inheritsExtensions: boolean;
}

/** Whether a host tool's call needs approval: always, or by a predicate over its arguments. */
export type NeedsApproval<T = unknown> =
  | boolean
  // Method syntax keeps the predicate's argument bivariant, like `execute`'s, so a typed tool
  // is still a RuntimeTool<unknown>.
  | { check(args: T, context: { readonly path: string }): boolean | Promise<boolean> }['check'];

/** A host tool's result: text for the model, flagged when it is an error. */
export type ToolOutput = string | { readonly content: string; readonly isError?: boolean };

/**
 * A host tool with its implementation: the host's schema (any Standard Schema or a JSON
 * Schema), its canonical JSON Schema, model-actionable argument errors, plus `execute`. Build one with
 * {@link defineRuntimeTool}.
 */
export interface RuntimeTool<T = unknown> extends HostTool<T> {
  /** Calls that need the host's approval (`createRuntime`'s `approve`) before they run. */
  readonly needsApproval?: NeedsApproval<T>;
  execute(args: T, context: ToolExecutionContext): ToolOutput | Promise<ToolOutput>;
  /**
   * What `Tool(pattern)` entries in a role's tool lists are matched on: the command of a
   * shell tool, the path(s) of a file tool. Without it, a pattern for this tool cannot be
   * checked, so a role that names the tool only with a pattern does not get it.
   */
  readonly permission?: PermissionMatcher<T>;
}

/**
 * Defines a host tool the runtime can execute: a schema for its arguments (any Standard Schema,
 * such as zod 3 or 4, valibot or arktype, or a plain JSON Schema object), the capabilities it
 * exercises (for confirmation), optionally what permission patterns match (`permission`), and
 * `execute`, which gets the schema's validated output.
 *
 * @example
 * ```ts
 * const bash = defineRuntimeTool({
 *   name: 'bash',
 *   description: 'Runs a shell command.',
 *   schema: z.object({ command: z.string() }),
 *   capabilities: ['shell'],
 *   permission: { kind: 'command', subject: (args) => args.command }, // enforces Bash(git diff *)
 *   execute: async ({ command }) => run(command),
 * });
 * ```
 */
export function defineRuntimeTool<S extends ToolInputSchema>(
  def: HostToolDefinition<S> & {
    /** What permission patterns for this tool match: the command, or the path(s). */
    readonly permission?: PermissionMatcher<ToolArgsOf<S>>;
    /**
     * Whether a call needs the host's approval first (`createRuntime`'s `approve`): always
     * (`true`) or by a predicate over the validated arguments.
     */
    readonly needsApproval?: NeedsApproval<ToolArgsOf<S>>;
    readonly execute: (args: ToolArgsOf<S>, context: ToolExecutionContext) => ToolOutput | Promise<ToolOutput>;
  },
): RuntimeTool<ToolArgsOf<S>> {
  const tool = defineHostTool({
    name: def.name,
    description: def.description,
    schema: def.schema,
    ...(def.jsonSchema ? { jsonSchema: def.jsonSchema } : {}),
    ...(def.capabilities ? { capabilities: def.capabilities } : {}),
    ...(def.hints ? { hints: def.hints } : {}),
  });
  return Object.freeze({
    ...tool,
    execute: def.execute,
    ...(def.permission ? { permission: Object.freeze({ ...def.permission }) } : {}),
    ...(def.needsApproval !== undefined ? { needsApproval: def.needsApproval } : {}),
  });
}
