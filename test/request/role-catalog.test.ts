import { describe, expect, it } from 'vitest';
import { agentToolSchema, DEFAULT_ROLE_CATALOG_LIMITS, roleCatalogText } from '../../src/request/role-catalog.js';
import { BUILTIN_TOOLS } from '../../src/request/tools.js';

const role = (name: string, description = `Does ${name} work.`) => ({ name, description });

describe('roleCatalogText', () => {
  it('is empty without roles', () => {
    expect(roleCatalogText([])).toBe('');
  });

  it('lists each role by name order with its description on one line', () => {
    const text = roleCatalogText([role('zeta'), role('alpha', 'Reads\n  code\tcarefully.'), role('beta.writer')]);
    const lines = text.split('\n');
    expect(lines.slice(1)).toEqual(['- alpha: Reads code carefully.', '- beta.writer: Does beta.writer work.', '- zeta: Does zeta work.']);
    expect(lines[0]).toMatch(/^Roles: /);
  });

  it('gives the same bytes whatever order the roles come in', () => {
    const roles = ['c', 'a', 'b', 'a-1', 'a.2'].map((n) => role(n));
    expect(roleCatalogText([...roles].reverse())).toBe(roleCatalogText(roles));
  });

  it('clips a long description at a whole character, ending with …', () => {
    const long = `${'x'.repeat(10)}😀${'y'.repeat(300)}`;
    const line = roleCatalogText([role('a', long)], { descriptionLength: 12 }).split('\n')[1]!;
    expect(line).toBe(`- a: ${'x'.repeat(10)}😀…`);
    const clipped = roleCatalogText([role('a', long)], { descriptionLength: 11 }).split('\n')[1]!;
    // The emoji would be cut in half; it is dropped whole instead.
    expect(clipped).toBe(`- a: ${'x'.repeat(10)}…`);
  });

  it('describes at most maxDescribed roles, then lists the rest by name', () => {
    const roles = Array.from({ length: 7 }, (_, i) => role(`r${i}`));
    const lines = roleCatalogText(roles, { maxDescribed: 3 }).split('\n');
    expect(lines.slice(1)).toEqual(['- r0: Does r0 work.', '- r1: Does r1 work.', '- r2: Does r2 work.', 'More roles: r3, r4, r5, r6']);
  });

  it('stays within maxChars and counts the roles it could not list', () => {
    const roles = Array.from({ length: 400 }, (_, i) => role(`role-${String(i).padStart(3, '0')}`, 'd'.repeat(100)));
    const text = roleCatalogText(roles);
    expect(text.length).toBeLessThanOrEqual(DEFAULT_ROLE_CATALOG_LIMITS.maxChars + 100);
    const described = text.split('\n').filter((l) => l.startsWith('- '));
    expect(described).toHaveLength(DEFAULT_ROLE_CATALOG_LIMITS.maxDescribed);
    const more = text.split('\n').find((l) => l.startsWith('More roles: '))!;
    const named = more.slice('More roles: '.length).split(', ');
    const last = text.split('\n').at(-1)!;
    const hidden = Number(/^\((\d+) more roles not listed/.exec(last)?.[1]);
    expect(described.length + named.length + hidden).toBe(400);
    expect(named[0]).toBe('role-050');
  });
});

describe('agentToolSchema', () => {
  it('is the built-in schema itself without a catalog', () => {
    expect(agentToolSchema('')).toBe(BUILTIN_TOOLS.Agent.schema);
  });

  it('appends the catalog to the description and keeps the input schema', () => {
    const schema = agentToolSchema('Roles: x');
    expect(schema.description).toBe(`${BUILTIN_TOOLS.Agent.schema.description}\n\nRoles: x`);
    expect(schema.inputSchema).toBe(BUILTIN_TOOLS.Agent.schema.inputSchema);
    expect(Object.isFrozen(schema)).toBe(true);
  });
});
