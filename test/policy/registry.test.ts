import { describe, expect, it } from 'vitest';
import type { AgentDefinition } from '../../src/policy/definition.js';
import { RoleRegistry, UnknownRoleError } from '../../src/policy/registry.js';

const role = (name: string): AgentDefinition => ({
  name,
  description: `the ${name}`,
  instructions: '',
  unknownKeys: [],
  source: { file: `${name}.md`, scope: 'project' },
});

describe('RoleRegistry', () => {
  const map = new Map([['reviewer', role('reviewer')], ['architect', role('architect')], ['tester', role('tester')]]);

  it('finds roles from a loaded map', () => {
    const registry = new RoleRegistry(map);
    expect(registry.getRole('reviewer').name).toBe('reviewer');
    expect(registry.findRole('tester')?.name).toBe('tester');
    expect(registry.findRole('nobody')).toBeUndefined();
    expect(registry.has('architect')).toBe(true);
    expect(registry.names()).toEqual(['architect', 'reviewer', 'tester']);
    expect(registry.list().map((definition) => definition.name)).toEqual(['architect', 'reviewer', 'tester']);
  });

  it('accepts a plain list and is not changed by later edits to the source map', () => {
    const source = new Map(map);
    const registry = new RoleRegistry(source);
    source.delete('reviewer');
    expect(registry.has('reviewer')).toBe(true);
    expect(new RoleRegistry([role('b'), role('a')]).names()).toEqual(['a', 'b']);
  });

  it('throws UnknownRoleError listing the known names sorted', () => {
    const registry = new RoleRegistry(map);
    let caught: unknown;
    try {
      registry.getRole('revewer');
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(UnknownRoleError);
    const error = caught as UnknownRoleError;
    expect(error.message).toBe('unknown role "revewer"; known roles: architect, reviewer, tester');
    expect(error).toMatchObject({ code: 'unknown_role', role: 'revewer', known: ['architect', 'reviewer', 'tester'], name: 'UnknownRoleError' });
  });

  it('says so when no roles are defined', () => {
    expect(() => new RoleRegistry([]).getRole('x')).toThrow('unknown role "x"; no roles are defined');
  });
});
