import { describe, expect, it } from 'vitest';
import type { AccessCapability, ParentGrants } from '../../src/policy/capabilities.js';
import {
  CAPABILITY_LABELS,
  CAPABILITY_TAGS,
  COMMON_TOOL_CAPABILITIES,
  createCapabilityCatalog,
  requiredConfirmations,
} from '../../src/policy/capabilities.js';

const catalog = createCapabilityCatalog({
  tools: { ...COMMON_TOOL_CAPABILITIES, fetch_and_run: ['network', 'shell', 'shell'], load_extensions: ['extension_inheritance'] },
  models: { haiku: 1, sonnet: 2, opus: 3 },
});
const grants = (capabilities: AccessCapability[] = [], maxCostTier = 2): ParentGrants => ({ capabilities: new Set(capabilities), maxCostTier });

describe('createCapabilityCatalog', () => {
  it('builds lookups and drops repeated tags', () => {
    expect(catalog.tools.get('fetch_and_run')).toEqual(['network', 'shell']);
    expect(catalog.models.get('opus')).toBe(3);
    expect(createCapabilityCatalog({})).toEqual({ tools: new Map(), models: new Map() });
  });

  it('rejects unknown tags, cost tags on tools and bad tiers', () => {
    const bad = (input: unknown): (() => unknown) => () => createCapabilityCatalog(input as Parameters<typeof createCapabilityCatalog>[0]);
    expect(bad({ tools: { bash: ['shel'] } })).toThrow(/^invalid capability catalog: .*tools\.bash/s);
    expect(bad({ tools: { bash: ['cost_tier'] } })).toThrow(TypeError);
    expect(bad({ models: { opus: -1 } })).toThrow(/models\.opus/);
    expect(bad({ models: { opus: Number.POSITIVE_INFINITY } })).toThrow(TypeError);
    expect(bad({ tool: {} })).toThrow(TypeError);
  });
});

describe('requiredConfirmations', () => {
  it('needs nothing for read-only tools and the parent’s own model', () => {
    expect(requiredConfirmations({ parentGrants: grants(), childTools: ['read', 'grep', 'Glob', 'send_message'], catalog })).toEqual([]);
  });

  it('asks for shell and write, naming the tools, in tag order', () => {
    const required = requiredConfirmations({ parentGrants: grants(), childTools: ['Bash', 'Write', 'Edit', 'Read'], catalog });
    expect(required).toEqual([
      { capability: 'write', subjects: ['Write', 'Edit'], reason: 'tools "Write", "Edit" grant write' },
      { capability: 'shell', subjects: ['Bash'], reason: 'tool "Bash" grants shell' },
    ]);
    expect(Object.isFrozen(required[0])).toBe(true);
  });

  it('matches tool names case-insensitively and through argument specifiers', () => {
    expect(requiredConfirmations({ parentGrants: grants(), childTools: ['bash'], catalog })).toEqual([
      { capability: 'shell', subjects: ['bash'], reason: 'tool "bash" grants shell' },
    ]);
    expect(requiredConfirmations({ parentGrants: grants(), childTools: ['Bash(git diff:*)'], catalog })[0]?.reason).toBe(
      'tool "Bash(git diff:*)" grants shell',
    );
  });

  it('asks only for what the parent does not already hold', () => {
    const input = { childTools: ['bash', 'write', 'fetch_and_run', 'bash'], catalog };
    expect(requiredConfirmations({ ...input, parentGrants: grants(['shell', 'write']) })).toEqual([
      { capability: 'network', subjects: ['fetch_and_run'], reason: 'tool "fetch_and_run" grants network' },
    ]);
    expect(requiredConfirmations({ ...input, parentGrants: grants(['shell', 'write', 'network']) })).toEqual([]);
  });

  it('asks for external directories unless the parent has them', () => {
    const input = { childTools: [], externalDirectories: ['/data', '/srv/x', '/data'], catalog };
    expect(requiredConfirmations({ ...input, parentGrants: grants() })).toEqual([
      { capability: 'external_directory', subjects: ['/data', '/srv/x'], reason: 'access to external directories "/data", "/srv/x"' },
    ]);
    expect(requiredConfirmations({ ...input, externalDirectories: ['/data'], parentGrants: grants() })[0]?.reason).toBe(
      'access to external directory "/data"',
    );
    expect(requiredConfirmations({ ...input, parentGrants: grants(['external_directory']) })).toEqual([]);
  });

  it('asks for extension inheritance from the flag and from tools, merging reasons', () => {
    const required = requiredConfirmations({ parentGrants: grants(), childTools: ['load_extensions'], inheritsExtensions: true, catalog });
    expect(required).toEqual([
      {
        capability: 'extension_inheritance',
        subjects: ['load_extensions', 'project extensions'],
        reason: "tool \"load_extensions\" grants extension_inheritance; the subagent would load the project's extensions",
      },
    ]);
    expect(requiredConfirmations({ parentGrants: grants(['extension_inheritance']), childTools: [], inheritsExtensions: true, catalog })).toEqual([]);
    expect(requiredConfirmations({ parentGrants: grants(), childTools: [], inheritsExtensions: false, catalog })).toEqual([]);
  });

  it('asks for a costlier model, and for a model of unknown cost', () => {
    expect(requiredConfirmations({ parentGrants: grants([], 2), childTools: [], childModel: 'opus', catalog })).toEqual([
      { capability: 'cost_tier', subjects: ['opus'], reason: 'model "opus" has cost tier 3, above the granted maximum 2' },
    ]);
    expect(requiredConfirmations({ parentGrants: grants([], 2), childTools: [], childModel: 'sonnet', catalog })).toEqual([]);
    expect(requiredConfirmations({ parentGrants: grants([], 2), childTools: [], childModel: 'haiku', catalog })).toEqual([]);
    expect(requiredConfirmations({ parentGrants: grants([], Infinity), childTools: [], childModel: 'opus', catalog })).toEqual([]);
    expect(requiredConfirmations({ parentGrants: grants([], Infinity), childTools: [], childModel: 'gpt-9', catalog })).toEqual([
      { capability: 'cost_tier', subjects: ['gpt-9'], reason: 'model "gpt-9" has no cost tier in the catalog, so its cost is unknown' },
    ]);
  });

  it('lists everything at once in CAPABILITY_TAGS order', () => {
    const required = requiredConfirmations({
      parentGrants: grants([], 1),
      childTools: ['webfetch', 'bash', 'edit'],
      childModel: 'opus',
      externalDirectories: ['/x'],
      inheritsExtensions: true,
      bypassPermissions: 'operator',
      catalog,
    });
    expect(required.map((entry) => entry.capability)).toEqual([...CAPABILITY_TAGS]);
    expect(required.at(-1)).toEqual({ capability: 'bypass_permissions', subjects: ['operator'], reason: 'role "operator" runs with permissionMode bypassPermissions' });
  });

  it('has a label for every tag', () => {
    expect(Object.keys(CAPABILITY_LABELS).sort()).toEqual([...CAPABILITY_TAGS].sort());
  });
});
