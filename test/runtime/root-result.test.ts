/**
 * The root's own result, in a session that never delegated (lifecycle.watch configures the
 * tree's reports from the root, not from its first subagent): when the session stops, the
 * root actor's output is the result the host gets, completed by the runtime (its elapsed time
 * by the runtime's clock, its usage from its account).
 */
import { describe, expect, it } from 'vitest';
import type { InspectionEvent } from 'xstate';
import type { AgentResult } from '../../machines/agent.types.js';
import { scriptedModel } from '../../src/model/scripted.js';
import { createRuntime } from '../../src/runtime/runtime.js';

describe("the root's result", () => {
  it("is its actor's output, completed by the runtime, though no subagent ever ran", async () => {
    let output: AgentResult | undefined;
    const inspect = (event: InspectionEvent): void => {
      if (event.type !== '@xstate.snapshot') return;
      const snapshot = event.snapshot as { status?: string; output?: AgentResult };
      if (snapshot.status === 'done' && snapshot.output?.path === '/root') output = snapshot.output;
    };
    let now = 1_000;
    const rt = createRuntime({ model: scriptedModel({ '/root': { 0: [{ text: 'hi', usage: { inputTokens: 5, outputTokens: 1 } }] } }), inspect, now: () => now });
    await rt.prompt('hello');
    now = 61_000;
    rt.stop('done for today');
    const result = await rt.result('/root');
    expect(result).toMatchObject({ path: '/root', status: 'cancelled', elapsedMs: 60_000, usage: { inputTokens: 5, outputTokens: 1 }, subtreeUsage: { inputTokens: 5, outputTokens: 1 } });
    // The inspected output is sanitized (no dialogues): its figures are compared.
    expect(output).toMatchObject({ status: result.status, error: result.error, elapsedMs: result.elapsedMs, usage: result.usage, subtreeUsage: result.subtreeUsage });
  });
});
