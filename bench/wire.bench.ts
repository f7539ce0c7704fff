/**
 * Prefix sharing on the wire, through the real provider packages against the stand-in
 * (`test/wire/stand-in`), measured on the recorded bodies in each provider's cache order:
 * - `wire.anthropic.fork.shared_ratio`: a plain fork's shared bytes over the bytes it
 *   inherited, on the Anthropic Messages wire, with only the root's events read (the root
 *   streams, the fork does not). Must be 1.
 * - `wire.anthropic.wide_step.cache_read_ratio`: after the root closes 8 forks in one step
 *   (8 calls, 8 results), the bytes of its next request that its breakpoints can read from
 *   its earlier requests over the bytes it shares with them. At least 0.95.
 * - `wire.openai.fork.shared_ratio`: as the first, on the OpenAI Chat Completions wire. Must be 1.
 */
import { blockBytes, readableBytes, sharedBlocks } from '../src/request/wire-prefix.js';
import { startStandIn } from '../test/wire/stand-in/index.js';
import { parentRequestBefore, requestsOf, rootRequests, runScenario, wireOf, type ScenarioRun } from '../test/wire/scenarios.js';
import type { BenchFigures } from './run.js';

/** A fork's wire shared bytes over the wire bytes it inherited (all of its first request but the task). */
function forkSharedRatio(run: ScenarioRun, name: string): number {
  const first = requestsOf(run, name)[0];
  if (first === undefined) throw new Error(`no request from ${name}`);
  const parent = wireOf(parentRequestBefore(run, first));
  const fork = wireOf(first, 1);
  const inherited = blockBytes(fork, fork.blocks.length - fork.taskBlocks);
  return blockBytes(fork, sharedBlocks(parent, fork)) / inherited;
}

export default async function bench(): Promise<BenchFigures> {
  const standIn = await startStandIn();
  try {
    const anthropicFork = await runScenario(standIn, 'anthropic-messages', 'root_streaming');
    const closing = await runScenario(standIn, 'anthropic-messages', 'close_forks');
    const roots = rootRequests(closing).map((r) => wireOf(r));
    // roots[1] made the 8 close_agent calls; roots[2] is the next request, after their results.
    const next = roots[2];
    if (next === undefined) throw new Error('the root sent no request after closing its forks');
    const earlier = roots.slice(0, 2);
    const shared = Math.max(...earlier.map((request) => blockBytes(next, sharedBlocks(request, next))));
    const chatFork = await runScenario(standIn, 'openai-chat', 'root_streaming');
    return [
      ['wire.anthropic.fork.shared_ratio', forkSharedRatio(anthropicFork, 'fork')],
      ['wire.anthropic.wide_step.cache_read_ratio', readableBytes(next, earlier) / shared],
      ['wire.openai.fork.shared_ratio', forkSharedRatio(chatFork, 'fork')],
    ];
  } finally {
    await standIn.close();
  }
}
