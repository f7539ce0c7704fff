/**
 * The lint rule "no private XState API" (eslint.config.js) flags a library file reaching an
 * actor's private members (`_stop`, `_relay`, ...) by name or by a computed key, and leaves
 * public ones, including `_parent` (declared on XState's public `ActorRef`), alone. Linted
 * through ESLint's API with the repository's own configuration.
 */
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const cwd = fileURLToPath(new URL('../../', import.meta.url));
const eslint = new ESLint({ cwd });
const PRIVATE = 'No private XState API';

async function flagged(code: string, filePath: string): Promise<number> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.filter((m) => m.message.includes(PRIVATE)).length;
}

const HEAD = "import type { AnyActorRef } from 'xstate';\ndeclare const actor: AnyActorRef;\n";

describe('the no-private-XState lint rule', () => {
  it.each([
    ['_stop through a cast', '(actor as unknown as { _stop(): void })._stop();'],
    ['_relay through a cast', "(actor as unknown as { _relay(a: unknown, b: unknown, e: unknown): void })._relay(actor, actor, { type: 'x' });"],
    ['a computed _send', "(actor as unknown as Record<string, () => void>)['_send']!();"],
    ['_processingStatus read', 'export const status = (actor as unknown as { _processingStatus: number })._processingStatus;'],
  ])('flags %s in the library', async (_, code) => {
    expect(await flagged(`${HEAD}${code}\n`, 'src/runtime/example.ts')).toBe(1);
    expect(await flagged(`${HEAD}${code}\n`, 'machines/example.ts')).toBe(1);
  });

  it.each([
    ['stop()', 'actor.stop();'],
    ['send()', "actor.send({ type: 'x' });"],
    ['_parent (public ActorRef)', 'export const parent = actor._parent;'],
  ])('leaves %s alone', async (_, code) => {
    expect(await flagged(`${HEAD}${code}\n`, 'src/runtime/example.ts')).toBe(0);
  });
});
