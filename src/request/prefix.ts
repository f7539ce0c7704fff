/**
 * Request assembly and prefix comparison between a parent and a subagent.
 *
 * A subagent's request can reuse the provider's cached prefix of its parent's request only
 * when the head bytes match and the same model serves both.
 * `comparePrefix` answers that from the configurations alone, before any request is sent,
 * and names every reason it fails so the subagent's metadata can explain it.
 */
import type { EntrySeq } from '../dialogue/types.js';
import { serializeHead, serializeTool } from './serialize.js';
import type { Effort, ModelRequest, SystemConfiguration } from './types.js';

/** Why a subagent's request prefix is not shared with its parent's. */
export type PrefixMismatch = 'different_preset' | 'different_tools' | 'different_system_prompt' | 'different_model' | 'tool_filter';

/** The outcome of {@link comparePrefix}. */
export type PrefixComparison =
  | { readonly shared: true }
  | { readonly shared: false; readonly reasons: readonly PrefixMismatch[] };

/** One side of a comparison: what decides the request head and which cache serves it. */
export interface PrefixSide {
  readonly system: SystemConfiguration;
  readonly model: string;
}

const SHARED: PrefixComparison = Object.freeze({ shared: true });

/**
 * Whether `child`'s requests can share their head with `parent`'s. Shared means byte-equal
 * heads and the same model; effort does not matter (it is serialized after the messages).
 * Two presets with equal prompts and tools produce equal heads, so they count as shared:
 * the bytes are what a provider compares.
 *
 * Reasons, in this order, each at most once: `different_preset` (heads differ and the preset
 * names differ too), `different_system_prompt`, `different_tools` (the tool schemas differ
 * beyond what filters explain), `tool_filter` (the sides filter different tools out, and
 * their tools differ), `different_model`.
 */
export function comparePrefix(parent: PrefixSide, child: PrefixSide): PrefixComparison {
  const p = parent.system;
  const c = child.system;
  const sameHead = p === c || serializeHead(p) === serializeHead(c);
  if (sameHead && parent.model === child.model) return SHARED;
  const reasons: PrefixMismatch[] = [];
  if (!sameHead) {
    if (p.preset !== c.preset) reasons.push('different_preset');
    if (p.systemPrompt !== c.systemPrompt) reasons.push('different_system_prompt');
    const pRemoved = p.removedTools ?? [];
    const cRemoved = c.removedTools ?? [];
    const filtered = new Set([...pRemoved, ...cRemoved]);
    // Tools a filter removed on either side are the filter's doing; compare the rest.
    if (toolBytes(p, filtered) !== toolBytes(c, filtered)) reasons.push('different_tools');
    const filterDiffers = pRemoved.join('\n') !== cRemoved.join('\n');
    if (filterDiffers && toolBytes(p, new Set()) !== toolBytes(c, new Set())) reasons.push('tool_filter');
  }
  if (parent.model !== child.model) reasons.push('different_model');
  return Object.freeze({ shared: false, reasons: Object.freeze(reasons) });
}

function toolBytes(system: SystemConfiguration, skip: ReadonlySet<string>): string {
  return system.tools
    .filter((tool) => !skip.has(tool.name))
    .map(serializeTool)
    .join('');
}

/** Input of {@link assembleRequest}. */
export interface RequestInput {
  readonly system: SystemConfiguration;
  readonly messages: EntrySeq;
  readonly model: string;
  readonly effort?: Effort | undefined;
}

/**
 * Assembles a frozen model request. The messages are taken as given (an effective dialogue
 * or a subagent's seeded one); nothing is copied, so assembling costs the same for any size.
 */
export function assembleRequest(input: RequestInput): ModelRequest {
  return Object.freeze({ system: input.system, messages: input.messages, model: input.model, effort: input.effort });
}
