/**
 * A Pi session branch as this library's dialogue, for snapshots of the Pi session's own
 * conversation (the parent of every subagent the extension starts).
 *
 * The branch goes through Pi's own session-context builder (compaction summary first, then
 * the kept tail) and Pi's message conversion, so each entry stands for exactly the message Pi
 * sends its provider. That message is remembered beside the entry, and the Pi model adapter
 * sends it back unchanged: a fork's inherited messages are then byte-identical to its parent's.
 */
import { getCurrentSystemMessage, getSystemMessageText, type JsonValue as PiJsonValue, type Message, type Tool } from '@earendil-works/pi-ai';
import { buildSessionContext, convertToLlm, type SessionEntry } from '@earendil-works/pi-coding-agent';
import { Dialogue } from '../dialogue/dialogue.js';
import { assistantEntry, compactionEntry, toolResultEntry, userEntry, type Entry, type JsonValue, type UserOrigin } from '../dialogue/entry.js';

/** The provider message each imported entry stands for. */
const originals = new WeakMap<Entry, Message>();

/** The Pi message an entry was imported from, if it was. */
export function piMessageOf(entry: Entry): Message | undefined {
  return originals.get(entry);
}

/** The custom message type the extension delivers subagent notices and messages as. */
export const NOTICE_TYPE = 'subagent-actors';

function textOf(content: Message['content']): string {
  if (typeof content === 'string') return content;
  return content
    .map((block) => (block.type === 'text' ? block.text : block.type === 'image' ? `[image ${block.mimeType}]` : ''))
    .filter((text) => text !== '')
    .join('\n');
}

function remember<E extends Entry>(entry: E, message: Message): E {
  originals.set(entry, message);
  return entry;
}

function entryFor(message: Exclude<Message, { role: 'system' }>, origin: UserOrigin): Entry {
  switch (message.role) {
    case 'user':
      return remember(userEntry({ text: textOf(message.content), origin, opensTurn: true }), message);
    case 'assistant': {
      const text = message.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('');
      const toolCalls = message.content.flatMap((b) => (b.type === 'toolCall' ? [{ id: b.id, name: b.name, arguments: b.arguments satisfies PiJsonValue as JsonValue }] : []));
      return remember(assistantEntry({ text, toolCalls }), message);
    }
    case 'toolResult':
      return remember(
        toolResultEntry({ callId: message.toolCallId, toolName: message.toolName, content: textOf(message.content), isError: message.isError }),
        message,
      );
  }
}

/**
 * Builds the dialogue of a Pi branch (`ctx.sessionManager.getBranch()`). A compaction summary
 * becomes the dialogue's anchored compaction; custom messages the extension delivered keep
 * their origin as notices; everything else is a person's or the model's entry. Entries Pi's
 * context builder leaves out (labels, model changes, custom data) are not part of it.
 *
 * @example
 * ```ts
 * const dialogue = piBranchDialogue(ctx.sessionManager.getBranch());
 * ```
 */
export function piBranchDialogue(branch: readonly SessionEntry[]): Dialogue {
  const context = buildSessionContext([...branch]);
  const entries: Entry[] = [];
  for (const message of context.messages) {
    const [llm] = convertToLlm([message]);
    // System messages carry Pi's prompt and tool declarations: the request head, not the dialogue.
    if (llm === undefined || llm.role === 'system') continue;
    if (message.role === 'compactionSummary' && entries.length === 0) {
      entries.push(remember(compactionEntry({ summary: message.summary, anchorId: null }), llm));
      continue;
    }
    const origin: UserOrigin = message.role === 'custom' && message.customType === NOTICE_TYPE ? { kind: 'notice', from: '/root' } : { kind: 'person' };
    entries.push(entryFor(llm, origin));
  }
  return Dialogue.of(entries);
}

/** The request head Pi sends: its system prompt and tool declarations, as providers receive them. */
export interface PiSessionHead {
  /** The system prompt text (the system messages replayed and rendered, as providers render it). */
  readonly systemPrompt: string;
  /** The tool declarations, in the order Pi declared them. */
  readonly tools: readonly Tool[];
}

/**
 * The head of the Pi session's requests on a branch: Pi 1.x keeps the system prompt and the
 * tool declarations in the transcript's system messages, and a provider receives their replay
 * (the prompt rendered as one text, the current tools). Undefined before the session's first
 * request, when the branch has no system message yet.
 *
 * @example
 * ```ts
 * const head = piSessionHead(ctx.sessionManager.getBranch());
 * ```
 */
export function piSessionHead(branch: readonly SessionEntry[]): PiSessionHead | undefined {
  const system = getCurrentSystemMessage(convertToLlm(buildSessionContext([...branch]).messages));
  if (system === undefined) return undefined;
  return { systemPrompt: getSystemMessageText(system), tools: system.toolsAdded ?? [] };
}
