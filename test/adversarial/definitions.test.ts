/**
 * Hostile agent definition folders: YAML aliases and symbolic links leaving the folder.
 */
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DefinitionError } from '../../src/policy/definition-error.js';
import { loadDefinitions } from '../../src/load/definitions.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'adversarial-defs-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

/** The error a strict load throws. */
async function loadFailure(dirs: Parameters<typeof loadDefinitions>[0]): Promise<DefinitionError> {
  const error: unknown = await loadDefinitions(dirs, { strict: true }).then(() => undefined, (thrown: unknown) => thrown);
  expect(error).toBeInstanceOf(DefinitionError);
  return error as DefinitionError;
}

describe('defect 5: YAML alias errors', () => {
  it.each([
    ['an alias to a missing anchor', 'name: bad\ndescription: *nowhere\n'],
    ['an alias explosion', 'name: bad\nx: &a [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]\ny: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nz: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\ndescription: [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\n'],
  ])('%s is a DefinitionError naming the file and line', async (_name, yaml) => {
    const file = join(root, 'bad.md');
    await writeFile(file, `---\n${yaml}---\nBody.\n`);
    const error = await loadFailure([{ path: root, scope: 'tmp' }]);
    expect(error.code).toBe('yaml_syntax');
    expect(error.message.startsWith(`${file}:`)).toBe(true);
    expect(error.message).toMatch(/:\d+/);
  });
});

describe('S3: symbolic links in an agents folder', () => {
  beforeEach(async () => {
    await mkdir(join(root, 'agents'));
    await mkdir(join(root, 'elsewhere'));
    await writeFile(join(root, 'elsewhere', 'secret.md'), '---\nname: outsider\ndescription: d\n---\nBody.\n');
  });

  it('a link to a file outside the folder is refused', async () => {
    await symlink(join(root, 'elsewhere', 'secret.md'), join(root, 'agents', 'outsider.md'));
    const error = await loadFailure([{ path: join(root, 'agents'), scope: 'tmp' }]);
    expect(error.code).toBe('link_outside');
    expect(error.message).toContain(join(root, 'agents', 'outsider.md'));
  });

  it('without strict, the refused link is reported and the rest loads', async () => {
    await symlink(join(root, 'elsewhere', 'secret.md'), join(root, 'agents', 'outsider.md'));
    await writeFile(join(root, 'agents', 'own.md'), '---\nname: own\ndescription: d\n---\nBody.\n');
    const { definitions, errors } = await loadDefinitions([{ path: join(root, 'agents'), scope: 'tmp' }]);
    expect([...definitions.keys()]).toEqual(['own']);
    expect(errors.map((e) => e.code)).toEqual(['link_outside']);
  });

  it('a relative link climbing out of the folder is refused too', async () => {
    await symlink('../elsewhere/secret.md', join(root, 'agents', 'outsider.md'));
    expect((await loadFailure([{ path: join(root, 'agents'), scope: 'tmp' }])).code).toBe('link_outside');
  });

  it('following outside links is an explicit option', async () => {
    await symlink(join(root, 'elsewhere', 'secret.md'), join(root, 'agents', 'outsider.md'));
    const { definitions } = await loadDefinitions([{ path: join(root, 'agents'), scope: 'tmp' }], { followLinksOutside: true });
    expect([...definitions.keys()]).toEqual(['outsider']);
  });

  it('a link inside the folder is followed', async () => {
    await mkdir(join(root, 'agents', 'drafts'));
    await writeFile(join(root, 'agents', 'drafts', 'inner.txt'), '---\nname: inner\ndescription: d\n---\nBody.\n');
    await symlink(join(root, 'agents', 'drafts', 'inner.txt'), join(root, 'agents', 'inner.md'));
    const { definitions } = await loadDefinitions([{ path: join(root, 'agents'), scope: 'tmp' }]);
    expect([...definitions.keys()]).toEqual(['inner']);
  });
});
