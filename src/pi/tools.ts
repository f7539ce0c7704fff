/**
 * The Pi session's tools as host tools of the runtime, so subagents call the same tools the
 * Pi session has, under the same names and schemas (a fork's tool list is then Pi's own).
 */
import { validateToolArguments, type JsonObject as PiJsonObject, type Tool } from '@earendil-works/pi-ai';
import {
  createBashToolDefinition,
  createEditToolDefinition,
  createFindToolDefinition,
  createGrepToolDefinition,
  createLsToolDefinition,
  createReadToolDefinition,
  createWriteToolDefinition,
  type ExtensionContext,
  type ToolInfo,
} from '@earendil-works/pi-coding-agent';
import type { JsonObject } from '../request/types.js';
import type { RuntimeTool, ToolExecutionContext } from '../runtime/types.js';

/**
 * What the extension needs of a Pi tool definition (`defineTool(...)`, a built-in's
 * definition): its name and `execute`. Any Pi `ToolDefinition` fits.
 */
export interface AnyPiToolDefinition {
  readonly name: string;
  execute(
    toolCallId: string,
    params: unknown,
    signal: AbortSignal | undefined,
    onUpdate: ((partial: { readonly content: readonly { readonly type: string; readonly text?: string }[] }) => void) | undefined,
    ctx: ExtensionContext,
  ): Promise<{ readonly content: readonly { readonly type: string; readonly text?: string; readonly mimeType?: string }[] }>;
}

/** Pi's built-in tools, built for a working directory, as the Pi session builds them. */
export function piBuiltinTools(cwd: string): ReadonlyMap<string, AnyPiToolDefinition> {
  const tools: AnyPiToolDefinition[] = [
    createReadToolDefinition(cwd),
    createBashToolDefinition(cwd),
    createEditToolDefinition(cwd),
    createWriteToolDefinition(cwd),
    createGrepToolDefinition(cwd),
    createFindToolDefinition(cwd),
    createLsToolDefinition(cwd),
  ];
  return new Map(tools.map((t) => [t.name, t]));
}

/** Capabilities of Pi's built-in tools, for the runtime's confirmation rules. */
const CAPABILITIES: Readonly<Record<string, readonly string[]>> = { bash: ['shell'], edit: ['write'], write: ['write'] };

function textOf(content: readonly { readonly type: string; readonly text?: string; readonly mimeType?: string }[]): string {
  return content.map((block) => (block.type === 'text' ? (block.text ?? '') : `[${block.type}${block.mimeType ? ` ${block.mimeType}` : ''}]`)).join('\n');
}

/** Input of {@link piHostTools}. */
export interface PiHostToolsInput {
  /** The Pi tools subagents get, in Pi's order (from `pi.getAllTools()`). */
  readonly tools: readonly ToolInfo[];
  /** Implementations by name (Pi's built-ins plus any the host passes). */
  readonly implementations: ReadonlyMap<string, AnyPiToolDefinition>;
  /** The Pi context to run tools in (the latest one the extension saw). */
  readonly context: () => ExtensionContext;
  /** Progress of a subagent's tool call (Pi's `onUpdate` of the Agent call it runs under). */
  readonly onProgress?: (path: string, tool: string, text: string) => void;
}

/**
 * One runtime tool per Pi tool: its schema is Pi's, its arguments are validated as Pi
 * validates them, and it runs Pi's implementation in the Pi session's context. A tool with no
 * implementation stays in the list (so forks keep Pi's exact tool list and its cached prefix)
 * and answers with an error saying it is not available to subagents.
 */
export function piHostTools(input: PiHostToolsInput): RuntimeTool[] {
  return input.tools.map((info) => {
    const tool: Tool = { name: info.name, description: info.description, parameters: info.parameters };
    const inputSchema = JSON.parse(JSON.stringify(info.parameters)) as JsonObject;
    return Object.freeze({
      name: info.name,
      schema: Object.freeze({ name: info.name, description: info.description, inputSchema }),
      capabilities: Object.freeze([...(CAPABILITIES[info.name] ?? [])]),
      parse(args: unknown) {
        try {
          const valid = validateToolArguments(tool, { type: 'toolCall', id: '', name: info.name, arguments: args as PiJsonObject }) as unknown;
          return { ok: true as const, args: valid };
        } catch (error) {
          const message = error instanceof Error ? error.message : 'invalid arguments';
          return { ok: false as const, error: { tool: info.name, issues: [], message } };
        }
      },
      async execute(args: unknown, context: ToolExecutionContext) {
        const implementation = input.implementations.get(info.name);
        if (implementation === undefined) {
          return { content: `Error: the Pi tool "${info.name}" is not available to subagents (pass its definition in the extension's \`tools\` option)`, isError: true };
        }
        const result = await implementation.execute(
          context.callId,
          args,
          context.signal,
          (partial: { content: readonly { type: string; text?: string }[] }) => input.onProgress?.(context.path, info.name, textOf(partial.content)),
          input.context(),
        );
        return textOf(result.content);
      },
    }) satisfies RuntimeTool;
  });
}
