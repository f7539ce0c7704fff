/**
 * Dialogue entries: the provider-neutral, frozen values an agent's log is made of.
 *
 * Entries carry no position: the same entry object is shared by a parent's log, the
 * snapshots taken from it and the dialogues of the subagents seeded with them.
 */
import { nanoid } from 'nanoid';
import { freezeBuilt } from './freeze.js';

/** A JSON value, as tool-call arguments and tool results carry them. */
export type JsonValue = string | number | boolean | null | readonly JsonValue[] | { readonly [key: string]: JsonValue };

/** Where a user-role entry came from. `from` is the sending agent's path. */
export type UserOrigin =
  | { readonly kind: 'person' }
  | { readonly kind: 'task'; readonly from: string }
  | { readonly kind: 'notice'; readonly from: string }
  | { readonly kind: 'message'; readonly from: string }
  | { readonly kind: 'background'; readonly from: string };

/** A named piece of text the spawner attached explicitly (a file, a snippet). */
export interface Attachment {
  readonly name: string;
  readonly content: string;
}

/**
 * A user-role entry. `opensTurn` is true when the entry starts a new turn (the agent was
 * idle or new); false when it was injected into a turn already in progress.
 */
export interface UserEntry {
  readonly kind: 'user';
  readonly id: string;
  readonly text: string;
  readonly origin: UserOrigin;
  readonly opensTurn: boolean;
  readonly attachments: readonly Attachment[];
}

/** Opaque provider data a reply part carries and the provider wants back, by provider. */
export type ProviderMetadata = { readonly [provider: string]: { readonly [key: string]: JsonValue } };

/**
 * One tool call requested by the model. `id` is unique within the dialogue. `providerMetadata`
 * is kept when the provider attached some (Gemini's thought signature on a function call) and
 * sent back with the call.
 */
export interface ToolCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: JsonValue;
  readonly providerMetadata?: ProviderMetadata;
  /**
   * Set when the runtime refused the call's arguments as the reply arrived (not plain JSON,
   * nested too deep, too large): why, naming where. The call never runs; it is answered with
   * an `invalid_arguments` error, and `arguments` holds `{}` in place of what was refused.
   */
  readonly argumentsError?: string;
}

/**
 * One piece of a model's reasoning, kept so it can be sent back: Anthropic requires a turn's
 * thinking blocks, with their signatures, in later requests during tool use. The provider
 * metadata is opaque and passed back as it came (`{ anthropic: { signature } }`, say).
 */
export interface ReasoningPart {
  /** The reasoning text (empty for redacted reasoning, whose content is in the metadata). */
  readonly text: string;
  readonly providerMetadata?: ProviderMetadata;
}

/**
 * A model reply: text and zero or more tool calls. A reply without calls ends its turn.
 * `reasoning` is present only when the model returned reasoning parts.
 */
export interface AssistantEntry {
  readonly kind: 'assistant';
  readonly id: string;
  readonly text: string;
  readonly toolCalls: readonly ToolCall[];
  readonly reasoning?: readonly ReasoningPart[];
}

/** The result of one tool call of the preceding assistant entry. */
export interface ToolResultEntry {
  readonly kind: 'tool_result';
  readonly id: string;
  readonly callId: string;
  readonly toolName: string;
  readonly content: string;
  readonly isError: boolean;
}

/**
 * An anchored summary. It replaces every entry before its anchor: the entry whose id is
 * `anchorId` (a user entry) and everything after it stay visible; `anchorId: null` means
 * it replaces everything written before the compaction itself.
 */
export interface CompactionEntry {
  readonly kind: 'compaction';
  readonly id: string;
  readonly summary: string;
  readonly anchorId: string | null;
}

/** Any entry of a dialogue. */
export type Entry = UserEntry | AssistantEntry | ToolResultEntry | CompactionEntry;

const newId = (prefix: string): string => `${prefix}_${nanoid(12)}`;

/**
 * The empty attachment list, shared by every entry and framing without attachments (frozen;
 * an empty list per entry would cost a small array each, and most entries have none).
 */
export const NO_ATTACHMENTS: readonly Attachment[] = Object.freeze([]);

/** The empty tool-call list, shared by every assistant entry that calls no tool (frozen). */
const NO_TOOL_CALLS: readonly ToolCall[] = Object.freeze([]);

/** Creates a frozen user entry. */
export function userEntry(input: {
  text: string;
  origin?: UserOrigin;
  opensTurn?: boolean;
  attachments?: readonly Attachment[];
  id?: string;
}): UserEntry {
  return freezeBuilt({
    kind: 'user',
    id: input.id ?? newId('u'),
    text: input.text,
    origin: input.origin ?? { kind: 'person' },
    opensTurn: input.opensTurn ?? true,
    attachments: input.attachments !== undefined && input.attachments.length > 0 ? [...input.attachments] : NO_ATTACHMENTS,
  });
}

/** Creates a frozen assistant entry. Empty reasoning is left out, so such an entry equals one made without it. */
export function assistantEntry(input: { text?: string; toolCalls?: readonly ToolCall[]; reasoning?: readonly ReasoningPart[]; id?: string }): AssistantEntry {
  const reasoning = (input.reasoning ?? []).map((r) => (r.providerMetadata === undefined ? { text: r.text } : { text: r.text, providerMetadata: r.providerMetadata }));
  return freezeBuilt({
    kind: 'assistant',
    id: input.id ?? newId('a'),
    text: input.text ?? '',
    toolCalls: input.toolCalls === undefined || input.toolCalls.length === 0 ? NO_TOOL_CALLS : input.toolCalls.map((c) => ({
      id: c.id,
      name: c.name,
      arguments: c.arguments,
      ...(c.providerMetadata === undefined ? {} : { providerMetadata: c.providerMetadata }),
      ...(c.argumentsError === undefined ? {} : { argumentsError: c.argumentsError }),
    })),
    ...(reasoning.length > 0 ? { reasoning } : {}),
  });
}

/** Creates a frozen tool-result entry answering `callId`. */
export function toolResultEntry(input: {
  callId: string;
  toolName: string;
  content: string;
  isError?: boolean;
  id?: string;
}): ToolResultEntry {
  return freezeBuilt({
    kind: 'tool_result',
    id: input.id ?? newId('r'),
    callId: input.callId,
    toolName: input.toolName,
    content: input.content,
    isError: input.isError ?? false,
  });
}

/** Creates a frozen compaction entry. */
export function compactionEntry(input: { summary: string; anchorId: string | null; id?: string }): CompactionEntry {
  return freezeBuilt({ kind: 'compaction', id: input.id ?? newId('c'), summary: input.summary, anchorId: input.anchorId });
}
