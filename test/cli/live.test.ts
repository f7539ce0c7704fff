import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { simulateReadableStream } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { loadLiveModel, parseLiveSpec } from '../../src/cli/live.js';
import { runCli } from '../../src/cli/main.js';

function collector() {
  const chunks: string[] = [];
  return { sink: { isTTY: false, write: (text: string) => (chunks.push(text), true) }, text: () => chunks.join('') };
}

/** A provider module like `@ai-sdk/anthropic`: a factory named after the provider, generating or streaming (the demo streams). */
function fakeProvider(reply: (prompt: unknown) => { text?: string; toolCalls?: Array<{ name: string; input: object }> }) {
  let calls = 0;
  let streamed = 0;
  const answer = (prompt: unknown) => {
    calls++;
    const r = reply(prompt);
    return {
      text: r.text,
      toolCalls: (r.toolCalls ?? []).map((c, i) => ({ type: 'tool-call' as const, toolCallId: `live_${calls}_${i}`, toolName: c.name, input: JSON.stringify(c.input) })),
      finishReason: { unified: r.toolCalls?.length ? ('tool-calls' as const) : ('stop' as const), raw: undefined },
      usage: { inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 5, text: 5, reasoning: 0 } },
    };
  };
  const factory = (modelId: string) =>
    new MockLanguageModelV4({
      modelId,
      doGenerate: async (options) => {
        const a = answer(options.prompt);
        return { content: [...(a.text ? [{ type: 'text' as const, text: a.text }] : []), ...a.toolCalls], finishReason: a.finishReason, usage: a.usage, warnings: [] };
      },
      doStream: async (options) => {
        streamed++;
        const a = answer(options.prompt);
        const chunks: LanguageModelV4StreamPart[] = [
          { type: 'stream-start', warnings: [] },
          ...(a.text ? [{ type: 'text-start' as const, id: 't' }, { type: 'text-delta' as const, id: 't', delta: a.text }, { type: 'text-end' as const, id: 't' }] : []),
          ...a.toolCalls,
          { type: 'finish', finishReason: a.finishReason, usage: a.usage },
        ];
        return { stream: simulateReadableStream({ chunks, initialDelayInMs: null, chunkDelayInMs: null }) };
      },
    });
  return { module: { anthropic: factory }, calls: () => calls, streamed: () => streamed };
}

describe('--live', () => {
  it('parses provider:model and names the package', () => {
    expect(parseLiveSpec('anthropic:claude-sonnet-4-5')).toEqual({ provider: 'anthropic', modelId: 'claude-sonnet-4-5', packageName: '@ai-sdk/anthropic' });
    expect(() => parseLiveSpec('claude')).toThrow(/provider:model/);
  });

  it('says which package to install when the provider is missing', async () => {
    await expect(loadLiveModel(parseLiveSpec('anthropic:x'), () => Promise.reject(new Error('not found')))).rejects.toThrow('npm i @ai-sdk/anthropic');
    await expect(loadLiveModel(parseLiveSpec('anthropic:x'), async () => ({}))).rejects.toThrow(/does not export a provider named "anthropic"/);
  });

  it('runs the demo session with the real-model adapter deciding what to delegate', async () => {
    let spawned = false;
    const provider = fakeProvider(() => {
      if (!spawned) {
        spawned = true;
        return { text: 'Delegating.', toolCalls: [{ name: 'Agent', input: { task_name: 'audit', message: 'Audit the changelog.', context: 'all' } }] };
      }
      return { text: 'All done.' };
    });
    const out = collector();
    const err = collector();
    const code = await runCli(['--live', 'anthropic:claude-test', '--latency', '0'], { out: out.sink, err: err.sink, importer: async () => provider.module });
    expect(err.text()).toContain('live mode: anthropic model claude-test');
    expect(code).toBe(0);
    expect(out.text()).toContain('/root ▸ Agent → audit (context all)');
    // The fork is continuable (the default for forks): after its answer it waits idle for
    // follow-ups, and the demo's stop cancels it.
    expect(out.text()).toMatch(/\/root\/audit\s+running\.idle/);
    expect(provider.calls()).toBeGreaterThan(3);
    expect(provider.streamed()).toBe(provider.calls()); // the demo iterates events, so every request streams
  });
});
