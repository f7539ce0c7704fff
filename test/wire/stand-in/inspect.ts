/**
 * Reading a recorded request whatever its API, so a responder can tell which agent asks and
 * what its task is.
 */
import type { RecordedRequest } from './types.js';

type Json = Readonly<Record<string, unknown>>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** The text of a content value: a string, or the `text` of each text-like block, joined. */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  return list(content)
    .filter(isObject)
    .filter((block) => block['type'] === 'text' || block['type'] === 'input_text')
    .map((block) => String(block['text']))
    .join('\n');
}

/** The messages (Anthropic, Chat) or input items (Responses) of a request. */
const messagesOf = (request: RecordedRequest): Json[] => list(request.body[request.api === 'openai-responses' ? 'input' : 'messages']).filter(isObject);

/**
 * The text of each user-role message of a request, in order (tool results left out): what the
 * person, the delegating agent or the runtime said to the agent.
 *
 * @example
 * ```ts
 * standIn.respondWith((request) => (userTexts(request).at(-1)?.includes('review') ? { text: 'LGTM' } : { text: 'ok' }));
 * ```
 */
export function userTexts(request: RecordedRequest): string[] {
  return messagesOf(request)
    .filter((message) => message['role'] === 'user')
    .map((message) => textOf(message['content']))
    .filter((text) => text !== '');
}

/** The system prompt of a request: Anthropic's `system`, or the system or developer messages of OpenAI's APIs. */
export function systemText(request: RecordedRequest): string {
  if (request.api === 'anthropic-messages') return textOf(request.body['system']);
  const parts = messagesOf(request)
    .filter((message) => message['role'] === 'system' || message['role'] === 'developer')
    .map((message) => textOf(message['content']));
  const instructions = request.body['instructions'];
  return [...(typeof instructions === 'string' ? [instructions] : []), ...parts].join('\n');
}
