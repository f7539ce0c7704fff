/**
 * What `list_agents` shows under the host's messaging policy: the agents the viewer may
 * message under its scope, and task text as `messaging.taskText` redacts it. A redaction that
 * throws or returns something other than a string hides the text; the root has no task to show.
 */
import { describe, expect, it } from 'vitest';
import { createRuntime } from '../../src/runtime/runtime.js';
import type { ModelAdapter } from '../../src/model/adapter.js';
import type { ModelResponse } from '../../src/request/reply.js';
import type { RuntimeOptions } from '../../src/runtime/types.js';
import { ZERO_USAGE } from '../../src/request/usage.js';

type Listed = { agent_id: string; last_task: string | null }[];

/** A session where `/root/lister` lists the agents on its first step, after its siblings started. */
async function listingOf(options: Partial<RuntimeOptions>, siblings: readonly string[], deep?: string): Promise<Listed> {
  let listing: Listed | undefined;
  const model: ModelAdapter = {
    name: 'listing',
    sample: async (request, context): Promise<ModelResponse> => {
      const last = request.messages.toArray().at(-1);
      if (context.agentPath === '/root/lister') {
        if (last?.kind === 'tool_result') {
          listing = (JSON.parse(last.content) as { agents: Listed }).agents;
          return { text: 'listed', toolCalls: [], usage: ZERO_USAGE };
        }
        return { text: '', toolCalls: [{ id: 'l1', name: 'list_agents', arguments: {} }], usage: ZERO_USAGE };
      }
      if (deep !== undefined && context.agentPath === `/root/${siblings[0]}` && context.step === 0) {
        return { text: '', toolCalls: [{ id: 'd1', name: 'Agent', arguments: { task_name: deep, message: `deep task of ${deep}` } }], usage: ZERO_USAGE };
      }
      return { text: `${context.agentPath} done`, toolCalls: [], usage: ZERO_USAGE };
    },
  };
  const rt = createRuntime({ model, defaults: { lifetime: 'continuable' }, ...options });
  try {
    for (const name of siblings) await (await rt.spawn('/root', { task_name: name, message: `task of ${name}` })).firstReport;
    await (await rt.spawn('/root', { task_name: 'lister', message: 'who is there' })).firstReport;
    return listing!;
  } finally {
    rt.stop();
  }
}

describe('list_agents under the host’s messaging policy', () => {
  it('redacts task text as the policy says, hides it when the policy throws or returns a non-string, and never shows one for the root', async () => {
    const asked: string[] = [];
    const taskText = ({ path, task }: { path: string; task: string }): string => {
      asked.push(path);
      if (path === '/root/odd') return 42 as unknown as string;
      if (path === '/root/boom') throw new Error('policy failed');
      return `${task.length} chars`;
    };
    const listed = await listingOf({ messaging: { taskText } }, ['odd', 'boom', 'plain']);
    expect(listed).toEqual([
      expect.objectContaining({ agent_id: '/root', last_task: null }),
      expect.objectContaining({ agent_id: '/root/odd', last_task: null }),
      expect.objectContaining({ agent_id: '/root/boom', last_task: null }),
      expect.objectContaining({ agent_id: '/root/plain', last_task: `${'task of plain'.length} chars` }),
    ]);
    // The root has no task: the policy is not asked about it.
    expect(asked).not.toContain('/root');
  });

  it('lists beyond the family under the session scope, with full task text when no redaction is set', async () => {
    const family = await listingOf({}, ['mid'], 'deep');
    expect(family.map((a) => a.agent_id)).toEqual(['/root', '/root/mid']);
    const session = await listingOf({ messaging: { scope: 'session' } }, ['mid'], 'deep');
    expect(session).toEqual([
      expect.objectContaining({ agent_id: '/root', last_task: null }),
      expect.objectContaining({ agent_id: '/root/mid', last_task: 'task of mid' }),
      expect.objectContaining({ agent_id: '/root/mid/deep', last_task: 'deep task of deep' }),
    ]);
  });
});
