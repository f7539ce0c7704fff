/**
 * A subagent's prefix reuse measured on the wire: its first request's body against its
 * parent's last one, block by block in the provider's cache order, with the reasons the wire
 * differs from what the library assembled.
 */
import { estimateTokens, type PrefixReuse, type PrefixShortfall } from './prefix-reuse.js';
import { blockBytes, readableBytes, sharedBlocks, type WireRequest } from './wire-prefix.js';

/** Canonical reasons under which no cache serves the first request, whatever the bytes. */
const NOTHING_SERVED: readonly PrefixShortfall[] = ['different_model', 'no_parent_request'];

/**
 * The {@link PrefixReuse} of a subagent whose first request's body (`childFirst`) and whose
 * parent's last body before it started (`parentLast`, undefined when the parent had sent
 * none its adapter reported) are known. `canonical` is the figure in the library's own
 * bytes; it is kept as `canonical`, and its reasons lead.
 *
 * @example
 * ```ts
 * const reuse = wirePrefixReuse(result.prefix, wireRequestOf(parentBody)!, wireRequestOf(forkBody)!);
 * reuse.sharedBytes === reuse.inheritedBytes; // a plain fork shares all it inherited, on the wire too
 * ```
 */
export function wirePrefixReuse(canonical: PrefixReuse, parentLast: WireRequest | undefined, childFirst: WireRequest): PrefixReuse {
  const served = parentLast !== undefined && parentLast.api === childFirst.api && !canonical.reasons.some((r) => NOTHING_SERVED.includes(r));
  const sharedBytes = served ? blockBytes(childFirst, sharedBlocks(parentLast, childFirst)) : 0;
  const inputBytes = childFirst.totalBytes;
  const inheritedBytes = blockBytes(childFirst, childFirst.blocks.length - childFirst.taskBlocks);
  const readable = served ? readableBytes(childFirst, [parentLast]) : 0;
  const reasons: PrefixShortfall[] = [...canonical.reasons];
  const add = (reason: PrefixShortfall) => {
    if (!reasons.includes(reason)) reasons.push(reason);
  };
  if (parentLast === undefined) add('no_parent_request');
  if (served && sharedBytes < inheritedBytes) {
    const before = reasons.length;
    if (parentLast.eagerToolStreaming !== childFirst.eagerToolStreaming) add('streaming_tool_definition');
    if (parentLast.nativeFormat !== childFirst.nativeFormat) add('native_output_format');
    if (reasons.length === before && canonical.reasons.length === 0) add('wire_differs');
  }
  if (readable < sharedBytes) add('breakpoint_out_of_reach');
  const { wire: _wire, canonical: _canonical, ...own } = canonical;
  return Object.freeze({
    sharedBytes,
    sharedTokens: estimateTokens(sharedBytes),
    sharedRatio: inputBytes === 0 ? 0 : sharedBytes / inputBytes,
    inputBytes,
    inheritedBytes,
    reasons: Object.freeze(reasons),
    wire: Object.freeze({ api: childFirst.api, readableBytes: readable }),
    canonical: Object.freeze(own),
  });
}
