/**
 * Canonical request serialization: the bytes a request's prefix is measured in.
 *
 * Framing: a request is a sequence of frames, each one canonical JSON object followed by
 * `\n`. Canonical JSON never contains a raw line break, so every line is exactly one frame and
 * any prefix that ends at a line boundary is itself a well-formed list of frames. Every frame
 * carries a `frame` discriminator (`system`, `tool`, `message`, `model`), so a system prompt
 * can never be mistaken for a message, nor one message for two.
 *
 * Order: `system`, then one `tool` frame per tool in order (the head), then one `message`
 * frame per entry in order, then a single `model` frame LAST. Providers reuse a cached prefix
 * only while the leading bytes match; the model and effort are request parameters rather than
 * content, and putting them first would make two requests that differ only in effort (or a
 * fork and the request it forked from) diverge at byte 0, hiding that their head and inherited
 * messages are identical. Whether a model change defeats reuse is reported separately
 * (see `comparePrefix`).
 *
 * Purity: a frame is a function of content only. Entry ids and the preset's name are not
 * serialized (two equal entries with different ids are the same bytes to a model); tool-call
 * ids are, because later messages reference them.
 *
 * Memoization: configurations, tool schemas and entries are frozen and shared (a parent's log,
 * its snapshots and its subagents' dialogues hold the same entry objects), so each frozen
 * object is serialized once and its frame reused from a WeakMap. Objects that are not frozen
 * could still change, so they are serialized every time.
 */
import { hash } from 'node:crypto';
import type { Entry } from '../dialogue/entry.js';
import { canonicalJson, canonicalJsonBytes } from './canonical.js';
import { sharedPrefixBytes } from './prefix-bytes.js';
import type { Effort, JsonObject, ModelRequest, SystemConfiguration, ToolSchema } from './types.js';

export { sharedPrefixBytes } from './prefix-bytes.js';

const headMemo = new WeakMap<SystemConfiguration, string>();
const headHashMemo = new WeakMap<SystemConfiguration, string>();
const toolMemo = new WeakMap<ToolSchema, string>();
const messageMemo = new WeakMap<Entry, string>();

function memoized<K extends object>(memo: WeakMap<K, string>, key: K, compute: (key: K) => string): string {
  const hit = memo.get(key);
  if (hit !== undefined) return hit;
  const value = compute(key);
  if (Object.isFrozen(key)) memo.set(key, value);
  return value;
}

const frame = (value: object): string => `${canonicalJson(value)}\n`;

/** The `system` frame of a system prompt. */
export function serializeSystemPrompt(systemPrompt: string): string {
  return frame({ frame: 'system', text: systemPrompt });
}

/** The `tool` frame of one tool schema (memoized per frozen schema object). */
export function serializeTool(tool: ToolSchema): string {
  return memoized(toolMemo, tool, (t) =>
    frame({ frame: 'tool', name: t.name, description: t.description, inputSchema: t.inputSchema }),
  );
}

/**
 * The head bytes of a configuration: its system prompt frame, then its tool frames in order.
 * Memoized per frozen configuration object, so a configuration shared by a parent and its
 * forks is serialized once.
 */
export function serializeHead(system: SystemConfiguration): string {
  return memoized(headMemo, system, (s) => serializeSystemPrompt(s.systemPrompt) + s.tools.map(serializeTool).join(''));
}

/**
 * Records `head` as the serialized head of `system` (which must be frozen), for a builder
 * that already computed those exact bytes. Internal to the request layer.
 */
export function primeHead(system: SystemConfiguration, head: string): void {
  if (Object.isFrozen(system)) headMemo.set(system, head);
}

/**
 * Stable hex SHA-256 of {@link serializeHead}: a compact key for "same request head"
 * (metadata, journals, logs). Memoized like the head.
 */
export function requestHeadHash(system: SystemConfiguration): string {
  return memoized(headHashMemo, system, (s) => hash('sha256', serializeHead(s), 'hex'));
}

/**
 * The `message` frame of one entry (memoized per frozen entry). Roles: `user`, `assistant`,
 * `tool`. A compaction is shown to the model as its summary in a user-role message, marked
 * `compaction: true`. Empty attachment, tool-call and reasoning lists are left out.
 */
export function serializeMessage(entry: Entry): string {
  return memoized(messageMemo, entry, messageFrame);
}

const messageBytesMemo = new WeakMap<Entry, number>();

/**
 * UTF-8 bytes of {@link serializeMessage}'s frame for `entry`, without building the frame when
 * it was not built yet (a request's size is asked for more often than its text: every result
 * reports its first request's). Memoized per frozen entry.
 */
export function messageBytes(entry: Entry): number {
  const known = messageBytesMemo.get(entry);
  if (known !== undefined) return known;
  const built = messageMemo.get(entry);
  // The frame's trailing newline is one byte.
  const bytes = built !== undefined ? Buffer.byteLength(built, 'utf8') : canonicalJsonBytes(messageObject(entry)) + 1;
  if (Object.isFrozen(entry)) messageBytesMemo.set(entry, bytes);
  return bytes;
}

function messageFrame(entry: Entry): string {
  return frame(messageObject(entry));
}

/** The object a `message` frame is the canonical JSON of. */
function messageObject(entry: Entry): object {
  switch (entry.kind) {
    case 'user':
      return {
        frame: 'message',
        role: 'user',
        origin: entry.origin,
        text: entry.text,
        ...(entry.attachments.length > 0 ? { attachments: entry.attachments } : {}),
      };
    case 'assistant':
      return {
        frame: 'message',
        role: 'assistant',
        text: entry.text,
        ...(entry.toolCalls.length > 0
          ? {
              toolCalls: entry.toolCalls.map((c) =>
                c.providerMetadata === undefined ? { id: c.id, name: c.name, arguments: c.arguments } : { id: c.id, name: c.name, arguments: c.arguments, providerMetadata: c.providerMetadata },
              ),
            }
          : {}),
        // Reasoning is sent back to the provider, so it is part of the request's bytes.
        ...(entry.reasoning !== undefined && entry.reasoning.length > 0 ? { reasoning: entry.reasoning } : {}),
      };
    case 'tool_result':
      return {
        frame: 'message',
        role: 'tool',
        callId: entry.callId,
        toolName: entry.toolName,
        content: entry.content,
        isError: entry.isError,
      };
    case 'compaction':
      return { frame: 'message', role: 'user', compaction: true, text: entry.summary };
    default: {
      const unknown: never = entry;
      throw new TypeError(`Cannot serialize an entry of unknown kind ${JSON.stringify((unknown as { kind?: unknown }).kind)}`);
    }
  }
}

/** The message frames of `entries`, in order. */
export function serializeMessages(entries: Iterable<Entry>): string {
  const parts: string[] = [];
  for (const entry of entries) parts.push(serializeMessage(entry));
  return parts.join('');
}

/**
 * The trailing `model` frame. An absent effort is written as `null`; an output schema only
 * when there is one (it is a request parameter, like the model).
 */
export function serializeModelFrame(model: string, effort: Effort | undefined, output?: JsonObject): string {
  return frame({ frame: 'model', model, effort: effort ?? null, ...(output !== undefined ? { output } : {}) });
}

/** The whole request: head, then messages in order, then the model frame. */
export function serializeRequest(req: ModelRequest): string {
  return serializeHead(req.system) + serializeMessages(req.messages) + serializeModelFrame(req.model, req.effort, req.output);
}

/**
 * Bytes of a request before its model frame (head and messages): the part another request
 * can share. A fork's request begins with these bytes of its parent's request.
 */
export function requestPrefixBytes(req: ModelRequest): number {
  return Buffer.byteLength(serializeHead(req.system), 'utf8') + Buffer.byteLength(serializeMessages(req.messages), 'utf8');
}

/** UTF-8 length of the common prefix of two requests' serializations. */
export function sharedRequestPrefix(a: ModelRequest, b: ModelRequest): number {
  return sharedPrefixBytes(serializeRequest(a), serializeRequest(b));
}
