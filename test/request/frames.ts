/**
 * Prefix figures computed straight from the serialized bytes, independently of
 * `measurePrefixReuse`: split both requests into their frames (one per line) and add up the
 * UTF-8 bytes of the leading frames they have in common.
 */
import type { ModelRequest } from '../../src/request/types.js';
import { serializeRequest } from '../../src/request/serialize.js';

const framesOf = (request: ModelRequest): string[] => serializeRequest(request).split(/(?<=\n)/);
const bytes = (text: string): number => Buffer.byteLength(text, 'utf8');

/** UTF-8 bytes of the whole frames `a` and `b` begin with alike. */
export function sharedFrameBytes(a: ModelRequest, b: ModelRequest): number {
  const fa = framesOf(a);
  const fb = framesOf(b);
  let total = 0;
  for (let i = 0; i < Math.min(fa.length, fb.length) && fa[i] === fb[i]; i++) total += bytes(fa[i]!);
  return total;
}

/** UTF-8 bytes of the whole request. */
export const requestBytes = (request: ModelRequest): number => bytes(serializeRequest(request));

/** UTF-8 bytes of the head (system and tool frames) and the first `messages` message frames. */
export function leadingBytes(request: ModelRequest, messages: number): number {
  const frames = framesOf(request);
  const head = 1 + request.system.tools.length;
  return frames.slice(0, head + messages).reduce((n, f) => n + bytes(f), 0);
}
