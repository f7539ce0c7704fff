/**
 * Journals written by earlier versions still resume. Each `test/fixtures/journal/format-N.jsonl`
 * was written by the code of its format (test/fixtures/journal/write-fixture.ts) and is never
 * rewritten; resuming it must bring back every agent where the journal left it and finish
 * the session.
 */
import { readdirSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { JOURNAL_FORMAT } from '../../src/store/format.js';
import { checkResumedFixture, FIXTURES, resumeFixture } from '../fixtures/journal/resume-fixture.js';

const formats = readdirSync(FIXTURES)
  .filter((name) => /^format-\d+\.jsonl$/.test(name))
  .sort();

let cleanup: (() => void) | undefined;
afterEach(() => {
  cleanup?.();
  cleanup = undefined;
});

describe('committed journal fixtures resume', () => {
  it('has a fixture of every format since format 3, today\'s included', () => {
    for (let format = 3; format <= JOURNAL_FORMAT; format++) expect(formats).toContain(`format-${format}.jsonl`);
  });

  it.each(formats)('%s', async (name) => {
    const resumed = resumeFixture(name);
    cleanup = resumed.cleanup;
    await checkResumedFixture(resumed.rt, resumed.deployed);
  });
});
