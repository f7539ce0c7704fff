import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadProjectContext } from '../../src/load/project-context.js';

describe('loadProjectContext', () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'policy-context-'));
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  const write = async (path: string, text: string): Promise<void> => {
    await mkdir(join(root, path, '..'), { recursive: true });
    await writeFile(join(root, path), text);
  };

  it('finds AGENTS.md in the working directory', async () => {
    await write('repo/.git/HEAD', 'ref: main\n');
    await write('repo/AGENTS.md', '# Rules\n');
    expect(await loadProjectContext({ cwd: join(root, 'repo') })).toEqual({ file: join(root, 'repo/AGENTS.md'), text: '# Rules\n' });
  });

  it('walks up to the repository root', async () => {
    await write('repo/.git/HEAD', 'ref: main\n');
    await write('repo/AGENTS.md', 'root rules');
    await mkdir(join(root, 'repo/packages/app/src'), { recursive: true });
    expect((await loadProjectContext({ cwd: join(root, 'repo/packages/app/src') }))?.file).toBe(join(root, 'repo/AGENTS.md'));
  });

  it('prefers the nearest file', async () => {
    await write('repo/.git/HEAD', '');
    await write('repo/AGENTS.md', 'root rules');
    await write('repo/packages/app/AGENTS.md', 'app rules');
    await mkdir(join(root, 'repo/packages/app/src'), { recursive: true });
    expect((await loadProjectContext({ cwd: join(root, 'repo/packages/app/src') }))?.text).toBe('app rules');
  });

  it('stops at the directory containing .git (a directory or a worktree file)', async () => {
    await write('AGENTS.md', 'outside the project');
    await write('repo/.git/HEAD', '');
    await mkdir(join(root, 'repo/src'), { recursive: true });
    expect(await loadProjectContext({ cwd: join(root, 'repo/src') })).toBeUndefined();

    await write('worktree/.git', 'gitdir: /elsewhere\n');
    expect(await loadProjectContext({ cwd: join(root, 'worktree') })).toBeUndefined();
  });

  it('walks past directories without .git', async () => {
    await write('AGENTS.md', 'top');
    await mkdir(join(root, 'a/b/c'), { recursive: true });
    expect((await loadProjectContext({ cwd: join(root, 'a/b/c') }))?.file).toBe(join(root, 'AGENTS.md'));
  });

  it('looks only in cwd when searchParents is false', async () => {
    await write('repo/.git/HEAD', '');
    await write('repo/AGENTS.md', 'root rules');
    await mkdir(join(root, 'repo/src'), { recursive: true });
    expect(await loadProjectContext({ cwd: join(root, 'repo/src'), searchParents: false })).toBeUndefined();
    expect((await loadProjectContext({ cwd: join(root, 'repo'), searchParents: false }))?.text).toBe('root rules');
  });

  it('tries file names in order within each directory', async () => {
    await write('repo/.git/HEAD', '');
    await write('repo/CLAUDE.md', 'claude');
    await write('repo/AGENTS.md', 'agents');
    const cwd = join(root, 'repo');
    expect((await loadProjectContext({ cwd, fileNames: ['CLAUDE.md', 'AGENTS.md'] }))?.text).toBe('claude');
    expect((await loadProjectContext({ cwd, fileNames: ['AGENTS.md', 'CLAUDE.md'] }))?.text).toBe('agents');
    expect(await loadProjectContext({ cwd, fileNames: [] })).toBeUndefined();
  });

  it('ignores a directory named AGENTS.md and a cwd that is a file', async () => {
    await write('repo/.git/HEAD', '');
    await mkdir(join(root, 'repo/AGENTS.md'));
    expect(await loadProjectContext({ cwd: join(root, 'repo') })).toBeUndefined();
    await write('repo/file.txt', 'x');
    expect(await loadProjectContext({ cwd: join(root, 'repo/file.txt'), searchParents: false })).toBeUndefined();
  });

  it('stops at the file system root', async () => {
    // From "/" itself there is no parent to walk to; the search ends either way.
    const found = await loadProjectContext({ cwd: '/', fileNames: ['surely-no-such-context-file.md'] });
    expect(found).toBeUndefined();
  });

  it('rethrows errors other than "no file here"', async () => {
    await write('repo/.git/HEAD', '');
    await expect(loadProjectContext({ cwd: join(root, 'repo'), fileNames: ['bad\0name'] })).rejects.toThrow();
  });
});
