/**
 * Presets: named system configurations (system prompt, ordered tool names, defaults) that may
 * extend one another.
 *
 * A fork inherits its parent's preset, which is what keeps its request head identical to the
 * parent's; a role may name another preset, which makes its head differ (and the prefix
 * metadata says so). Resolution is memoized per catalog so the same name always yields the
 * same frozen preset, and from it the same frozen system configuration.
 */
import type { Lifetime } from './lifetime.js';
import type { Effort } from './types.js';

/** Defaults a preset gives the agents that run under it. */
export interface PresetDefaults {
  readonly forkLifetime?: Lifetime;
  readonly model?: string;
  readonly effort?: Effort;
}

/**
 * A preset as written: every field but the name may be left to the preset it extends.
 * A preset that extends nothing must give `systemPrompt` and `tools`.
 */
export interface PresetDefinition {
  readonly name: string;
  readonly extends?: string;
  readonly systemPrompt?: string;
  /** Tool names, in the order their schemas appear in the request head. */
  readonly tools?: readonly string[];
  /**
   * A sentence per tool, appended to the system prompt only for the tools an agent keeps
   * (in tool order), so a role without `Agent` is not told to delegate. Merged key by key
   * along `extends`.
   */
  readonly toolGuidance?: Readonly<Record<string, string>>;
  readonly defaults?: PresetDefaults;
}

/** A resolved preset: everything inherited along `extends` filled in. Deeply frozen. */
export interface Preset {
  readonly name: string;
  /** The preset it was resolved from, kept for descriptors and diagnostics. */
  readonly extends?: string;
  readonly systemPrompt: string;
  /** Tool names, in order. The order is part of the request head. */
  readonly tools: readonly string[];
  /** Guidance per tool, appended to the system prompt for the tools an agent keeps. */
  readonly toolGuidance?: Readonly<Record<string, string>>;
  readonly defaults?: PresetDefaults;
}

/** Presets by name. Treated as immutable: resolutions are memoized per catalog object. */
export type PresetCatalog = ReadonlyMap<string, PresetDefinition> | Readonly<Record<string, PresetDefinition>>;

/** Why a preset could not be resolved or built. */
export type PresetErrorCode =
  | 'unknown_preset'
  | 'unknown_parent'
  | 'preset_cycle'
  | 'incomplete_preset'
  | 'name_mismatch'
  | 'unknown_tool'
  | 'duplicate_tool'
  | 'missing_send_message';

/** A preset that cannot be resolved or built. `code` says why; `chain` is the `extends` path walked. */
export class PresetError extends Error {
  readonly code: PresetErrorCode;
  /** The preset the error is about. */
  readonly preset: string;
  /** Names along `extends` from the requested preset to where it failed (for cycles, closed). */
  readonly chain: readonly string[];

  constructor(code: PresetErrorCode, preset: string, message: string, chain: readonly string[] = [preset]) {
    super(message);
    this.name = 'PresetError';
    this.code = code;
    this.preset = preset;
    this.chain = Object.freeze([...chain]);
  }
}

const resolved = new WeakMap<object, Map<string, Preset>>();

function lookup(catalog: PresetCatalog, name: string): PresetDefinition | undefined {
  if (catalog instanceof Map) return catalog.get(name);
  const record = catalog as Readonly<Record<string, PresetDefinition>>;
  // hasOwn: a preset named "constructor" must not find Object.prototype's.
  return Object.hasOwn(record, name) ? record[name] : undefined;
}

/**
 * Resolves `name` along its `extends` chain: each field a preset gives overrides the one it
 * inherits; `defaults` merge field by field. Returns the same frozen object for the same
 * catalog and name. Throws a {@link PresetError}: `unknown_preset`, `unknown_parent`,
 * `preset_cycle` (with the closed chain), `name_mismatch` (a definition filed under another
 * name) or `incomplete_preset` (no system prompt or tools anywhere along the chain).
 */
export function resolvePreset(name: string, presets: PresetCatalog): Preset {
  let memo = resolved.get(presets);
  if (memo === undefined) resolved.set(presets, (memo = new Map()));
  const hit = memo.get(name);
  if (hit !== undefined) return hit;
  const preset = resolveUncached(name, presets);
  memo.set(name, preset);
  return preset;
}

function resolveUncached(name: string, presets: PresetCatalog): Preset {
  const chain: PresetDefinition[] = [];
  const names: string[] = [];
  let current: string | undefined = name;
  while (current !== undefined) {
    if (names.includes(current)) {
      const cycle = [...names, current];
      throw new PresetError('preset_cycle', name, `Preset ${name} extends itself: ${cycle.join(' -> ')}`, cycle);
    }
    const definition = lookup(presets, current);
    if (definition === undefined) {
      if (names.length === 0) throw new PresetError('unknown_preset', name, `Unknown preset ${name}`);
      const child = names[names.length - 1] ?? name;
      throw new PresetError('unknown_parent', child, `Preset ${child} extends unknown preset ${current}`, [...names, current]);
    }
    if (definition.name !== current) {
      throw new PresetError('name_mismatch', current, `Preset filed as ${current} is named ${definition.name}`, [...names, current]);
    }
    names.push(current);
    chain.push(definition);
    current = definition.extends;
  }
  return merge(name, chain, names);
}

function merge(name: string, chain: readonly PresetDefinition[], names: readonly string[]): Preset {
  let systemPrompt: string | undefined;
  let tools: readonly string[] | undefined;
  const defaults: { forkLifetime?: Lifetime; model?: string; effort?: Effort } = {};
  const toolGuidance: Record<string, string> = {};
  // Root first, so each preset overrides what it extends.
  for (const definition of [...chain].reverse()) {
    systemPrompt = definition.systemPrompt ?? systemPrompt;
    tools = definition.tools ?? tools;
    for (const [tool, text] of Object.entries(definition.toolGuidance ?? {})) toolGuidance[tool] = text;
    const d = definition.defaults;
    if (d?.forkLifetime !== undefined) defaults.forkLifetime = d.forkLifetime;
    if (d?.model !== undefined) defaults.model = d.model;
    if (d?.effort !== undefined) defaults.effort = d.effort;
  }
  if (systemPrompt === undefined || tools === undefined) {
    const missing = systemPrompt === undefined ? 'systemPrompt' : 'tools';
    throw new PresetError('incomplete_preset', name, `Preset ${name} has no ${missing}, and no preset it extends gives one`, names);
  }
  const own = chain[0];
  return Object.freeze({
    name,
    ...(own?.extends !== undefined ? { extends: own.extends } : {}),
    systemPrompt,
    tools: Object.freeze([...tools]),
    ...(Object.keys(toolGuidance).length > 0 ? { toolGuidance: Object.freeze(toolGuidance) } : {}),
    ...(Object.keys(defaults).length > 0 ? { defaults: Object.freeze(defaults) } : {}),
  });
}
