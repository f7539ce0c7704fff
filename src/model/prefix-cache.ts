/**
 * A simulated provider prompt cache, so scripted runs report the cache reads that forked
 * subagents are designed to earn (a child request whose leading bytes match the parent's does
 * not prefill the shared span again; docs/architecture.md, "Spawning").
 *
 * Simplifications, on purpose:
 * - Granularity. Providers cache whole blocks (messages, content blocks, tool definitions)
 *   up to a few explicit breakpoints, with a minimum cacheable length and a time to live.
 *   By default (`granularity: 'frame'`) a hit is rounded down to a frame boundary of the
 *   canonical serialization (`serializeRequest`: one line per system prompt, tool, message,
 *   and the final model frame), which stands in for blocks: a request that differs inside a
 *   message reuses nothing of that message, and unrelated requests share nothing even though
 *   their framing bytes agree. `granularity: 'byte'` reports the exact longest common byte
 *   prefix instead. No minimum length, no breakpoints, no expiry: the best case a provider
 *   could reach, which is what tests about request-prefix identity need.
 * - Tokens are estimated as 4 UTF-8 bytes each.
 * - Every request recorded counts as written; a provider only writes at breakpoints.
 *
 * Data structure: per model, a trie over fixed-size chunks of the serialization. Chunk
 * boundaries depend only on the text before them, so requests with a common prefix share the
 * trie nodes of every whole chunk of it.
 * - record: O(L) for a request of L characters; memory grows with distinct chunks only.
 * - lookup: O(L) to walk the whole matching chunks, plus O(k·C) at the node where the request
 *   diverges (k = children of that node, C = chunk size) to find the best partial chunk.
 * The result is the exact longest common prefix with any request recorded before, unlike a
 * "compare with the last N requests" window, which misses the older parents of late forks.
 */
import type { ModelRequest } from '../request/types.js';
import { serializeRequest, sharedPrefixBytes } from '../request/serialize.js';

/** Estimated tokens of `bytes` bytes of input: 4 bytes a token, rounded up. */
export function bytesToTokens(bytes: number): number {
  return Math.ceil(bytes / 4);
}

/** What one request would cost against the cache. */
export interface PrefixUsage {
  /** Estimated tokens of the whole request. */
  readonly inputTokens: number;
  /** Tokens of the longest prefix seen before (floor of bytes/4; all of them on a full hit). */
  readonly cacheReadTokens: number;
  /** The rest of the request, which the provider prefills and caches. */
  readonly cacheWriteTokens: number;
  /** UTF-8 bytes of the serialized request. */
  readonly totalBytes: number;
  /** UTF-8 bytes of its longest previously seen prefix, at the cache's granularity. */
  readonly prefixBytes: number;
}

/** Options of {@link PrefixCache}. */
export interface PrefixCacheOptions {
  /** `frame` (default): hits end at a frame (line) boundary, like provider blocks. `byte`: exact. */
  readonly granularity?: 'frame' | 'byte';
  /** Trie chunk size in UTF-16 code units (default 128). Smaller: more nodes, cheaper divergence. */
  readonly chunkSize?: number;
}

interface TrieNode {
  /** UTF-16 code units from the start of the request to the end of this node's chunk. */
  readonly chars: number;
  /** The same span in UTF-8 bytes. */
  readonly bytes: number;
  readonly children: Map<string, TrieNode>;
}

/** A match: the common prefix in code units and in UTF-8 bytes. */
interface Match {
  readonly chars: number;
  readonly bytes: number;
}

const newNode = (chars: number, bytes: number): TrieNode => ({ chars, bytes, children: new Map() });

/** Splits at fixed code-unit offsets, never between the halves of a surrogate pair. */
function* chunks(text: string, size: number): Generator<string> {
  let start = 0;
  while (start < text.length) {
    let end = Math.min(start + size, text.length);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end++;
    yield text.slice(start, end);
    start = end;
  }
}

function commonCodeUnits(a: string, b: string): number {
  const limit = Math.min(a.length, b.length);
  let i = 0;
  while (i < limit && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/** Remembers requests per model and measures how much of a new one was seen before. */
export class PrefixCache {
  readonly #chunkSize: number;
  readonly #granularity: 'frame' | 'byte';
  readonly #roots = new Map<string, TrieNode>();
  #recorded = 0;

  constructor(options: PrefixCacheOptions = {}) {
    const size = options.chunkSize ?? 128;
    if (!Number.isInteger(size) || size < 1) throw new RangeError(`PrefixCache: chunkSize must be a positive integer, got ${size}`);
    this.#chunkSize = size;
    this.#granularity = options.granularity ?? 'frame';
  }

  /** Number of requests recorded (repeats included). */
  get size(): number {
    return this.#recorded;
  }

  /** The longest common prefix of `serialized` with any request recorded for `model`. */
  #match(model: string, serialized: string): Match {
    let node = this.#roots.get(model);
    if (node === undefined) return { chars: 0, bytes: 0 };
    for (const chunk of chunks(serialized, this.#chunkSize)) {
      const child: TrieNode | undefined = node.children.get(chunk);
      if (child === undefined) {
        let best: Match = { chars: 0, bytes: 0 };
        for (const key of node.children.keys()) {
          const bytes = sharedPrefixBytes(chunk, key);
          if (bytes > best.bytes) best = { chars: commonCodeUnits(chunk, key), bytes };
        }
        return { chars: node.chars + best.chars, bytes: node.bytes + best.bytes };
      }
      node = child;
    }
    return { chars: node.chars, bytes: node.bytes };
  }

  /**
   * UTF-8 bytes of the longest prefix of `serialized` shared with a request recorded for
   * `model`, rounded down to a frame boundary under `frame` granularity.
   */
  longestPrefixBytes(model: string, serialized: string): number {
    const match = this.#match(model, serialized);
    if (this.#granularity === 'byte' || match.chars === serialized.length || match.chars === 0) return match.bytes;
    // Round down to just after the last complete frame ('\n' is one byte and one code unit).
    const boundary = serialized.lastIndexOf('\n', match.chars - 1) + 1;
    return Buffer.byteLength(serialized.slice(0, boundary), 'utf8');
  }

  /** Records `serialized` as seen by `model`'s cache. */
  record(model: string, serialized: string): void {
    let node: TrieNode | undefined = this.#roots.get(model);
    if (node === undefined) {
      node = newNode(0, 0);
      this.#roots.set(model, node);
    }
    for (const chunk of chunks(serialized, this.#chunkSize)) {
      let child: TrieNode | undefined = node.children.get(chunk);
      if (child === undefined) {
        child = newNode(node.chars + chunk.length, node.bytes + Buffer.byteLength(chunk, 'utf8'));
        node.children.set(chunk, child);
      }
      node = child;
    }
    this.#recorded++;
  }

  /** Measures `serialized` against what `model` has seen, without recording it. */
  measure(model: string, serialized: string): PrefixUsage {
    const totalBytes = Buffer.byteLength(serialized, 'utf8');
    const prefixBytes = this.longestPrefixBytes(model, serialized);
    const inputTokens = bytesToTokens(totalBytes);
    // A full hit reads every token; otherwise the partial last token is not cached.
    const cacheReadTokens = prefixBytes === totalBytes ? inputTokens : Math.floor(prefixBytes / 4);
    return { inputTokens, cacheReadTokens, cacheWriteTokens: inputTokens - cacheReadTokens, totalBytes, prefixBytes };
  }

  /** Measures `request` (serialized canonically) against its model's cache, then records it. */
  observe(request: ModelRequest): PrefixUsage {
    const serialized = serializeRequest(request);
    const usage = this.measure(request.model, serialized);
    this.record(request.model, serialized);
    return usage;
  }

  /** Forgets everything (a provider's cache expiring). */
  clear(): void {
    this.#roots.clear();
    this.#recorded = 0;
  }
}
