/**
 * Fork prefix figures, measured through the runtime with the scripted model's simulated
 * provider cache:
 * - `prefix.fork.shared_ratio`: bytes of a same-preset fork's first request shared with its
 *   parent's last request, over the bytes the fork inherited (head + copied messages). Goal: 1.
 *   The fork's own `result.prefix` must report the same bytes, or the bench fails.
 * - `prefix.fork8.prefill_saved_ratio`: a parent with a ~50,000-token dialogue forks 8
 *   subagents at once; the share of their input tokens the cache serves instead of prefilling.
 */
import { serializeHead, serializeMessage, sharedRequestPrefix } from '../src/request/serialize.js';
import { scriptedModel } from '../src/model/scripted.js';
import { createRuntime } from '../src/runtime/runtime.js';
import type { BenchFigures } from './run.js';

const TOKENS = 50_000;

export default async function (): Promise<BenchFigures> {
  const forks = Array.from({ length: 8 }, (_, i) => ({ name: 'Agent', arguments: { task_name: `fork${i}`, message: `check area ${i}`, context: 'all' } }));
  const model = scriptedModel(
    {
      '/root': {
        0: [{ text: 'Noted the findings.' }],
        1: [{ toolCalls: forks }, { text: 'all forks reported' }],
      },
      '/root/*': { 0: [{ text: 'area checked' }] },
    },
    { cache: true },
  );
  // One-shot forks: each reports its result (and prefix figures) once it answers.
  const rt = createRuntime({ model, limits: { maxChildren: 8 }, defaults: { lifetime: 'one-shot' } });
  // About 4 bytes a token: one long first turn makes the ~50k-token dialogue.
  rt.prompt(`Findings so far:\n${'The parser handles nested blocks; the lexer is stable. '.repeat((TOKENS * 4) / 56)}`);
  await rt.whenQuiet();
  rt.prompt('Check each area in parallel.');
  await rt.whenQuiet();

  const parentLast = model.calls.find((c) => c.agentPath === '/root' && c.turn === 1 && c.step === 0)!.request;
  const firstFork = model.calls.find((c) => c.agentPath === '/root/fork0')!.request;
  const inheritedEntries = firstFork.messages.toArray().slice(0, -1);
  const inheritedBytes =
    Buffer.byteLength(serializeHead(firstFork.system), 'utf8') + inheritedEntries.reduce((n, e) => n + Buffer.byteLength(serializeMessage(e), 'utf8'), 0);
  const shared = Math.min(sharedRequestPrefix(parentLast, firstFork), inheritedBytes);

  const forkResults = rt.results.filter((r) => r.path.startsWith('/root/fork'));
  // What the runtime itself reports must agree with the bytes measured here.
  const reported = forkResults.find((r) => r.path === '/root/fork0')!.prefix;
  if (reported.sharedBytes !== shared || reported.inheritedBytes !== inheritedBytes) {
    throw new Error(`fork0 reports ${reported.sharedBytes}/${reported.inheritedBytes} shared/inherited bytes; measured ${shared}/${inheritedBytes}`);
  }
  const input = forkResults.reduce((n, r) => n + r.usage.inputTokens, 0);
  const read = forkResults.reduce((n, r) => n + r.usage.cacheReadTokens, 0);
  rt.stop();
  return [
    ['prefix.fork.shared_ratio', shared / inheritedBytes],
    ['prefix.fork8.input_tokens_per_fork', Math.round(input / forkResults.length)],
    ['prefix.fork8.prefill_saved_ratio', read / input],
  ];
}
