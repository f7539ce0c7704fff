/**
 * Journals written by earlier versions still resume. Each `test/fixtures/journal/format-N.jsonl`
 * was written by the code of its format (test/fixtures/journal/write-fixture.ts) and is never
 * rewritten; resuming it must bring back every agent where the journal left it and finish
 * the session.
 */
import { copyFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { openJsonlStore } from '../../src/store/jsonl.js';
import { resumeRuntime } from '../../src/runtime/resume.js';
import type { Runtime } from '../../src/runtime/types.js';
import { FIXTURE_SESSION, fixtureOptions } from '../fixtures/journal/session.js';

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '../fixtures/journal');
const formats = readdirSync(FIXTURES)
  .filter((name) => /^format-\d+\.jsonl$/.test(name))
  .sort();

let cleanup: (() => void) | undefined;
afterEach(() => {
  cleanup?.();
  cleanup = undefined;
});

/** Resumes a copy of a committed fixture (the fixture itself is never opened for writing). */
export function resumeFixture(name: string, resume: typeof resumeRuntime = resumeRuntime): { rt: Runtime; deployed: string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'journal-fixture-'));
  copyFileSync(join(FIXTURES, name), join(dir, `${FIXTURE_SESSION}.jsonl`));
  const store = openJsonlStore({ dir, sessionId: FIXTURE_SESSION, fsync: 'never' });
  const deployed: string[] = [];
  const rt = resume({ ...fixtureOptions('resume', store, deployed), store });
  cleanup = () => {
    rt.stop();
    rmSync(dir, { recursive: true, force: true });
  };
  return { rt, deployed };
}

/** What a resumed fixture session shows, then how it finishes. */
export async function checkResumedFixture(rt: Runtime, deployed: string[]): Promise<void> {
  // Every agent is back where the journal left it.
  expect(rt.stateOf('/root/fork')).toBe('running.idle');
  expect(rt.stateOf('/root/waiting')).toBe('running.working.sampling');
  // Not yet running: it starts again from its input, its journaled hook outcome replayed.
  expect(['reserved.runningHooks', 'preparingSummary']).toContain(rt.stateOf('/root/summ'));
  await expect(rt.result('/root/done')).resolves.toMatchObject({ status: 'completed', text: 'There are 42 files.' });
  await expect(rt.result('/root/sumdone')).resolves.toMatchObject({ status: 'completed', contextMode: 'summary' });
  await expect(rt.result('/root/gone')).resolves.toMatchObject({ status: 'cancelled', error: 'no longer needed' });
  await rt.whenQuiet();
  // The cut-off agents finish; the deploy, not idempotent, is reported interrupted, never run twice.
  expect(deployed).toEqual([]);
  await expect(rt.result('/root/waiting')).resolves.toMatchObject({ status: 'completed', text: '/root/waiting finished after the resume.' });
  await expect(rt.result('/root/summ')).resolves.toMatchObject({ status: 'completed' });
  const tools = await rt.result('/root/tools');
  expect(tools.text).toMatch(/^Deploy answered: Error \(interrupted\)/);
  // The summary subagent's hook ran once, before the cut: its task is vetted once.
  const summTask = rt.transcript('/root/summ')?.log.toArray().find((e) => e.kind === 'user' && e.origin.kind === 'task');
  expect(summTask?.kind === 'user' && summTask.text).toContain('Write the notes. (vetted)');
  expect(summTask?.kind === 'user' && summTask.text).not.toContain('(vetted) (vetted)');
  // The root's waiting calls were answered and its turn ended; the fork still waits for follow-ups.
  expect(rt.stateOf('/root')).toBe('running.idle');
  const last = rt.dialogue('/root')?.log.toArray().at(-1);
  expect(last?.kind === 'assistant' && last.text).toMatch(/^The release is planned/);
  expect(rt.stateOf('/root/fork')).toBe('running.idle');
}

describe('committed journal fixtures resume', () => {
  it('has a fixture of every format since format 3', () => {
    expect(formats).toContain('format-3.jsonl');
  });

  it.each(formats)('%s', async (name) => {
    const { rt, deployed } = resumeFixture(name);
    await checkResumedFixture(rt, deployed);
  });
});
