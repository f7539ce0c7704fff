/**
 * A settling agent's result is completed by the runtime when the agent takes it (subtree
 * usage, elapsed time by the runtime's clock), so the actor's output, the `result` event, and
 * the parent's report are one result, and nothing is kept per result once it is delivered.
 */
import { describe, expect, it } from 'vitest';
import type { InspectionEvent } from 'xstate';
import type { AgentResult } from '../../machines/agent.types.js';
import { scriptedModel } from '../../src/model/scripted.js';
import { createRuntime } from '../../src/runtime/runtime.js';

describe('the completed result', () => {
  it("is the actor's output, the result event and the figures of the parent's report", async () => {
    const model = scriptedModel({
      '/root': {
        0: [{ toolCalls: [{ id: 'c1', name: 'Agent', arguments: { task_name: 'research', message: 'look', role: 'r' } }] }, { text: 'done' }],
      },
      '/root/research': {
        0: [{ text: 'found it', usage: { inputTokens: 12, outputTokens: 3 } }],
      },
    });
    const outputs = new Map<string, AgentResult>();
    const inspect = (event: InspectionEvent): void => {
      if (event.type !== '@xstate.snapshot') return;
      const snapshot = event.snapshot as { status?: string; output?: AgentResult };
      if (snapshot.status === 'done' && snapshot.output?.path) outputs.set(snapshot.output.path, snapshot.output);
    };
    let t = 1_000;
    const rt = createRuntime({ model, inspect, now: () => (t += 10) });
    const results = new Map<string, AgentResult>();
    rt.on('result', (r) => void results.set(r.path, r));
    rt.prompt('go');
    await rt.whenQuiet();

    const research = results.get("/root/research")!;
    // The runtime's figures: its subtree holds its subagent's usage, its time is the runtime clock's.
    expect(research.subtreeUsage?.inputTokens).toBe(12);
    expect(research.elapsedMs).toBeGreaterThan(0);
    expect(outputs.get('/root/research')).toMatchObject({ subtreeUsage: research.subtreeUsage, elapsedMs: research.elapsedMs, usage: research.usage });
    // What the parent's model read of it: the same elapsed time.
    const seen = model.calls.filter((c) => c.agentPath === '/root').flatMap((c) => [...c.request.messages]).find((m) => m.kind === 'tool_result' && m.callId === 'c1');
    expect(seen && 'content' in seen ? seen.content : '').toContain(`"elapsed_ms":${research.elapsedMs}`);
  });
});
