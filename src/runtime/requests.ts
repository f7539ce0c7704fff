/**
 * The model requests an agent sends, built from its machine's sample input: the one it sends
 * now, and the one that produced its latest reply (what its subagents' prefixes are measured against).
 */
import { sampleInputOf } from '../../machines/agent.machine.js';
import type { AgentContext, SampleInput } from '../../machines/agent.types.js';
import { EntryView } from '../dialogue/entry-seq.js';
import type { EntrySeq } from '../dialogue/types.js';
import type { ModelRequest } from '../request/types.js';

/** The request an agent sends with `messages` (its effective dialogue) under its head, model and settings. */
export function requestOf(input: SampleInput, messages: EntrySeq): ModelRequest {
  return Object.freeze({
    system: input.system,
    messages,
    model: input.model,
    effort: input.effort,
    ...(input.output ? { output: input.output } : {}),
  });
}

/**
 * The request that produced an agent's latest reply, rebuilt from its dialogue (undefined
 * before its first reply). For an agent whose requests this process did not see (a resumed
 * one); it scans the entries after that reply, so the runtime prefers the request it kept.
 */
export function lastRequestOf(context: AgentContext): ModelRequest | undefined {
  const effective = context.dialogue.effective();
  for (let i = effective.length - 1; i >= 0; i--) {
    if (effective.at(i)?.kind !== 'assistant') continue;
    return requestOf(sampleInputOf(context), EntryView.from(effective).slice(0, i));
  }
  return undefined;
}
