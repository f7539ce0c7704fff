/**
 * Request → AI SDK language-model (V4) prompt and tools. Types only from `@ai-sdk/provider`:
 * the library must not load it at run time (it is an optional peer).
 */
import type {
  JSONSchema7,
  LanguageModelV4FunctionTool,
  LanguageModelV4Message,
  LanguageModelV4Prompt,
  LanguageModelV4TextPart,
  LanguageModelV4ToolResultPart,
  SharedV4ProviderOptions,
} from '@ai-sdk/provider';
import type { Entry, JsonValue, UserEntry, UserOrigin } from '../dialogue/entry.js';
import type { ModelRequest, ToolSchema } from '../request/types.js';
import { escapeForgedTags } from './forged-tags.js';

/**
 * How a compaction summary is framed for the model: as earlier context, not as a request, in
 * the envelope of text no person wrote (`kind="compaction" from="runtime"`). The summarizer
 * read text agents and tools wrote, so the summary may repeat a forged tag; inside the
 * envelope it is escaped like any other agent's text.
 *
 * @example
 * ```ts
 * compactionText('We set up the repo.');
 * // '<agent_input kind="compaction" from="runtime">\nSummary of the earlier conversation:\nWe set up the repo.\n</agent_input>'
 * ```
 */
export function compactionText(summary: string): string {
  return envelope('compaction', 'runtime', `Summary of the earlier conversation:\n${summary}`);
}

/**
 * How an attachment is rendered: a named, delimited text block after the entry's text. The
 * attachments of an entry no person wrote (a task's, from the delegating model) have forged
 * envelope tags escaped, as the entry's text has.
 */
export function attachmentText(name: string, content: string, origin?: UserOrigin): string {
  const body = origin === undefined || origin.kind === 'person' ? content : escapeForgedTags(content, PROVENANCE_TAG);
  return `<attachment name=${JSON.stringify(name)}>\n${body}\n</attachment>`;
}

/**
 * An Anthropic-style cache breakpoint, fresh on each call (providers own what they are given).
 * The Anthropic provider reads it from message-level provider options; other providers ignore
 * the `anthropic` key.
 */
export function cacheHint(): SharedV4ProviderOptions {
  return { anthropic: { cacheControl: { type: 'ephemeral' } } };
}

/**
 * Tool inputs are JSON objects. Arguments that are not (the raw string kept from malformed
 * model output) are replayed as `{}`, as the AI SDK does for invalid inputs: providers reject
 * a non-object input, and the tool error result that followed already tells the model why.
 */
function replayInput(args: JsonValue): JsonValue {
  return args !== null && typeof args === 'object' && !Array.isArray(args) ? args : {};
}

/** Options of {@link toV4Tools}. */
export interface V4ToolOptions {
  /**
   * Anthropic's fine-grained tool streaming, set on every tool alike. `@ai-sdk/anthropic` adds
   * `eager_input_streaming: true` to each tool of a streamed request only, unless the tool says
   * otherwise; an explicit value makes streamed and generated requests send the same tool
   * definitions, so an agent that streams and one that does not share their head. Left
   * unset, the tools carry no Anthropic option.
   */
  readonly eagerInputStreaming?: boolean;
}

/** V4 tool definitions, in the request's order (the order is part of the cached prefix). */
export function toV4Tools(tools: readonly ToolSchema[], options: V4ToolOptions = {}): LanguageModelV4FunctionTool[] {
  const eager = options.eagerInputStreaming;
  return tools.map((tool) => ({
    type: 'function',
    name: tool.name,
    description: tool.description,
    // Our schemas are read-only JSON objects; the SDK only reads them.
    inputSchema: tool.inputSchema as unknown as JSONSchema7,
    ...(eager !== undefined ? { providerOptions: { anthropic: { eagerInputStreaming: eager } } } : {}),
  }));
}

/** The element that marks who sent a user-role entry that no person wrote. */
export const PROVENANCE_TAG = 'agent_input';

/** The provenance element around `text`, whose forged tags are escaped. */
function envelope(kind: string, from: string, text: string): string {
  return `<${PROVENANCE_TAG} kind=${JSON.stringify(kind)} from=${JSON.stringify(from)}>\n${escapeForgedTags(text, PROVENANCE_TAG)}\n</${PROVENANCE_TAG}>`;
}

/**
 * A user-role entry as the provider sees it. A person's text is sent as is. Everything else
 * (a task from the delegating agent, another agent's message, a runtime notice, generated
 * background) is wrapped in an `agent_input` element whose attributes say what it is and who
 * sent it; inside, every `<` that could open or close that element is written `&lt;` (with
 * spaces, any letter case, invisible characters, full-width and look-alike forms: see
 * `escapeForgedTags`), so the content cannot end the element early or forge one of its own.
 * The wrapping is a pure function of the entry, so a fork's inherited prefix keeps its bytes.
 *
 * @example
 * ```ts
 * provenanceText({ kind: 'message', from: '/root/a' }, 'hi');
 * // '<agent_input kind="message" from="/root/a">\nhi\n</agent_input>'
 * ```
 */
export function provenanceText(origin: UserOrigin, text: string): string {
  if (origin.kind === 'person') return text;
  return envelope(origin.kind, origin.from, text);
}

function userParts(entry: UserEntry): LanguageModelV4TextPart[] {
  return [
    { type: 'text', text: provenanceText(entry.origin, entry.text) },
    ...entry.attachments.map((a): LanguageModelV4TextPart => ({ type: 'text', text: attachmentText(a.name, a.content, entry.origin) })),
  ];
}

function toolResultPart(entry: Extract<Entry, { kind: 'tool_result' }>): LanguageModelV4ToolResultPart {
  return {
    type: 'tool-result',
    toolCallId: entry.callId,
    toolName: entry.toolName,
    output: entry.isError ? { type: 'error-text', value: entry.content } : { type: 'text', value: entry.content },
  };
}

/**
 * Converts one request to a V4 prompt:
 * - the system prompt becomes the system message (left out when empty);
 * - a user entry becomes a user message: its text (marked with its sender by
 *   {@link provenanceText} unless a person wrote it), then one text part per attachment;
 * - an assistant entry becomes its reasoning parts (their provider metadata sent back as
 *   provider options), then text (when non-empty) and tool-call parts; an assistant entry
 *   with neither is left out, because providers reject empty content;
 * - consecutive tool results become one tool message, as the AI SDK itself groups the results
 *   of one step;
 * - a compaction becomes a user message framed by {@link compactionText}.
 *
 * With `cacheHints`, the system message and the last message carry {@link cacheHint}. The
 * request does not say where a forked subagent's inherited prefix ends, but marking the last
 * message of every request caches the whole prefix at each step, so the next request of the
 * agent, and a fork's request that extends it, can read it (Anthropic looks back from a
 * breakpoint for the longest cached prefix). Anthropic looks back at most 20 blocks, so two
 * more breakpoints go on grid points below the last block (see `placeGridBreakpoints`): four
 * in all, Anthropic's limit.
 */
export function toV4Prompt(request: ModelRequest, options: { readonly cacheHints?: boolean } = {}): LanguageModelV4Prompt {
  const prompt: LanguageModelV4Message[] = [];
  if (request.system.systemPrompt !== '') prompt.push({ role: 'system', content: request.system.systemPrompt });

  for (const entry of request.messages) {
    switch (entry.kind) {
      case 'user':
        prompt.push({ role: 'user', content: userParts(entry) });
        break;
      case 'compaction':
        prompt.push({ role: 'user', content: [{ type: 'text', text: compactionText(entry.summary) }] });
        break;
      case 'assistant': {
        const content: Extract<LanguageModelV4Message, { role: 'assistant' }>['content'] = [];
        // Reasoning goes first, with its metadata back as provider options, as the AI SDK
        // sends it (Anthropic checks each thinking block's signature).
        for (const part of entry.reasoning ?? []) {
          content.push({ type: 'reasoning', text: part.text, ...(part.providerMetadata ? { providerOptions: part.providerMetadata as SharedV4ProviderOptions } : {}) });
        }
        if (entry.text !== '') content.push({ type: 'text', text: entry.text });
        for (const call of entry.toolCalls) {
          content.push({
            type: 'tool-call',
            toolCallId: call.id,
            toolName: call.name,
            input: replayInput(call.arguments),
            ...(call.providerMetadata ? { providerOptions: call.providerMetadata as SharedV4ProviderOptions } : {}),
          });
        }
        if (content.length > 0) prompt.push({ role: 'assistant', content });
        break;
      }
      case 'tool_result': {
        const last = prompt.at(-1);
        if (last?.role === 'tool') last.content.push(toolResultPart(entry));
        else prompt.push({ role: 'tool', content: [toolResultPart(entry)] });
        break;
      }
    }
  }

  if (options.cacheHints === true) {
    const system = prompt[0]?.role === 'system' ? prompt[0] : undefined;
    if (system !== undefined) system.providerOptions = cacheHint();
    const last = prompt.at(-1);
    if (last !== undefined) last.providerOptions = cacheHint();
    placeGridBreakpoints(prompt);
  }
  return prompt;
}

/**
 * Blocks between two grid breakpoints. Anthropic reads a cached prefix only at a breakpoint or
 * at most 20 blocks before one; a grid finer than that always has a point within reach after
 * any position an earlier request wrote.
 */
export const BREAKPOINT_STRIDE = 16;

type V4Part = Exclude<LanguageModelV4Message, { role: 'system' }>['content'][number];

/**
 * Marks the two grid points (every {@link BREAKPOINT_STRIDE}th message block) nearest below
 * the last block, so that with the system prompt and the last message a request has
 * Anthropic's four breakpoints. A step that adds 20 blocks or more (10 parallel calls and
 * their results; 8 closed forks: calls, results, notices) leaves the last block out of reach
 * of the previous request's last breakpoint, but a grid point the new request marks lies
 * within 16 blocks after it and reads it. Points depend only on the blocks before them, so
 * every request over the same prefix marks the same ones (a fork's first request included).
 * A point on a thinking block (which cannot carry a breakpoint) moves to the nearest earlier
 * block that can.
 */
function placeGridBreakpoints(prompt: LanguageModelV4Message[]): void {
  const parts: { message: Exclude<LanguageModelV4Message, { role: 'system' }>; index: number; part: V4Part }[] = [];
  for (const message of prompt) {
    if (message.role === 'system') continue;
    message.content.forEach((part, index) => parts.push({ message, index, part }));
  }
  const lastBlock = parts.length - 1;
  // The largest grid point below the last block, then the one before it.
  const top = Math.floor(lastBlock / BREAKPOINT_STRIDE) * BREAKPOINT_STRIDE - 1;
  for (let g = top; g >= 0 && g > top - 2 * BREAKPOINT_STRIDE; g -= BREAKPOINT_STRIDE) {
    let at = g;
    while (at >= 0 && parts[at]?.part.type === 'reasoning') at--;
    const slot = parts[at];
    if (slot === undefined) continue;
    (slot.message.content as V4Part[])[slot.index] = withCacheHint(slot.part);
  }
}

/** A copy of `part` that also carries {@link cacheHint} (its own provider options are kept). */
function withCacheHint(part: V4Part): V4Part {
  const own = part.providerOptions;
  return { ...part, providerOptions: { ...own, anthropic: { ...own?.['anthropic'], ...cacheHint()['anthropic'] } } } as V4Part;
}
