import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DefinitionError } from '../../src/policy/definition-error.js';
import type { DefinitionDirectory } from '../../src/load/definitions.js';
import { loadDefinitions } from '../../src/load/definitions.js';

const fixtures = fileURLToPath(new URL('../fixtures/agents', import.meta.url));
const projectAgents: DefinitionDirectory = { path: join(fixtures, 'project/.agents'), scope: 'project' };
const projectClaude: DefinitionDirectory = { path: join(fixtures, 'project/.claude/agents'), scope: 'claude' };
const userAgents: DefinitionDirectory = { path: join(fixtures, 'user/.agents'), scope: 'user' };

/** The error a strict load throws. */
async function loadError(dirs: DefinitionDirectory[]): Promise<DefinitionError> {
  const error: unknown = await loadDefinitions(dirs, { strict: true }).then(
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
    expect(await loadDefinitions([])).toEqual({ definitions: new Map(), warnings: [], errors: [] });
  });

  it('reads a directory listed twice only once', async () => {
    const { warnings } = await loadDefinitions([projectAgents, { path: `${projectAgents.path}/`, scope: 'again' }]);
    expect(warnings).toEqual([]);
  });

  it('strict: fails on a malformed file, naming file, line and key', async () => {
    const error = await loadError([projectAgents, { path: join(fixtures, 'malformed'), scope: 'user' }]);
    expect(error.message).toBe(`${join(fixtures, 'malformed/reviewer.md')}:4: key "maxTurns": expected a positive integer, got "lots"`);
    expect(error).toMatchObject({ code: 'invalid_value', line: 4, key: 'maxTurns' });
  });

  it('without strict: a malformed file is an error beside the good definitions', async () => {
    const { definitions, errors } = await loadDefinitions([projectAgents, { path: join(fixtures, 'malformed'), scope: 'user' }]);
    expect([...definitions.keys()].sort()).toEqual(['planner', 'reviewer']);
    expect(definitions.get('reviewer')?.source.scope).toBe('project');
    expect(errors.map((e) => ({ file: e.file, line: e.line, key: e.key, code: e.code }))).toEqual([
      { file: join(fixtures, 'malformed/reviewer.md'), line: 4, key: 'maxTurns', code: 'invalid_value' },
    ]);
  });

  it('strict: refuses two files of one directory defining the same name', async () => {
    const dir = join(fixtures, 'duplicate');
    const error = await loadError([{ path: dir, scope: 'project' }]);
    expect(error.message).toBe(`${join(dir, 'b.md')}: key "name": agent "twin" is already defined by ${join(dir, 'a.md')} in the same directory`);
    expect(error.code).toBe('duplicate_name');
  });

  it('without strict: keeps the first of two files defining one name and reports the second', async () => {
    const dir = join(fixtures, 'duplicate');
    const { definitions, errors } = await loadDefinitions([{ path: dir, scope: 'project' }]);
    expect(definitions.get('twin')?.source.file).toBe(join(dir, 'a.md'));
    expect(errors.map((e) => [e.code, e.file])).toEqual([['duplicate_name', join(dir, 'b.md')]]);
  });
});

describe('loadDefinitions: a directory of mixed files', () => {
  const mixed: DefinitionDirectory = { path: join(fixtures, 'mixed'), scope: 'project' };
  const file = (name: string): string => join(mixed.path, name);

  it('loads every good file; the bad ones are errors with file, line, key and message', async () => {
    const { definitions, errors } = await loadDefinitions([mixed]);
    expect([...definitions.keys()].sort()).toEqual(['alpha-linter', 'beta.writer', 'colon-note', 'zeta-2.0-expert']);
    expect(errors.map((e) => ({ file: e.file, line: e.line, key: e.key, code: e.code }))).toEqual([
      { file: file('delta-broken.md'), line: 4, key: 'maxTurns', code: 'invalid_value' },
      { file: file('epsilon-no-front.md'), line: 1, key: undefined, code: 'missing_front_matter' },
    ]);
    expect(errors[0]?.message).toBe(`${file('delta-broken.md')}:4: key "maxTurns": expected a positive integer, got "plenty"`);
  });

  it('strict: the first bad file throws', async () => {
    const error = await loadError([mixed]);
    expect(error).toMatchObject({ file: file('delta-broken.md'), code: 'invalid_value' });
  });

  it('reads tools as a comma list (patterns kept whole) or as a YAML list', async () => {
    const { definitions } = await loadDefinitions([mixed]);
    expect(definitions.get('alpha-linter')?.tools).toEqual(['Read', 'Grep', 'Bash(git diff *)', 'Bash(npm test:*)']);
    expect(definitions.get('beta.writer')?.tools).toEqual(['Read', 'Write(./notes/**)']);
    expect(definitions.get('beta.writer')?.disallowedTools).toEqual(['Bash']);
  });

  it('accepts dotted names, written or taken from the file name', async () => {
    const { definitions } = await loadDefinitions([mixed]);
    expect(definitions.get('beta.writer')?.source.file).toBe(file('beta.writer.md'));
    expect(definitions.get('zeta-2.0-expert')?.description).toBe('Named by its file, which has a dot in it.');
  });

  it('reads an unquoted ": " in a description as Claude Code does, with a warning on its line', async () => {
    const { definitions, warnings } = await loadDefinitions([mixed]);
    expect(definitions.get('colon-note')?.description).toBe('Use this role when: the task needs a summary. Example: "summarize the log"');
    // The other keys of the file still parse as YAML.
    expect(definitions.get('colon-note')?.model).toBe('opus');
    expect(warnings.filter((w) => w.startsWith(file('colon-note.md')))).toEqual([
      expect.stringMatching(new RegExp(`^${escape(file('colon-note.md'))}:3: key "description": the unquoted value is not valid YAML .*as Claude Code reads it`)),
      `${file('colon-note.md')}:5: unknown key "color" is ignored`,
    ]);
  });

  it('gives no warnings for the files it refused', async () => {
    const { warnings } = await loadDefinitions([mixed]);
    expect(warnings.some((w) => w.includes('delta-broken') || w.includes('epsilon'))).toBe(false);
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

  it('strict: throws read_failed for a dangling link', async () => {
    await symlink(join(root, 'missing.txt'), join(root, 'dangling.md'));
    const error = await loadError([{ path: root, scope: 'tmp' }]);
    expect(error.code).toBe('read_failed');
    expect(error.message).toMatch(new RegExp(`^${escape(join(root, 'dangling.md'))}: cannot read: ENOENT`));
  });

  it('without strict: a dangling link is an error and the other files still load', async () => {
    await symlink(join(root, 'missing.txt'), join(root, 'dangling.md'));
    await writeFile(join(root, 'fine.md'), '---\nname: fine\ndescription: d\n---\nBody.\n');
    const { definitions, errors } = await loadDefinitions([{ path: root, scope: 'tmp' }]);
    expect([...definitions.keys()]).toEqual(['fine']);
    expect(errors.map((e) => [e.code, e.file])).toEqual([['read_failed', join(root, 'dangling.md')]]);
  });

  it('strict: throws read_failed for a directory that exists but cannot be listed', async () => {
    await symlink('loop', join(root, 'loop'));
    const error = await loadError([{ path: join(root, 'loop'), scope: 'tmp' }]);
    expect(error.code).toBe('read_failed');
    expect(error.message).toMatch(/: cannot read: ELOOP/);
  });

  it('without strict: an unlistable directory is an error and later directories still load', async () => {
    await symlink('loop', join(root, 'loop'));
    const { definitions, errors } = await loadDefinitions([{ path: join(root, 'loop'), scope: 'tmp' }, projectAgents]);
    expect([...definitions.keys()].sort()).toEqual(['planner', 'reviewer']);
    expect(errors.map((e) => e.code)).toEqual(['read_failed']);
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
