/**
 * System configurations (request heads) of a runtime's agents.
 *
 * Every agent gets the same tools in the same order, so a subagent that keeps its parent's
 * preset has the parent's configuration object itself: byte-identical by construction.
 * Only a tool filter (a role's allow or deny list) makes a different head, and equal
 * filters share one frozen object, so each head is serialized once.
 */
import { BUILTIN_TOOL_SCHEMAS } from '../request/tools.js';
import type { SystemConfiguration, ToolSchema } from '../request/types.js';
import type { RoleDefinition } from './roles.js';
import type { RuntimeTool } from './types.js';

/** The root's system prompt when the host gives none. */
export const DEFAULT_SYSTEM_PROMPT =
  'You are an agent that can delegate work to subagents with the Agent tool and talk to other agents with send_message.';

/** Builds and memoizes request heads. */
export class Heads {
  private readonly base: SystemConfiguration;
  private readonly filtered = new Map<string, SystemConfiguration>();

  constructor(options: { readonly systemPrompt?: string; readonly tools?: readonly RuntimeTool[] }) {
    const tools: ToolSchema[] = [...BUILTIN_TOOL_SCHEMAS, ...(options.tools ?? []).map((t) => t.schema)];
    this.base = Object.freeze({ preset: 'default', systemPrompt: options.systemPrompt ?? DEFAULT_SYSTEM_PROMPT, tools: Object.freeze(tools) });
  }

  /** The root's head. */
  root(): SystemConfiguration {
    return this.base;
  }

  /** A subagent's head: the parent's, narrowed by the role's tool lists when it has any. */
  forChild(input: { readonly parent: SystemConfiguration; readonly role: RoleDefinition | undefined }): SystemConfiguration {
    const allow = input.role?.tools;
    const deny = input.role?.disallowedTools;
    if (allow === undefined && (deny === undefined || deny.length === 0)) return input.parent;
    const key = `${input.parent.preset}\u0000${allow?.join(',') ?? '*'}\u0000${deny?.join(',') ?? ''}`;
    const cached = this.filtered.get(key);
    if (cached && cached.systemPrompt === input.parent.systemPrompt) return cached;
    const allowed = new Set(allow ?? input.parent.tools.map((t) => t.name));
    for (const name of deny ?? []) allowed.delete(name);
    const tools = input.parent.tools.filter((t) => allowed.has(t.name));
    if (tools.length === input.parent.tools.length) return input.parent;
    const head: SystemConfiguration = Object.freeze({ preset: `${input.parent.preset}+filter`, systemPrompt: input.parent.systemPrompt, tools: Object.freeze(tools) });
    this.filtered.set(key, head);
    return head;
  }
}
