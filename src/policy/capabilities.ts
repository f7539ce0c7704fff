/**
 * Risky capabilities and which of them a spawn would newly grant.
 *
 * Confirmation is reserved for risky capabilities (write or shell tools, network, external
 * directories, inheriting project extensions, a costlier model), per
 * docs/architecture.md ("Spawning"). A fork's context is not a capability: copying the parent's
 * dialogue never asks the user, so there is deliberately no tag for it.
 */
import { z } from 'zod';
import { toolNameMatches } from './tool-name.js';

/** Every capability tag, in the order confirmations list them. */
export const CAPABILITY_TAGS = ['write', 'shell', 'network', 'external_directory', 'extension_inheritance', 'cost_tier', 'bypass_permissions'] as const;

/** A risky capability a subagent may be given. */
export type CapabilityTag = (typeof CAPABILITY_TAGS)[number];

/**
 * The capabilities that are granted or not (every tag but `cost_tier`, which is a level:
 * models carry a numeric tier and grants carry a maximum, and `bypass_permissions`, which a
 * role's permission mode asks for, never a tool).
 */
export type AccessCapability = Exclude<CapabilityTag, 'cost_tier' | 'bypass_permissions'>;

/** Short human labels for host UIs, in "the subagent could …" form. */
export const CAPABILITY_LABELS: Readonly<Record<CapabilityTag, string>> = Object.freeze({
  write: 'write files',
  shell: 'run shell commands',
  network: 'access the network',
  external_directory: 'access directories outside the workspace',
  extension_inheritance: 'inherit project extensions',
  cost_tier: 'use a costlier model',
  bypass_permissions: 'run without permission checks (permissionMode bypassPermissions)',
});

/** What the host knows about tools and models, for computing confirmations. */
export interface CapabilityCatalog {
  /** Tool name → the capabilities calling it grants. Tools not listed grant none. */
  readonly tools: ReadonlyMap<string, readonly AccessCapability[]>;
  /** Model id or alias → cost tier (higher costs more). */
  readonly models: ReadonlyMap<string, number>;
}

/** The plain-object form hosts write (or load from configuration). */
export interface CapabilityCatalogInput {
  readonly tools?: Readonly<Record<string, readonly AccessCapability[]>>;
  readonly models?: Readonly<Record<string, number>>;
}

/**
 * Common tool names of Claude Code and Pi and what they grant, for hosts to spread into
 * their catalog. Lookups ignore case, so `Bash` and `bash` are both covered.
 */
export const COMMON_TOOL_CAPABILITIES: Readonly<Record<string, readonly AccessCapability[]>> = Object.freeze({
  write: ['write'],
  edit: ['write'],
  multiedit: ['write'],
  notebookedit: ['write'],
  bash: ['shell'],
  webfetch: ['network'],
  websearch: ['network'],
});

const accessCapability = z.enum(['write', 'shell', 'network', 'external_directory', 'extension_inheritance']);
const catalogInput = z.strictObject({
  tools: z.record(z.string().min(1), z.array(accessCapability)).optional(),
  models: z.record(z.string().min(1), z.number().finite().nonnegative()).optional(),
});

/**
 * Builds a catalog from plain objects, validating them (hosts often read these from
 * configuration files, where a typo must not silently disable a confirmation).
 *
 * @throws TypeError naming each invalid entry.
 */
export function createCapabilityCatalog(input: CapabilityCatalogInput): CapabilityCatalog {
  const parsed = catalogInput.safeParse(input);
  if (!parsed.success) throw new TypeError(`invalid capability catalog: ${z.prettifyError(parsed.error)}`);
  const tools = Object.entries(parsed.data.tools ?? {}).map(([name, tags]): [string, readonly AccessCapability[]] => [name, Object.freeze([...new Set(tags)])]);
  return Object.freeze({
    tools: new Map(tools),
    models: new Map(Object.entries(parsed.data.models ?? {})),
  });
}

/**
 * The capabilities calling `tool` grants. Every catalog entry the name matches counts
 * (ignoring case and argument specifiers): when in doubt, ask. Used for a subagent's tools
 * and for what its parent already holds, so both sides match names alike.
 */
export function toolCapabilities(catalog: CapabilityCatalog, tool: string): ReadonlySet<AccessCapability> {
  const granted = new Set<AccessCapability>();
  for (const [name, capabilities] of catalog.tools) {
    if (toolNameMatches(tool, name)) for (const capability of capabilities) granted.add(capability);
  }
  return granted;
}

/** What the parent may already do; anything within it needs no confirmation. */
export interface ParentGrants {
  readonly capabilities: ReadonlySet<AccessCapability>;
  /** The highest model cost tier already granted; `Infinity` grants every model. */
  readonly maxCostTier: number;
}

/** One capability the subagent would newly get, with what grants it and why. */
export interface RequiredCapability {
  readonly capability: CapabilityTag;
  /** What brings it: tool names, directories, or the model id. */
  readonly subjects: readonly string[];
  /** A sentence for people, e.g. `tool "bash" grants shell`. */
  readonly reason: string;
}

/** Everything `requiredConfirmations` looks at. */
export interface ConfirmationInput {
  readonly parentGrants: ParentGrants;
  /** The subagent's effective tool names (after its allow and deny lists). */
  readonly childTools: readonly string[];
  /** The subagent's model when it differs from the parent's; absent means the parent's. */
  readonly childModel?: string;
  /** Directories outside the workspace the subagent would be given. */
  readonly externalDirectories?: readonly string[];
  /** Whether the subagent would load the project's extensions. */
  readonly inheritsExtensions?: boolean;
  /** The role that runs with `permissionMode: bypassPermissions`; always needs confirmation. */
  readonly bypassPermissions?: string;
  readonly catalog: CapabilityCatalog;
}

/**
 * The risky capabilities the subagent would get that the parent does not already hold, one
 * entry per capability in `CAPABILITY_TAGS` order. Empty means no confirmation is needed.
 *
 * A model missing from the catalog needs confirmation: its cost is unknown, and asking is
 * the safe side of not knowing. A tool missing from the catalog grants nothing, so hosts
 * must list every risky tool they offer (see `COMMON_TOOL_CAPABILITIES`).
 */
export function requiredConfirmations(input: ConfirmationInput): RequiredCapability[] {
  const { parentGrants, catalog } = input;
  const found = new Map<CapabilityTag, { subjects: string[]; reasons: string[] }>();
  const add = (capability: CapabilityTag, subjects: readonly string[], reason: string): void => {
    const entry = found.get(capability) ?? { subjects: [], reasons: [] };
    entry.subjects.push(...subjects);
    entry.reasons.push(reason);
    found.set(capability, entry);
  };

  const toolsBy = new Map<AccessCapability, string[]>();
  for (const tool of new Set(input.childTools)) {
    for (const capability of toolCapabilities(catalog, tool)) {
      if (parentGrants.capabilities.has(capability)) continue;
      toolsBy.set(capability, [...(toolsBy.get(capability) ?? []), tool]);
    }
  }
  for (const [capability, tools] of toolsBy) {
    const quoted = tools.map((tool) => `"${tool}"`).join(', ');
    add(capability, tools, tools.length === 1 ? `tool ${quoted} grants ${capability}` : `tools ${quoted} grant ${capability}`);
  }

  const directories = [...new Set(input.externalDirectories ?? [])];
  if (directories.length > 0 && !parentGrants.capabilities.has('external_directory')) {
    const quoted = directories.map((directory) => `"${directory}"`).join(', ');
    add('external_directory', directories, `access to external ${directories.length === 1 ? 'directory' : 'directories'} ${quoted}`);
  }

  if (input.inheritsExtensions === true && !parentGrants.capabilities.has('extension_inheritance')) {
    add('extension_inheritance', ['project extensions'], "the subagent would load the project's extensions");
  }

  if (input.childModel !== undefined) {
    const model = input.childModel;
    const tier = catalog.models.get(model);
    if (tier === undefined) {
      add('cost_tier', [model], `model "${model}" has no cost tier in the catalog, so its cost is unknown`);
    } else if (tier > parentGrants.maxCostTier) {
      add('cost_tier', [model], `model "${model}" has cost tier ${tier}, above the granted maximum ${parentGrants.maxCostTier}`);
    }
  }

  if (input.bypassPermissions !== undefined) {
    add('bypass_permissions', [input.bypassPermissions], `role "${input.bypassPermissions}" runs with permissionMode bypassPermissions`);
  }

  return CAPABILITY_TAGS.flatMap((capability) => {
    const entry = found.get(capability);
    return entry === undefined
      ? []
      : [Object.freeze({ capability, subjects: Object.freeze(entry.subjects), reason: entry.reasons.join('; ') })];
  });
}
