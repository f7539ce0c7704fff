/**
 * What a result costs the parent model, measured through the runtime:
 * - `tokens.result_overhead_bytes`: bytes of metadata the parent model receives with one
 *   subagent result under the default metadata (the tool result's bytes minus the answer's
 *   own JSON string). Budget: 170 (agent_id, context, elapsed_ms, status, stop_reason and
 *   session_id; a role name adds its length).
 */
import { canonicalJson } from '../src/request/canonical.js';
import { scriptedModel } from '../src/model/scripted.js';
import { createRuntime } from '../src/runtime/runtime.js';
import type { BenchFigures } from './run.js';

export default async function (): Promise<BenchFigures> {
  const answer = 'src/parser.ts:88 drops the closing brace of nested blocks.';
  const model = scriptedModel({
    '/root': {
      0: [{ toolCalls: [{ id: 'call_1', name: 'Agent', arguments: { task_name: 'research', message: 'Find where the parser fails' } }] }, { text: 'ok' }],
    },
    '/root/research': { 0: [{ text: answer }] },
  });
  const rt = createRuntime({ model });
  rt.prompt('Why do nested blocks break?');
  await rt.whenQuiet();
  const seen = model.calls
    .flatMap((c) => c.request.messages.toArray())
    .find((e) => e.kind === 'tool_result' && e.callId === 'call_1');
  if (seen?.kind !== 'tool_result') throw new Error('results bench: the parent never saw the result');
  rt.stop();
  return [['tokens.result_overhead_bytes', Buffer.byteLength(seen.content, 'utf8') - Buffer.byteLength(canonicalJson(answer), 'utf8')]];
}
