/**
 * Zod schemas, descriptions and error wording of the built-in tools.
 *
 * Everything here is model-facing text: it says "subagent", "delegated agent" or "worker",
 * never "child agent". Descriptions are part of every request head, so
 * they stay short; changing a word changes every agent's head (the snapshot tests show it).
 */
import { z } from 'zod';
import type { FieldHints } from './tool-args.js';

/** Task names: the last segment of an agent path. */
export const TASK_NAME_PATTERN = /^[a-z0-9_-]{1,64}$/;

/** Agent paths as models write them: `/root`, `/root/research`, `/root/research/tests`. */
export const AGENT_PATH_PATTERN = /^\/[a-z0-9_-]{1,64}(\/[a-z0-9_-]{1,64})*$/;

const agentId = z.string().regex(AGENT_PATH_PATTERN);

const agentIdHint = 'an agent path such as "/root" or "/root/research"';

/** Arguments of `Agent`. */
export const agentArgsSchema = z
  .object({
    task_name: z
      .string()
      .regex(TASK_NAME_PATTERN)
      .describe('Short name for the subagent: 1-64 lowercase letters, digits, "-" or "_". Its agent_id is your agent_id + "/" + task_name.'),
    message: z.string().min(1).describe('The task, self-contained: what to do and what to report back.'),
    role: z.string().min(1).optional().describe('Name of the agent definition (role) the subagent runs as.'),
    // Permissive on purpose: the value is parsed (aliases, decimal strings) by the context
    // layer, which owns the wording of context errors.
    context: z
      .union([z.string(), z.number().int().positive()])
      .optional()
      .describe('What the subagent sees of this conversation: "none", "all", "summary", or a positive integer N (the last N turns).'),
    model: z.string().min(1).optional().describe('Model for the subagent; omit to use the default.'),
    effort: z.enum(['low', 'medium', 'high']).optional().describe('Reasoning effort for the subagent; omit to use the default.'),
    attachments: z
      .array(z.object({ name: z.string().min(1), content: z.string() }).strict())
      .optional()
      .describe('Named texts (files, snippets) handed to the subagent verbatim.'),
  })
  .strict();

/**
 * Arguments of `Agent` in a session with budgets: the same, plus `budget`, the caps the model
 * asks for its subagent (smaller than its role's, never larger). Sessions without budgets
 * keep the plain schema, so their request heads do not change.
 */
export const agentArgsWithBudgetSchema = agentArgsSchema
  .extend({
    budget: z
      .object({
        tokens: z.number().int().nonnegative().optional(),
        costUsd: z.number().nonnegative().optional(),
        wallMs: z.number().int().nonnegative().optional(),
        steps: z.number().int().nonnegative().optional(),
        spawns: z.number().int().nonnegative().optional(),
      })
      .strict()
      .optional()
      .describe('Caps for the subagent and the workers it starts: tokens, costUsd, wallMs, steps (model requests), spawns. Taken from your remaining budget; unused budget comes back when it finishes. Omit for its role\'s default.'),
  })
  .strict();

/** Arguments of `send_message`. */
export const sendMessageArgsSchema = z
  .object({
    agent_id: agentId.describe('The recipient\'s agent_id: a path such as "/root" or "/root/research".'),
    message: z.string().min(1).describe('The message text.'),
  })
  .strict();

/** Arguments of `list_agents` (none). */
export const listAgentsArgsSchema = z.object({}).strict();

/** Arguments of `cancel_agent`. */
export const cancelAgentArgsSchema = z.object({ agent_id: agentId.describe('The agent_id of the subagent to cancel.') }).strict();

/** Arguments of `close_agent`. */
export const closeAgentArgsSchema = z.object({ agent_id: agentId.describe('The agent_id of the subagent to close.') }).strict();

/** Model-facing descriptions of the built-in tools. */
export const TOOL_DESCRIPTIONS = {
  Agent: [
    'Delegate one task to a subagent: a worker that runs on its own and reports back once, with a final answer (never its transcript). The result arrives as the result of this call or later as a notice.',
    'Give it a short task_name and a self-contained message. context sets what it sees of this conversation:',
    '- "none" (the default unless its role sets one): nothing; it gets your message, its role\'s instructions, the project\'s AGENTS.md and any attachments.',
    '- "all": a copy of this conversation so far.',
    '- N (a positive integer): the last N turns of this conversation.',
    '- "summary": a background summary of this conversation, written for the task.',
    'Prefer "none" with a complete message; pass context only when the task depends on the conversation itself.',
  ].join('\n'),
  send_message:
    'Send a message to another agent by its agent_id: the agent that delegated your task, a subagent you started, or a sibling worker. Messages arrive in order; a message to an idle agent starts its next turn.',
  list_agents: 'List the agents you can address, with their agent_id, role and state.',
  cancel_agent:
    'Cancel a subagent and every worker it started. Their work stops at once; the subagent still reports a result, with status cancelled. Returns the agents stopped and the state each was in.',
  close_agent:
    'Close a continuable subagent you no longer need: it stops taking messages and is released. To stop work in progress, use cancel_agent.',
} as const;

/** Error wording per field of the built-in tools (see `FieldHints`). */
export const TOOL_HINTS = {
  Agent: {
    task_name: 'a string of 1-64 lowercase letters, digits, "-" or "_" (for example "fix-tests")',
    message: 'a non-empty string stating the task',
    role: 'a non-empty string naming an agent definition',
    context: '"none", "all", "summary" or a positive integer N (the last N turns)',
    model: 'a non-empty string naming a model',
    effort: '"low", "medium" or "high"',
    attachments: 'a list of { "name": string, "content": string } objects',
    'attachments[].name': 'a non-empty string',
    'attachments[].content': 'a string',
    budget: 'an object with optional non-negative numbers tokens, costUsd, wallMs, steps, spawns',
  },
  send_message: { agent_id: agentIdHint, message: 'a non-empty string' },
  list_agents: {},
  cancel_agent: { agent_id: agentIdHint },
  close_agent: { agent_id: agentIdHint },
} as const satisfies Record<string, FieldHints>;
