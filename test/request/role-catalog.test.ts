import { describe, expect, it } from 'vitest';
import { agentToolSchema, roleCatalog, utf8Length, type CatalogRole } from '../../src/request/role-catalog.js';
import { searchRoles } from '../../src/request/role-search.js';
import { BUILTIN_TOOLS } from '../../src/request/tools.js';

const role = (name: string, description = `Does ${name} work.`) => ({ name, description });
const many = (count: number, description = 'd'.repeat(150)) => Array.from({ length: count }, (_, i) => role(`role-${String(i).padStart(3, '0')}`, description));

/** The names a catalog text shows: described lines and the `More roles:` line. */
function namesIn(text: string): string[] {
  return text.split('\n').flatMap((line) => {
    if (line.startsWith('- ')) return [line.slice(2).split(': ')[0]!];
    if (line.startsWith('More roles: ')) return line.slice('More roles: '.length).split(', ');
    return [];
  });
}

describe('roleCatalog', () => {
  it('is empty without roles', () => {
    expect(roleCatalog([]).text).toBe('');
  });

  it('lists each role by name order with its description on one line', () => {
    const catalog = roleCatalog([role('zeta'), role('alpha', 'Reads\n  code\tcarefully.'), role('beta.writer')]);
    const lines = catalog.text.split('\n');
    expect(lines.slice(1)).toEqual(['- alpha: Reads code carefully.', '- beta.writer: Does beta.writer work.', '- zeta: Does zeta work.']);
    expect(lines[0]).toMatch(/^Roles: /);
    expect(catalog.mode).toBe('described');
    expect(catalog.searchable).toBe(false);
  });

  it('gives the same bytes whatever order the roles come in', () => {
    const roles = ['c', 'a', 'b', 'a-1', 'a.2'].map((n) => role(n));
    expect(roleCatalog([...roles].reverse()).text).toBe(roleCatalog(roles).text);
    const big = many(400);
    expect(roleCatalog([...big].reverse(), { maxBytes: 4000 }).text).toBe(roleCatalog(big, { maxBytes: 4000 }).text);
  });

  it('clips a long description at a whole character, ending with …', () => {
    const long = `${'x'.repeat(10)}😀${'y'.repeat(300)}`;
    const line = roleCatalog([role('a', long)], { descriptionLength: 12 }).text.split('\n')[1]!;
    expect(line).toBe(`- a: ${'x'.repeat(10)}😀…`);
    const clipped = roleCatalog([role('a', long)], { descriptionLength: 11 }).text.split('\n')[1]!;
    // The emoji would be cut in half; it is dropped whole instead.
    expect(clipped).toBe(`- a: ${'x'.repeat(10)}…`);
  });

  it('falls back to every name when the descriptions do not fit, describing the first roles that still fit', () => {
    const roles = many(100);
    const catalog = roleCatalog(roles, { maxBytes: 6000 });
    expect(catalog.mode).toBe('names');
    expect(utf8Length(catalog.text)).toBeLessThanOrEqual(6000);
    expect(namesIn(catalog.text).sort()).toEqual(roles.map((r) => r.name));
    expect(catalog.described.length).toBeGreaterThan(0);
    expect(catalog.described.length).toBeLessThan(100);
    // The first roles in order keep their descriptions; the rest are names only.
    expect(catalog.described).toEqual(roles.slice(0, catalog.described.length).map((r) => r.name));
    expect(catalog.text.split('\n').at(-1)).toBe(`More roles: ${roles.slice(catalog.described.length).map((r) => r.name).join(', ')}`);
    // One more described role would not fit.
    const next = roles[catalog.described.length]!;
    expect(utf8Length(catalog.text) + utf8Length(`- ${next.name}: ${next.description}\n`) - utf8Length(`${next.name}, `)).toBeGreaterThan(6000);
  });

  it('measures the budget in UTF-8 bytes', () => {
    const roles = Array.from({ length: 20 }, (_, i) => role(`r${i}`, 'é'.repeat(100)));
    const text = roleCatalog(roles, { maxBytes: 2000 }).text;
    expect(text.length).toBeLessThan(2000);
    expect(utf8Length(text)).toBeLessThanOrEqual(2000);
    expect(roleCatalog(roles, { maxBytes: 2000 }).mode).toBe('names');
  });

  it('points to find_roles when not even the names fit, and every role is found by it', () => {
    const roles = many(400);
    const catalog = roleCatalog(roles, { maxBytes: 2000 });
    expect(catalog.mode).toBe('search');
    expect(catalog.searchable).toBe(true);
    expect(utf8Length(catalog.text)).toBeLessThanOrEqual(2000);
    const listed = namesIn(catalog.text);
    expect(listed).toEqual(catalog.listed);
    expect(catalog.text.split('\n').at(-1)).toBe(`${400 - listed.length} more roles are not listed: find_roles searches every role's name and description.`);
    for (const r of roles.filter((r) => !listed.includes(r.name))) expect(searchRoles(roles, r.name, { limit: 1 })[0]?.name).toBe(r.name);
  });

  it('describes and lists the host-ranked roles first', () => {
    const roles = many(100);
    const favourite = new Set(['role-090', 'role-042']);
    const rank = (r: CatalogRole) => (r.name === 'role-090' ? 2 : favourite.has(r.name) ? 1 : 0);
    const catalog = roleCatalog(roles, { maxBytes: 6000, rank });
    expect(catalog.described.slice(0, 3)).toEqual(['role-090', 'role-042', 'role-000']);
    const search = roleCatalog(roles, { maxBytes: 400, rank });
    expect(search.listed.slice(0, 3)).toEqual(['role-090', 'role-042', 'role-000']);
  });

  it('refuses a budget that cannot hold its fixed lines, and bad limits', () => {
    expect(() => roleCatalog(many(10), { maxBytes: 50 })).toThrow(/maxBytes 50 cannot hold/);
    expect(() => roleCatalog(many(1), { maxBytes: 0 })).toThrow(TypeError);
    expect(() => roleCatalog(many(1), { descriptionLength: 1.5 })).toThrow(/descriptionLength must be a positive integer/);
    expect(() => roleCatalog(many(2), { rank: () => Number.NaN })).toThrow(/rank must return a finite number/);
  });
});

describe('searchRoles', () => {
  const roles = [
    role('python-pro', 'Writes idiomatic Python.'),
    role('typescript-pro', 'Types everything; strict TypeScript.'),
    role('code-reviewer', 'Reviews Python and TypeScript changes for defects.'),
  ];

  it('scores name parts over names over descriptions, best first', () => {
    expect(searchRoles(roles, 'python').map((m) => m.name)).toEqual(['python-pro', 'code-reviewer']);
    expect(searchRoles(roles, 'review typescript').map((m) => [m.name, m.score])).toEqual([
      // Equal scores keep name order.
      ['code-reviewer', 3],
      ['typescript-pro', 3],
    ]);
    expect(searchRoles(roles, '  ')).toEqual([]);
    expect(searchRoles(roles, 'rust')).toEqual([]);
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
