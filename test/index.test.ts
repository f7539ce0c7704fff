import { describe, expect, it } from 'vitest';
import * as api from '../src/index.js';
import { createRuntime, type AgentResult } from '../src/index.js';
import { BUILTIN_TOOL_NAMES, BUILTIN_TOOL_SCHEMAS } from '../src/request/index.js';
import { scriptedModel } from '../src/testing/index.js';

describe('public API', () => {
  it('runs the README example', async () => {
    const model = scriptedModel({
      '/root': {
        0: [
          { toolCalls: [{ name: 'Agent', arguments: { task_name: 'research', message: 'Find where the parser fails', context: 'all' } }] },
          // A fork is continuable: it answered the call and waits for follow-ups until closed.
          { toolCalls: [{ name: 'close_agent', arguments: { agent_id: '/root/research' } }] },
          { text: 'The parser fails on nested blocks.' },
        ],
      },
      '/root/research': { 0: [{ text: 'src/parser.ts:88 drops the closing brace of nested blocks.' }] },
    });
    const runtime = createRuntime({ model });
    const seen: AgentResult[] = [];
    runtime.on('result', (r) => seen.push(r));
    runtime.prompt('Why do nested blocks break?');
    await runtime.whenQuiet();
    expect(seen.map((r) => [r.path, r.status, r.text])).toEqual([['/root/research', 'completed', 'src/parser.ts:88 drops the closing brace of nested blocks.']]);
    const last = runtime.transcript('/root')?.at(-1);
    expect(last?.kind === 'assistant' && last.text).toBe('The parser fails on nested blocks.');
  });

  it('exports the runtime entry points as values', () => {
    const values = ['createRuntime', 'defineRuntimeTool', 'RuntimeError', 'modelSummarizer', 'loadDefinitions', 'createCapabilityCatalog', 'describeConfirmation', 'loadProjectContext'] as const;
    for (const name of values) expect(typeof (api as Record<string, unknown>)[name], name).toBe('function');
    expect(BUILTIN_TOOL_NAMES).toEqual(['Agent', 'send_message', 'list_agents', 'cancel_agent', 'close_agent']);
  });

  it('tool descriptions say subagent, never "child agent"', () => {
    const text = JSON.stringify(BUILTIN_TOOL_SCHEMAS);
    expect(text).toMatch(/subagent/i);
    expect(text).not.toMatch(/child agent/i);
  });
});
