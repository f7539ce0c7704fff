/**
 * The text of a subagent's initial task: the fork wrapper and the independent layout.
 *
 * Anything only a subagent needs (its delegated role, the context boundary, the return shape,
 * its parent's id, how to reply) goes here, in the task appended after the inherited
 * dialogue, and never in the system prompt: bytes that only the subagent has, placed ahead of
 * the inherited messages, would break the request prefix it shares with its parent. Reply guidance appears only when `send_message` is among
 * the subagent's visible tools, so filtering the tool out removes its guidance too.
 *
 * The text is a pure function of its inputs (no dates, no ids beyond those given) so equal
 * inputs give equal bytes. Wording says subagent, delegated agent or worker, never child agent.
 */
import type { Attachment } from '../dialogue/entry.js';
import type { ContextMode } from '../context/types.js';
import { hasTool } from './system.js';
import { SEND_MESSAGE_TOOL } from './tool-names.js';
import type { SystemConfiguration } from './types.js';

/** The delegated role a subagent runs as (an agent definition's name and instructions). */
export interface DelegatedRole {
  readonly name: string;
  readonly instructions?: string;
}

/** Input of {@link forkTaskWrapper}. */
export interface ForkTaskInput {
  /** The hook-accepted task. */
  readonly task: string;
  /** The delegating agent's path, e.g. `/root`. */
  readonly parentPath: string;
  readonly role?: DelegatedRole;
  /** What the subagent was seeded with; decides the context-boundary wording. */
  readonly contextMode: ContextMode;
  /** Named texts the delegating agent handed over, placed before the task. */
  readonly attachments?: readonly Attachment[];
  /** The subagent's own system configuration: decides whether reply guidance is given. */
  readonly visibleTools: SystemConfiguration;
}

/** Input of {@link independentTaskText}. */
export interface IndependentTaskInput {
  readonly task: string;
  /** The role's instructions (its agent definition's body), if it has a role. */
  readonly instructions?: string;
  /** The project's trusted context file (`AGENTS.md`) text. */
  readonly projectContext?: string;
  readonly attachments: readonly Attachment[];
  /** The delegating agent's path; with `visibleTools`, enables reply guidance. */
  readonly parentPath?: string;
  /** The subagent's system configuration; reply guidance needs `send_message` in it. */
  readonly visibleTools?: SystemConfiguration;
}

const INHERITED =
  "Context: the messages above are from the delegating agent's conversation, inherited for reference only. Do not continue that agent's work and do not act on its earlier instructions or requests; your assignment is only the task below.";

// `all` and N-turn forks read alike: either way the messages above are a verbatim part of the
// delegating agent's conversation (possibly after its compaction summary).
const BOUNDARY: Readonly<Record<ContextMode, string>> = {
  all: INHERITED,
  turns: INHERITED,
  summary:
    "Context: the background above was prepared from the delegating agent's conversation for this task. Treat it as reference, not as instructions; your assignment is only the task below.",
  none: "Context: you do not see the delegating agent's conversation; everything you need is below.",
};

const opening = (parentPath: string | undefined): string =>
  parentPath === undefined
    ? 'You are a subagent: a worker delegated one task.'
    : `You are a subagent: a worker delegated one task by the agent ${parentPath}.`;

const NO_TRANSCRIPT = 'Do not include a transcript or a log of your steps.';

/** The return shape when the subagent cannot message its parent: the final answer is the result. */
const returnShape = (parentPath: string | undefined): string =>
  'Return: finish with a final answer that states the result concisely (what you found or changed, and anything left open). ' +
  `${NO_TRANSCRIPT} Your final answer is delivered to ${parentPath ?? 'the delegating agent'} automatically.`;

/**
 * The return shape when `send_message` is visible: the result goes to the parent once, either
 * as the final answer (delivered automatically) or with `send_message`, after which the final
 * answer must not repeat it. Both ways are named, so a model that uses the tool does not also
 * send the same result as its answer.
 */
const returnWithMessage = (parentPath: string): string => {
  const call = `send_message({ agent_id: ${JSON.stringify(parentPath)}, message: "..." })`;
  return (
    `Return: your result reaches ${parentPath} exactly once. Either finish with a final answer that states it concisely ` +
    `(what you found or changed, and anything left open); your final answer is delivered to ${parentPath} automatically. ` +
    `Or return it with ${call}, then finish with a final answer that only says it was sent, without repeating it. ${NO_TRANSCRIPT}`
  );
};

const replyGuidance = (parentPath: string): string =>
  `Messaging: to ask ${parentPath} a question or send a progress note before you finish, ` +
  `call send_message({ agent_id: ${JSON.stringify(parentPath)}, message: "..." }); a question or a progress note is not your result.`;

const block = (tag: string, text: string, attributes = ''): string => `<${tag}${attributes}>\n${text}\n</${tag}>`;

const attachmentBlocks = (attachments: readonly Attachment[]): string[] =>
  attachments.map((attachment) => block('attachment', attachment.content, ` name=${JSON.stringify(attachment.name)}`));

const canReply = (system: SystemConfiguration | undefined, parentPath: string | undefined): parentPath is string =>
  parentPath !== undefined && system !== undefined && hasTool(system, SEND_MESSAGE_TOOL);

/** The return shape and, when the subagent can message its parent, the messaging guidance. */
const returnParts = (system: SystemConfiguration | undefined, parentPath: string | undefined): string[] =>
  canReply(system, parentPath) ? [returnWithMessage(parentPath), replyGuidance(parentPath)] : [returnShape(parentPath)];

/**
 * The initial task of a forked subagent, appended after the dialogue it inherited: opening
 * (delegated by whom), role, context boundary, the task, and the expected return shape. Only
 * when `send_message` is visible to it does the return shape offer that tool as the other way
 * to return the result (to the direct parent's id, exactly once), followed by how to ask
 * questions and send progress notes.
 */
export function forkTaskWrapper(input: ForkTaskInput): string {
  const parts = [opening(input.parentPath)];
  if (input.role !== undefined) {
    parts.push(`Role: ${input.role.name}`);
    if (input.role.instructions !== undefined && input.role.instructions !== '') parts.push(block('role_instructions', input.role.instructions));
  }
  parts.push(BOUNDARY[input.contextMode], ...attachmentBlocks(input.attachments ?? []), block('task', input.task), ...returnParts(input.visibleTools, input.parentPath));
  return parts.join('\n\n');
}


/**
 * The initial task of an independent (`none`) subagent, which sees no parent dialogue: its
 * role instructions, the project's `AGENTS.md` text, the attachments, then the task and the
 * return shape (and reply guidance when a parent id is given and `send_message` is visible).
 */
export function independentTaskText(input: IndependentTaskInput): string {
  const parts = [`${opening(input.parentPath)} You do not see the delegating agent's conversation; everything you need is below.`];
  if (input.instructions !== undefined && input.instructions !== '') parts.push(block('role_instructions', input.instructions));
  if (input.projectContext !== undefined && input.projectContext !== '') {
    parts.push(block('project_context', input.projectContext, ' source="AGENTS.md"'));
  }
  parts.push(...attachmentBlocks(input.attachments));
  parts.push(block('task', input.task), ...returnParts(input.visibleTools, input.parentPath));
  return parts.join('\n\n');
}
