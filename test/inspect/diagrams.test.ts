/**
 * The committed machine diagrams are current: regenerated in memory from the machines and
 * compared with `docs/machines/`. A stale or missing file fails with the command to run.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DIAGRAMS_DIR, PROJECT_ROOT, renderDiagrams } from '../../scripts/diagrams.js';

const rendered = await renderDiagrams();

describe('docs/machines', () => {
  it('has a diagram for the agent machine', () => {
    expect([...rendered.keys()]).toContain(`${DIAGRAMS_DIR}/agent.md`);
  });

  it.each([...rendered])('%s is up to date', async (file, content) => {
    const committed = await readFile(join(PROJECT_ROOT, file), 'utf8').catch(() => undefined);
    if (committed !== content) expect.fail(`${file} is ${committed === undefined ? 'missing' : 'stale'}: run \`npm run diagrams\``);
    expect(committed).toBe(content);
  });

  it('holds no diagram of a machine that no longer exists', async () => {
    const files = (await readdir(join(PROJECT_ROOT, DIAGRAMS_DIR))).filter((f) => f.endsWith('.md')).map((f) => `${DIAGRAMS_DIR}/${f}`);
    const orphans = files.filter((f) => !rendered.has(f));
    if (orphans.length > 0) expect.fail(`${orphans.join(', ')} ha${orphans.length === 1 ? 's' : 've'} no machine: delete, then run \`npm run diagrams\``);
    expect(orphans).toEqual([]);
  });
});
