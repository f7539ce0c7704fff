/**
 * The shapes of model requests: system configuration (the frozen request head) and messages.
 */
import type { JsonValue } from '../dialogue/entry.js';
import type { EntrySeq } from '../dialogue/types.js';

/** A JSON object, as JSON Schema documents are. */
export type JsonObject = { readonly [key: string]: JsonValue };

/** A model-facing tool: its name, description and JSON Schema for its arguments. */
export interface ToolSchema {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonObject;
}

/** Reasoning effort a spawn may ask for. */
export type Effort = 'low' | 'medium' | 'high';

/**
 * An agent's frozen request head: the system prompt and its ordered tool schemas.
 * It is not part of the dialogue.
 */
export interface SystemConfiguration {
  /** The preset this configuration was built from. */
  readonly preset: string;
  readonly systemPrompt: string;
  readonly tools: readonly ToolSchema[];
  /**
   * Tools of the preset that a tool filter removed, in preset order; absent when none were.
   * Not part of the head's bytes (the removed schemas simply are not there), but kept so
   * prefix metadata can name a filter as the reason a head differs, and so a restored
   * descriptor's filter keeps governing both schemas and guidance.
   */
  readonly removedTools?: readonly string[];
}

/** One model request: head, then messages, then model and effort. */
export interface ModelRequest {
  readonly system: SystemConfiguration;
  readonly messages: EntrySeq;
  readonly model: string;
  readonly effort: Effort | undefined;
  /**
   * The JSON Schema the final answer must match, when the agent has structured output.
   * Adapters with a native structured mode pass it on (the AI SDK adapter as `responseFormat` when built with `nativeOutput: true`).
   */
  readonly output?: JsonObject | undefined;
}

/**
 * Restricts a set of tools: `allow` keeps only the listed tools, `deny` then removes the listed
 * ones. The one filter type of the library: a role's `tools`/`disallowedTools` (policy's
 * `effectiveToolNames`) and a preset's head (`buildSystemConfiguration`) both take it. Names
 * the preset does not have are ignored, so a stored filter keeps working after the preset
 * dropped a tool.
 *
 * @example
 * ```ts
 * const filter: ToolFilter = { allow: ['read', 'grep'], deny: ['Bash(rm *)'] };
 * ```
 */
export interface ToolFilter {
  /** Only these tools; absent means every available tool, `[]` means none. */
  readonly allow?: readonly string[];
  /** Never these tools, applied after `allow`. */
  readonly deny?: readonly string[];
}
