/**
 * The lint rule "tests must not sleep" (eslint.config.js) flags every way a test waits on the
 * wall clock through a timer that only settles a promise, and leaves timers that do real work
 * alone. Linted through ESLint's API with the repository's own configuration.
 */
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const cwd = fileURLToPath(new URL('../../', import.meta.url));
const eslint = new ESLint({ cwd });
const SLEEP = 'Tests must not sleep; wait on events or a simulated clock';

async function sleepsFlagged(code: string, filePath = 'test/lint/example.test.ts'): Promise<number> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.filter((m) => m.message.includes(SLEEP)).length;
}

describe('the no-sleep lint rule', () => {
  it.each([
    ['setTimeout(resolve, 10)', 'await new Promise<void>((resolve) => setTimeout(resolve, 10));'],
    ['setTimeout(r, 10)', 'await new Promise<void>((r) => setTimeout(r, 10));'],
    ['setTimeout(() => resolve(), 10)', 'await new Promise<void>((resolve) => setTimeout(() => resolve(), 10));'],
    ['setTimeout(() => resolve(value), 10)', 'await new Promise<number>((resolve) => setTimeout(() => resolve(1), 10));'],
    ['setTimeout(() => { resolve(); }, 10)', 'await new Promise<void>((resolve) => setTimeout(() => { resolve(); }, 10));'],
    ['setTimeout(function () { resolve(); }, 10)', 'await new Promise<void>((resolve) => setTimeout(function () { resolve(); }, 10));'],
    ['setTimeout(() => resolve, 10)', 'await new Promise<void>((resolve) => setTimeout(() => resolve, 10));'],
    ['setTimeout from node:timers/promises', "import { setTimeout as sleep } from 'node:timers/promises';\nawait sleep(10);"],
  ])('flags %s', async (_, code) => {
    expect(await sleepsFlagged(`export {};\n${code}\n`)).toBe(1);
  });

  it.each([
    ['a timer that aborts a request', 'const controller = new AbortController();\nsetTimeout(() => controller.abort(), 0);'],
    ['a yield to the event loop', 'await new Promise<void>((resolve) => setImmediate(resolve));'],
    ['a promise resolved by an event', 'await new Promise<void>((resolve) => process.once("beforeExit", () => resolve()));'],
  ])('leaves %s alone', async (_, code) => {
    expect(await sleepsFlagged(`export {};\n${code}\n`)).toBe(0);
  });
});
