import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DefinitionError } from '../../src/policy/definition-error.js';
import type { DefinitionDirectory } from '../../src/policy/load.js';
import { loadDefinitions } from '../../src/policy/load.js';

const fixtures = fileURLToPath(new URL('../fixtures/agents', import.meta.url));
const projectAgents: DefinitionDirectory = { path: join(fixtures, 'project/.agents'), scope: 'project' };
const projectClaude: DefinitionDirectory = { path: join(fixtures, 'project/.claude/agents'), scope: 'claude' };
const userAgents: DefinitionDirectory = { path: join(fixtures, 'user/.agents'), scope: 'user' };

async function loadError(dirs: DefinitionDirectory[]): Promise<DefinitionError> {
  const error: unknown = await loadDefinitions(dirs).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(DefinitionError);
  return error as DefinitionError;
}

describe('loadDefinitions', () => {
  it('loads every directory; earlier directories win and shadowing is reported with both files', async () => {
    const { definitions, warnings } = await loadDefinitions([projectAgents, projectClaude, userAgents]);
    expect([...definitions.keys()].sort()).toEqual(['code-reviewer', 'explorer', 'planner', 'reviewer']);
    expect(definitions.get('reviewer')?.source).toEqual({ file: join(projectAgents.path, 'reviewer.md'), scope: 'project' });
    expect(definitions.get('code-reviewer')?.source.scope).toBe('claude');
    expect(definitions.get('explorer')?.source.scope).toBe('user');
    const explorer = join(userAgents.path, 'explorer.md');
    expect(warnings).toEqual([
      `agent "reviewer" in ${join(projectClaude.path, 'reviewer.md')} (claude) is shadowed by ${join(projectAgents.path, 'reviewer.md')} (project)`,
      `${explorer}:6: unknown key "color" is ignored`,
      `${explorer}:7: unknown key "permissionMode" is ignored`,
      `${explorer}:8: unknown key "max_turns" is ignored (did you mean "maxTurns"?)`,
      `agent "reviewer" in ${join(userAgents.path, 'reviewer.md')} (user) is shadowed by ${join(projectAgents.path, 'reviewer.md')} (project)`,
    ]);
  });

  it('lets the caller choose precedence by order', async () => {
    const { definitions, warnings } = await loadDefinitions([userAgents, projectAgents]);
    expect(definitions.get('reviewer')?.source.scope).toBe('user');
    expect(warnings).toContain(
      `agent "reviewer" in ${join(projectAgents.path, 'reviewer.md')} (project) is shadowed by ${join(userAgents.path, 'reviewer.md')} (user)`,
    );
  });

  it('reads only *.md files directly inside a directory', async () => {
    // drafts/broken.md has no front matter: reading it would throw.
    const { definitions } = await loadDefinitions([projectClaude]);
    expect([...definitions.keys()].sort()).toEqual(['code-reviewer', 'reviewer']);
    expect(definitions.get('code-reviewer')?.tools).toEqual(['Read', 'Grep', 'Glob', 'Bash']);
  });

  it('skips a missing directory, or a path that is a file, silently', async () => {
    const result = await loadDefinitions([
      { path: join(fixtures, 'nowhere'), scope: 'project' },
      { path: join(projectAgents.path, 'reviewer.md'), scope: 'file' },
      projectAgents,
    ]);
    expect([...result.definitions.keys()].sort()).toEqual(['planner', 'reviewer']);
    expect(result.warnings).toEqual([]);
  });

  it('returns an empty result for no directories', async () => {
    expect(await loadDefinitions([])).toEqual({ definitions: new Map(), warnings: [] });
  });

  it('reads a directory listed twice only once', async () => {
    const { warnings } = await loadDefinitions([projectAgents, { path: `${projectAgents.path}/`, scope: 'again' }]);
    expect(warnings).toEqual([]);
  });

  it('fails loudly on a malformed file, naming file, line and key', async () => {
    const error = await loadError([projectAgents, { path: join(fixtures, 'malformed'), scope: 'user' }]);
    expect(error.message).toBe(`${join(fixtures, 'malformed/reviewer.md')}:4: key "maxTurns": expected a positive integer, got "lots"`);
    expect(error).toMatchObject({ code: 'invalid_value', line: 4, key: 'maxTurns' });
  });

  it('refuses two files of one directory defining the same name', async () => {
    const dir = join(fixtures, 'duplicate');
    const error = await loadError([{ path: dir, scope: 'project' }]);
    expect(error.message).toBe(`${join(dir, 'b.md')}: key "name": agent "twin" is already defined by ${join(dir, 'a.md')} in the same directory`);
    expect(error.code).toBe('duplicate_name');
  });
});

describe('loadDefinitions: links and unreadable entries', () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'policy-load-'));
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('follows links to files and ignores directories named *.md', async () => {
    await writeFile(join(root, 'target.txt'), '---\nname: linked\ndescription: d\n---\nBody.\n');
    await symlink(join(root, 'target.txt'), join(root, 'linked.md'));
    await mkdir(join(root, 'folder.md'));
    await mkdir(join(root, 'real-dir'));
    await symlink(join(root, 'real-dir'), join(root, 'dir-link.md'));
    const { definitions } = await loadDefinitions([{ path: root, scope: 'tmp' }]);
    expect([...definitions.keys()]).toEqual(['linked']);
  });

  it('throws read_failed for a dangling link', async () => {
    await symlink(join(root, 'missing.txt'), join(root, 'dangling.md'));
    const error = await loadError([{ path: root, scope: 'tmp' }]);
    expect(error.code).toBe('read_failed');
    expect(error.message).toMatch(new RegExp(`^${escape(join(root, 'dangling.md'))}: cannot read: ENOENT`));
  });

  it('throws read_failed for a directory that exists but cannot be listed', async () => {
    await symlink('loop', join(root, 'loop'));
    const error = await loadError([{ path: join(root, 'loop'), scope: 'tmp' }]);
    expect(error.code).toBe('read_failed');
    expect(error.message).toMatch(/: cannot read: ELOOP/);
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
