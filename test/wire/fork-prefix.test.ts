/**
 * Forks that hit the cache on the wire: sessions run through the real `@ai-sdk/anthropic` and
 * `@ai-sdk/openai` packages (Anthropic Messages, OpenAI Chat Completions and Responses), their
 * recorded bodies read in each provider's cache order. Each case checks what the bodies
 * share, and that `result.prefix` reports exactly that.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { AgentResult } from '../../src/runtime/types.js';
import { blockBytes, readableBytes, sharedBlocks } from '../../src/request/wire-prefix.js';
import { useStandIn, WIRE_APIS } from './harness.js';
import { parentRequestBefore, requestsOf, rootRequests, runResumedScenario, runScenario, wireOf, type ScenarioRun } from './scenarios.js';

const standIn = useStandIn();
const dir = mkdtempSync(join(tmpdir(), 'wire-fork-prefix-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * The wire figures of subagent `name`'s first request against its parent's last request
 * before it, and checks that its result reports them.
 */
function expectPrefixAgrees(run: ScenarioRun, name: string): { result: AgentResult; shared: number; inherited: number } {
  const first = requestsOf(run, name)[0]!;
  const parent = wireOf(parentRequestBefore(run, first));
  const fork = wireOf(first, 1);
  const shared = blockBytes(fork, sharedBlocks(parent, fork));
  const inherited = blockBytes(fork, fork.blocks.length - 1);
  const result = run.results.get(name)!;
  expect(result.prefix).toMatchObject({
    sharedBytes: shared,
    sharedTokens: Math.floor(shared / 4),
    inputBytes: fork.totalBytes,
    inheritedBytes: inherited,
    wire: { api: run.api, readableBytes: readableBytes(fork, [parent]) },
  });
  expect(result.prefix.sharedRatio).toBeCloseTo(shared / fork.totalBytes, 12);
  // The library's own measure stays available beside it.
  expect(result.prefix.canonical?.sharedBytes).toBeGreaterThan(0);
  return { result, shared, inherited };
}

/** A subagent that shares all it inherited, and whose breakpoints read all of it. */
function expectFullShare(run: ScenarioRun, name: string): void {
  const { result, shared, inherited } = expectPrefixAgrees(run, name);
  expect(shared).toBe(inherited);
  expect(shared).toBeGreaterThan(0);
  expect(result.prefix.reasons).toEqual([]);
  expect(result.prefix.wire?.readableBytes).toBe(shared);
}

/** Every root request reads its previous one whole: it extends it, and its breakpoints reach it. */
function expectRootReadsItsPrevious(run: ScenarioRun): void {
  const roots = rootRequests(run).map((r) => wireOf(r));
  expect(roots.length).toBeGreaterThan(1);
  for (let i = 1; i < roots.length; i++) {
    const prev = roots[i - 1]!;
    const next = roots[i]!;
    expect(sharedBlocks(prev, next)).toBe(prev.blocks.length);
    expect(readableBytes(next, [prev])).toBe(prev.totalBytes);
  }
}

describe.each(WIRE_APIS)('forks on the wire, as %s', (api) => {
  it('a plain fork shares all it inherited', async () => {
    const run = await runScenario(standIn(), api, 'plain_fork');
    expectFullShare(run, 'fork');
  });

  it('a persona fork (a role whose instructions travel in its task) shares all it inherited', async () => {
    const run = await runScenario(standIn(), api, 'persona_fork');
    expectFullShare(run, 'fork');
  });

  it("a continuable fork's follow-up request reads its whole first request", async () => {
    const run = await runScenario(standIn(), api, 'follow_up');
    expectFullShare(run, 'fork');
    const [first, second] = requestsOf(run, 'fork').map((r) => wireOf(r));
    expect(second).toBeDefined();
    expect(sharedBlocks(first!, second!)).toBe(first!.blocks.length);
    expect(readableBytes(second!, [first!])).toBe(first!.totalBytes);
  });

  it('root-only streaming: the streamed root and its unstreamed fork share the head', async () => {
    const run = await runScenario(standIn(), api, 'root_streaming');
    const first = requestsOf(run, 'fork')[0]!;
    expect(parentRequestBefore(run, first).stream).toBe(true);
    expect(first.stream).toBe(false);
    expectFullShare(run, 'fork');
  });

  it('a structured-output subagent keeps the head by default', async () => {
    const run = await runScenario(standIn(), api, 'structured_output');
    expectFullShare(run, 'fork');
    expect(run.results.get('fork')?.value).toEqual({ file: 'a.ts' });
  });

  it('with nativeOutput the format costs the shared prefix, and the reasons say so', async () => {
    const run = await runScenario(standIn(), api, 'native_output');
    const { result, shared, inherited } = expectPrefixAgrees(run, 'fork');
    expect(shared).toBeLessThan(inherited);
    expect(result.prefix.reasons).toContain('native_output_format');
    // The library's own bytes still say the fork shares everything it inherited.
    expect(result.prefix.canonical?.reasons).toEqual([]);
  });

  it("after a step of 10 parallel calls the parent's next request reads its previous one, and a fork shares all", async () => {
    const run = await runScenario(standIn(), api, 'wide_step');
    expectRootReadsItsPrevious(run);
    expectFullShare(run, 'fork');
  });

  it("after closing 8 forks the parent's next request reads its previous one; every fork shares all", async () => {
    const run = await runScenario(standIn(), api, 'close_forks');
    expectRootReadsItsPrevious(run);
    for (let n = 0; n < 8; n++) expectFullShare(run, `f${n}`);
  });

  it('a session resumed from a JSON Lines journal sends what it sent before, and its fork shares all', async () => {
    const run = await runResumedScenario(standIn(), api, dir);
    const roots = rootRequests(run);
    const lastBefore = wireOf(roots.filter((r) => r.index < run.beforeResume).at(-1)!);
    const firstAfter = wireOf(roots.find((r) => r.index >= run.beforeResume)!);
    expect(sharedBlocks(lastBefore, firstAfter)).toBe(lastBefore.blocks.length);
    expect(readableBytes(firstAfter, [lastBefore])).toBe(lastBefore.totalBytes);
    expectFullShare(run, 'again');
  });
});
