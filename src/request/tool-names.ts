/**
 * The names of the model-facing tools registered for every agent, in their fixed order.
 *
 * Kept apart from the schemas so modules that only need the names (the wrapper deciding on
 * reply guidance, host-tool name checks) do not pull zod in.
 */

/**
 * Built-in tool names in registration order. The order is part of the request head: every
 * agent lists these tools in this order so a fork's head matches its parent's byte for byte.
 */
export const BUILTIN_TOOL_NAMES = ['Agent', 'send_message', 'list_agents', 'cancel_agent', 'close_agent'] as const;

/** One built-in tool name. */
export type BuiltinToolName = (typeof BUILTIN_TOOL_NAMES)[number];

/** The messaging tool; its presence decides whether a task carries reply guidance. */
export const SEND_MESSAGE_TOOL = 'send_message' satisfies BuiltinToolName;
