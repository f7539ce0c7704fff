/**
 * System configurations (request heads) of a runtime's agents, built from presets.
 *
 * Every agent runs under a preset; the tools are registered for every agent alike, so a
 * subagent that keeps its parent's preset gets the parent's configuration object itself:
 * byte-identical by construction. Only a tool filter (a role's allow or deny list) makes a
 * different head, and equal inputs share one frozen object, so each head is serialized once.
 */
import { AGENT_TOOL } from '../policy/agent-entries.js';
import { effectiveToolNames } from '../policy/tool-filter.js';
import { PresetError, resolvePreset, type Preset, type PresetCatalog, type PresetDefinition } from '../request/preset.js';
import { SEND_MESSAGE_TOOL } from '../request/tool-names.js';
import { createToolRegistry } from '../request/registry.js';
import { agentToolSchema, FIND_ROLES_TOOL } from '../request/role-catalog.js';
import { BUILTIN_TOOL_SCHEMAS } from '../request/tools.js';
import { buildSystemConfiguration, type ToolRegistry } from '../request/system.js';
import { BUILTIN_TOOL_NAMES } from '../request/tool-names.js';
import type { SystemConfiguration } from '../request/types.js';
import type { PermissionLayer } from '../policy/tool-permissions.js';
import type { RuntimeTool } from './types.js';
import type { Lifetime } from '../../machines/agent.types.js';

/**
 * The root's system prompt when the host gives neither presets nor a prompt. The sentences
 * about delegating and messaging are {@link DEFAULT_TOOL_GUIDANCE}, added only for agents
 * that have those tools.
 */
export const DEFAULT_SYSTEM_PROMPT = 'You are an agent.';

/** Guidance the default preset gives per built-in tool (see `PresetDefinition.toolGuidance`). */
export const DEFAULT_TOOL_GUIDANCE: Readonly<Record<string, string>> = Object.freeze({
  Agent: 'You can delegate work to subagents with the Agent tool.',
  send_message: 'You can talk to other agents with send_message.',
});

/**
 * The lifetime the shipped default preset gives forks (`all` and N-turn subagents): they
 * take follow-ups through `send_message`, each one reusing the prefix the fork already paid
 * for. A host gets one-shot forks with `defaults: { lifetime: 'one-shot' }`, a role's or the
 * spawn policy's `lifetime`, or its own presets.
 */
export const DEFAULT_FORK_LIFETIME: Lifetime = 'continuable';

/** The preset used when the host defines none. */
export const DEFAULT_PRESET = 'default';

/** Builds and memoizes request heads. */
export class Heads {
  private readonly registry: ToolRegistry;
  private readonly presets: PresetCatalog;
  private readonly rootPreset: Preset;
  private readonly presetByHead = new WeakMap<SystemConfiguration, Preset>();
  private readonly base: SystemConfiguration;
  private readonly roleSearch: boolean;
  /** Whether a tool declares a permission matcher (host tools may; built-ins do not). */
  readonly hasMatcher: (name: string) => boolean;

  constructor(options: {
    readonly systemPrompt?: string;
    readonly tools?: readonly RuntimeTool[];
    readonly presets?: PresetCatalog;
    readonly preset?: string;
    /** The role catalog for the `Agent` tool's description, fixed for the runtime's life. */
    readonly roleCatalog?: string;
    /** The runtime's default lifetime: the shipped preset binds forks to it when the host set one. */
    readonly defaults?: { readonly lifetime?: Lifetime };
    /**
     * Whether `find_roles` (one of `tools`) searches the role catalog: it then goes with
     * `Agent`, into every preset that lists `Agent` and out of every head that loses it.
     */
    readonly roleSearch?: boolean;
    /** Whether the session has budgets: the `Agent` tool then offers `budget`. */
    readonly budgets?: boolean;
  }) {
    this.roleSearch = options.roleSearch === true;
    const agent = agentToolSchema(options.roleCatalog ?? '', options.budgets === true);
    // Agent checks its own patterns at spawn (`Agent(worker)`: the roles it may start).
    const matched = new Set([AGENT_TOOL, ...(options.tools ?? []).filter((t) => t.permission !== undefined).map((t) => t.name)]);
    this.hasMatcher = (name) => matched.has(name);
    this.registry = createToolRegistry(
      options.tools ?? [],
      BUILTIN_TOOL_SCHEMAS.map((schema) => (schema.name === agent.name ? agent : schema)),
    );
    const defaultPreset: PresetDefinition = {
      name: DEFAULT_PRESET,
      systemPrompt: options.systemPrompt ?? DEFAULT_SYSTEM_PROMPT,
      // A host's own prompt is left as written; the default one gets guidance per tool.
      ...(options.systemPrompt === undefined ? { toolGuidance: DEFAULT_TOOL_GUIDANCE } : {}),
      tools: [...BUILTIN_TOOL_NAMES, ...(options.tools ?? []).map((t) => t.name)],
      // Forks are continuable (they keep the parent's cached prefix for follow-ups), unless
      // the host chose a runtime-wide lifetime; one-shot forks are that choice.
      defaults: { forkLifetime: options.defaults?.lifetime ?? DEFAULT_FORK_LIFETIME },
    };
    this.presets = options.presets ?? { [DEFAULT_PRESET]: defaultPreset };
    this.rootPreset = this.withRoleSearch(resolvePreset(options.preset ?? (options.presets ? firstName(options.presets) : DEFAULT_PRESET), this.presets));
    // send_message is registered for every agent of a runtime (forks reply with it and share
    // the parent's head); a preset that leaves it out would break both.
    if (!this.rootPreset.tools.includes(SEND_MESSAGE_TOOL)) {
      throw new PresetError(
        'missing_send_message',
        this.rootPreset.name,
        `Preset ${this.rootPreset.name} leaves out ${SEND_MESSAGE_TOOL}, which every agent of a runtime has; to keep an agent from messaging, filter the tool out with a role or the spawn policy`,
      );
    }
    this.base = this.build(this.rootPreset);
  }

  /** The root's head. */
  root(): SystemConfiguration {
    return this.base;
  }

  /** The preset a head was built from. */
  presetOf(head: SystemConfiguration): Preset | undefined {
    return this.presetByHead.get(head);
  }

  /**
   * A subagent's head: the parent's preset and tools, narrowed by each new layer of tool
   * lists in turn (the role's, the host's spawn policy, the role's permission mode). Names
   * match case-insensitively, so Claude Code's `Read, Grep` lists work; an entry with a
   * pattern keeps its tool only when the tool declares a matcher (the pattern is then checked
   * per call). Without new layers the subagent gets the parent's head object itself.
   */
  forChild(input: { readonly parent: SystemConfiguration; readonly layers: readonly PermissionLayer[] }): SystemConfiguration {
    const lists = input.layers.filter((l) => l.allow !== undefined || (l.deny !== undefined && l.deny.length > 0));
    if (lists.length === 0) return input.parent;
    const preset = this.presetOf(input.parent) ?? this.rootPreset;
    // Each list narrows what the previous one left: a later layer can only take tools away.
    let tools: readonly string[] = this.presetOf(input.parent) ? input.parent.tools.map((t) => t.name) : preset.tools;
    for (const { allow, deny } of lists) {
      const before = tools;
      tools = effectiveToolNames({ available: tools, hasMatcher: this.hasMatcher, ...(allow ? { allow } : {}), ...(deny ? { deny } : {}) }).tools;
      if (this.roleSearch) tools = companionOfAgent(before, tools);
    }
    return this.build(preset, tools);
  }

  /**
   * Takes in a head restored from a journal: it keeps governing its agent (and the agent's
   * future subagents) exactly as journaled, even if the host's presets changed since.
   */
  adopt(head: SystemConfiguration): void {
    if (this.presetByHead.has(head)) return;
    try {
      this.presetByHead.set(head, resolvePreset(head.preset, this.presets));
    } catch {
      // A preset the host no longer defines: the head stands alone (subagents keep it whole).
    }
  }

  /** The preset with `find_roles` right after `Agent`, when the catalog needs the search and the preset lacks it. */
  private withRoleSearch(preset: Preset): Preset {
    if (!this.roleSearch || preset.tools.includes(FIND_ROLES_TOOL)) return preset;
    const at = preset.tools.indexOf('Agent');
    if (at < 0) return preset;
    return Object.freeze({ ...preset, tools: Object.freeze([...preset.tools.slice(0, at + 1), FIND_ROLES_TOOL, ...preset.tools.slice(at + 1)]) });
  }

  private build(preset: Preset, allow?: readonly string[]): SystemConfiguration {
    const head = buildSystemConfiguration({ preset, registry: this.registry, ...(allow ? { filter: { allow } } : {}) });
    this.presetByHead.set(head, preset);
    return head;
  }
}

/**
 * `find_roles` is part of `Agent`: kept when a list keeps `Agent` (even if the list does not
 * name it), dropped when it drops `Agent`, so an agent that cannot delegate is not sent the
 * catalog's search either.
 */
function companionOfAgent(before: readonly string[], after: readonly string[]): readonly string[] {
  const keep = after.includes('Agent');
  return before.filter((name) => (name === FIND_ROLES_TOOL ? keep : after.includes(name)));
}

function firstName(presets: PresetCatalog): string {
  const names = presets instanceof Map ? [...presets.keys()] : Object.keys(presets);
  if (names.length === 0) throw new TypeError('presets: define at least one preset');
  return names[0]!;
}
