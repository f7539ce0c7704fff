/**
 * System configurations: the frozen request head an agent runs with, built from a preset, a
 * tool registry and an optional tool filter.
 *
 * Building is interned by content: equal inputs return the very same frozen object, however
 * the inputs were obtained (a preset resolved again, a registry or filter rebuilt on cold
 * resume). That keeps one object per distinct head, so its serialization is computed once
 * (serialize.ts memoizes per object) and a fork with its parent's configuration can be told
 * apart from a look-alike by identity alone. Interned objects are held weakly: a head nobody
 * uses any more is collected.
 */
import type { Preset } from './preset.js';
import { PresetError } from './preset.js';
import { primeHead, serializeSystemPrompt, serializeTool } from './serialize.js';
import type { SystemConfiguration, ToolFilter, ToolSchema } from './types.js';

/** Tool schemas by tool name. */
export type ToolRegistry = ReadonlyMap<string, ToolSchema> | Readonly<Record<string, ToolSchema>>;

/** Input of {@link buildSystemConfiguration}. */
export interface SystemConfigurationInput {
  readonly preset: Preset;
  readonly registry: ToolRegistry;
  readonly filter?: ToolFilter;
}

const interned = new Map<string, WeakRef<SystemConfiguration>>();
const collected = new FinalizationRegistry<string>((key) => {
  // Only drop the entry if it still points at a collected object (the key may have been
  // interned again since).
  if (interned.get(key)?.deref() === undefined) interned.delete(key);
});

function schemaFor(registry: ToolRegistry, name: string): ToolSchema | undefined {
  if (registry instanceof Map) return registry.get(name);
  const record = registry as Readonly<Record<string, ToolSchema>>;
  return Object.hasOwn(record, name) ? record[name] : undefined;
}

/**
 * Builds the frozen system configuration of `preset`: its system prompt and the schemas of
 * its tools in the preset's order, minus those the filter removes (listed in `removedTools`,
 * so prefix metadata can say a filter is why a head differs). Equal inputs return the same
 * object. Throws a {@link PresetError} (`unknown_tool`, `duplicate_tool`) when the preset
 * names a tool the registry lacks, or one tool twice.
 */
export function buildSystemConfiguration(input: SystemConfigurationInput): SystemConfiguration {
  const { preset, registry, filter } = input;
  const seen = new Set<string>();
  const tools: ToolSchema[] = [];
  const removed: string[] = [];
  for (const name of preset.tools) {
    if (seen.has(name)) throw new PresetError('duplicate_tool', preset.name, `Preset ${preset.name} lists the tool ${name} twice`);
    seen.add(name);
    const schema = schemaFor(registry, name);
    if (schema === undefined) throw new PresetError('unknown_tool', preset.name, `Preset ${preset.name} uses the unknown tool ${name}`);
    if (passes(filter, name)) tools.push(schema);
    else removed.push(name);
  }
  const systemPrompt = withToolGuidance(preset, tools);
  const head = serializeSystemPrompt(systemPrompt) + tools.map(serializeTool).join('');
  const key = `${JSON.stringify(preset.name)}\n${JSON.stringify(removed)}\n${head}`;
  const existing = interned.get(key)?.deref();
  if (existing !== undefined) return existing;
  const system: SystemConfiguration = Object.freeze({
    preset: preset.name,
    systemPrompt,
    tools: Object.freeze(tools),
    ...(removed.length > 0 ? { removedTools: Object.freeze(removed) } : {}),
  });
  // The head was just computed for the key: hand it to the serializer's memo.
  primeHead(system, head);
  interned.set(key, new WeakRef(system));
  collected.register(system, key);
  return system;
}

/**
 * The preset's system prompt followed by the guidance of each tool the agent keeps, in tool
 * order: guidance goes with its tool, so equal tool sets give equal prompts (a fork keeps its
 * parent's bytes) and a filtered-out tool takes its sentence with it.
 */
function withToolGuidance(preset: Preset, tools: readonly ToolSchema[]): string {
  const guidance = preset.toolGuidance;
  if (guidance === undefined) return preset.systemPrompt;
  const lines = tools.flatMap((tool) => (Object.hasOwn(guidance, tool.name) ? [guidance[tool.name] as string] : []));
  return lines.length === 0 ? preset.systemPrompt : `${preset.systemPrompt}\n\n${lines.join('\n')}`;
}

function passes(filter: ToolFilter | undefined, name: string): boolean {
  if (filter === undefined) return true;
  if (filter.allow !== undefined && !filter.allow.includes(name)) return false;
  return filter.deny === undefined || !filter.deny.includes(name);
}

/**
 * Whether `system` exposes the tool `name`. A filtered-out tool is absent, which is how the
 * wrapper knows to leave out its guidance (no reply guidance without `send_message`).
 */
export function hasTool(system: SystemConfiguration, name: string): boolean {
  return system.tools.some((tool) => tool.name === name);
}
