/**
 * The built-in model-facing tools, registered for every agent alike.
 *
 * Registering the same tools, in the same order, for every agent is what lets a fork keep its
 * parent's request head byte for byte: a subagent-only tool or
 * a different order would put new bytes ahead of the inherited messages.
 */
import type { z } from 'zod';
import { BUILTIN_TOOL_NAMES, type BuiltinToolName } from './tool-names.js';
import { defineTool, describeValue, type DefinedTool, type ToolArgumentError, type ToolParseResult } from './tool-args.js';
import {
  agentArgsSchema,
  agentArgsWithBudgetSchema,
  cancelAgentArgsSchema,
  closeAgentArgsSchema,
  listAgentsArgsSchema,
  sendMessageArgsSchema,
  TOOL_DESCRIPTIONS,
  TOOL_HINTS,
} from './tool-schemas.js';
import type { ToolSchema } from './types.js';

/**
 * Validated arguments of `Agent`. `context` is still raw: the context layer parses it.
 * `budget` is accepted whether or not the head offers it; the runtime checks it.
 */
export type AgentArgs = z.output<typeof agentArgsWithBudgetSchema>;
/** Validated arguments of `send_message`. */
export type SendMessageArgs = z.output<typeof sendMessageArgsSchema>;
/** Validated arguments of `list_agents` (an empty object). */
export type ListAgentsArgs = z.output<typeof listAgentsArgsSchema>;
/** Validated arguments of `cancel_agent`. */
export type CancelAgentArgs = z.output<typeof cancelAgentArgsSchema>;
/** Validated arguments of `close_agent`. */
export type CloseAgentArgs = z.output<typeof closeAgentArgsSchema>;

const define = <S extends z.ZodObject>(name: BuiltinToolName, schema: S): DefinedTool<z.output<S>> =>
  defineTool({ name, description: TOOL_DESCRIPTIONS[name], schema, hints: TOOL_HINTS[name] });

/** The built-in tools with their validators, by name. */
export const BUILTIN_TOOLS = Object.freeze({
  Agent: define('Agent', agentArgsSchema),
  send_message: define('send_message', sendMessageArgsSchema),
  list_agents: define('list_agents', listAgentsArgsSchema),
  cancel_agent: define('cancel_agent', cancelAgentArgsSchema),
  close_agent: define('close_agent', closeAgentArgsSchema),
});

/**
 * `Agent` with its `budget` argument: the schema a session with budgets offers, and the
 * validator every `Agent` call goes through.
 */
export const AGENT_TOOL_WITH_BUDGET: DefinedTool<AgentArgs> = define('Agent', agentArgsWithBudgetSchema);

/** The built-in tool schemas, frozen, in registration order. */
export const BUILTIN_TOOL_SCHEMAS: readonly ToolSchema[] = Object.freeze(BUILTIN_TOOL_NAMES.map((name) => BUILTIN_TOOLS[name].schema));

/** Validated arguments of one built-in tool call, discriminated by `tool`. */
export type BuiltinToolCall =
  | { readonly ok: true; readonly tool: 'Agent'; readonly args: AgentArgs }
  | { readonly ok: true; readonly tool: 'send_message'; readonly args: SendMessageArgs }
  | { readonly ok: true; readonly tool: 'list_agents'; readonly args: ListAgentsArgs }
  | { readonly ok: true; readonly tool: 'cancel_agent'; readonly args: CancelAgentArgs }
  | { readonly ok: true; readonly tool: 'close_agent'; readonly args: CloseAgentArgs };

/** The outcome of {@link parseToolArguments}. */
export type ParsedToolArguments = BuiltinToolCall | { readonly ok: false; readonly error: ToolArgumentError };

/** Whether `name` is one of the built-in tools. */
export function isBuiltinTool(name: string): name is BuiltinToolName {
  return (BUILTIN_TOOL_NAMES as readonly string[]).includes(name);
}

/**
 * Validates a built-in tool call's arguments. Never throws: an unknown tool name or malformed
 * arguments yield `{ ok: false, error }`, whose `message` names each bad field and what it
 * should hold, ready to return to the model as the tool result. `options.budget`: the `Agent`
 * tool takes a `budget` (sessions with budgets offer it).
 */
export function parseToolArguments(name: string, args: unknown, options: { readonly budget?: boolean } = {}): ParsedToolArguments {
  switch (name) {
    case 'Agent':
      // `budget` is an argument only where the head offers it (a session with budgets).
      return tag('Agent', options.budget === true ? parseAgentWithBudget(args) : BUILTIN_TOOLS.Agent.parse(args));
    case 'send_message':
      return tag('send_message', BUILTIN_TOOLS.send_message.parse(args));
    case 'list_agents':
      return tag('list_agents', BUILTIN_TOOLS.list_agents.parse(args));
    case 'cancel_agent':
      return tag('cancel_agent', BUILTIN_TOOLS.cancel_agent.parse(args));
    case 'close_agent':
      return tag('close_agent', BUILTIN_TOOLS.close_agent.parse(args));
    default: {
      const expected = `one of ${BUILTIN_TOOL_NAMES.join(', ')}`;
      const shown = describeValue(name);
      return {
        ok: false,
        error: Object.freeze({
          tool: name,
          issues: Object.freeze([Object.freeze({ field: '', problem: 'unknown_tool' as const, expected })]),
          message: `Unknown tool ${shown}: expected ${expected}.`,
        }),
      };
    }
  }
}

/** The `budget` fields a model may set, in the schema's order; `costUsd` alone is not an integer. */
const BUDGET_ARGUMENT_FIELDS = ['tokens', 'costUsd', 'wallMs', 'steps', 'spawns'] as const;

/**
 * `Agent` arguments in a session with budgets. A call asking for a budget has it checked here
 * by the budget schema's own rules (each field a number >= 0, all but `costUsd` safe
 * integers, no other field) and the rest by the plain schema: every budgeted spawn of a
 * fan-out parses here, and zod's nested object made several short-lived objects per call.
 * Whatever these rules do not accept goes through the full schema, so a bad call's error reads
 * exactly as the schema words it.
 */
function parseAgentWithBudget(args: unknown): ToolParseResult<AgentArgs> {
  if (args !== null && typeof args === 'object' && !Array.isArray(args) && Object.hasOwn(args, 'budget')) {
    const { budget, ...rest } = args as Record<string, unknown>;
    const checked = budgetArgument(budget);
    if (checked !== undefined) {
      const parsed = BUILTIN_TOOLS.Agent.parse(rest);
      if (parsed.ok) return { ok: true, args: { ...parsed.args, budget: checked } };
    }
  }
  return AGENT_TOOL_WITH_BUDGET.parse(args);
}

/** A `budget` argument the schema accepts, frozen with its fields in the schema's order; undefined for anything else. */
function budgetArgument(value: unknown): NonNullable<AgentArgs['budget']> | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value) || Object.getPrototypeOf(value) !== Object.prototype) return undefined;
  const record = value as Record<string, unknown>;
  for (const key in record) {
    const field = record[key];
    if (typeof field !== 'number' || !(field >= 0) || !Number.isFinite(field)) return undefined;
    if (key !== 'costUsd' && !((key === 'tokens' || key === 'wallMs' || key === 'steps' || key === 'spawns') && Number.isSafeInteger(field))) return undefined;
  }
  const out: { -readonly [K in (typeof BUDGET_ARGUMENT_FIELDS)[number]]?: number } = {};
  for (const key of BUDGET_ARGUMENT_FIELDS) if (record[key] !== undefined) out[key] = record[key] as number;
  return Object.freeze(out);
}

function tag<N extends BuiltinToolName, T>(
  tool: N,
  result: { readonly ok: true; readonly args: T } | { readonly ok: false; readonly error: ToolArgumentError },
): { readonly ok: true; readonly tool: N; readonly args: T } | { readonly ok: false; readonly error: ToolArgumentError } {
  return result.ok ? { ok: true, tool, args: Object.freeze(result.args) } : result;
}
