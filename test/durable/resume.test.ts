import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createJsonlStore, openJsonlStore } from '../../src/index.js';
import { outcomeOf } from './compare.js';
import { runScenario } from './scenario.js';

const root = mkdtempSync(join(tmpdir(), 'resume-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function uninterrupted(): Promise<string> {
  const dir = join(root, 'full');
  const store = createJsonlStore({ dir, sessionId: 'crash', fsync: 'never' });
  await runScenario(store, 'fresh');
  await store.close();
  return join(dir, 'crash.jsonl');
}

describe('resume from every journal prefix (in process)', () => {
  it('runs to the same outcome as the uninterrupted session', async () => {
    const file = await uninterrupted();
    const expected = outcomeOf(file);
    expect(expected.duplicates).toEqual([]);
    expect(Object.keys(expected.agents)).toEqual(['/root', '/root/fork_a', '/root/sum_b', '/root/cont_c', '/root/slow', '/root/bg_d', '/root/bg_d/inner']);
    const lines = readFileSync(file, 'utf8').split('\n').filter((l) => l !== '');
    for (let k = 1; k < lines.length; k++) {
      const dir = join(root, `p${k}`);
      mkdirSync(dir);
      writeFileSync(join(dir, 'crash.jsonl'), lines.slice(0, k).join('\n') + '\n');
      const store = openJsonlStore({ dir, fsync: 'never' });
      await runScenario(store, 'resume');
      await store.close();
      const got = outcomeOf(join(dir, 'crash.jsonl'));
      expect(got.duplicates, `prefix ${k}`).toEqual([]);
      expect(got.agents, `prefix ${k}`).toEqual(expected.agents);
    }
  });
});
