/**
 * Three edges of the agent's chart that only a hand-written test reached (each one a mutant
 * of the machine's configuration that survived every other test): the step cap when an
 * inbox item arrives during a one-shot agent's last allowed request, a failed model request
 * of a continuable subagent, and a settled subagent leaving its parent's holder.
 */
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, toPromise } from 'xstate';
import { agentMachine } from '../../machines/agent.machine.js';
import { createAgentInput } from '../../machines/agent.input.js';
import type { AgentContext, AgentResult, SampleInput, SampleOutput } from '../../machines/agent.types.js';
import { subagentOf, subagentsOf } from '../../machines/subagents.js';
import { ZERO_USAGE } from '../../src/request/usage.js';
import { afterMicrotasks } from '../../src/testing/deferred.js';
import { driveAgent } from './agent-driver.js';

const item = (text: string) => ({ text, origin: { kind: 'message' as const, from: '/root' } });

describe('the step cap and a late inbox item', () => {
  it('a one-shot agent with maxSteps 2 that gets an inbox item during its last allowed request settles max_steps after it, with no third request', async () => {
    const agent = driveAgent(createAgentInput({ model: 'm', task: 't', path: '/root/w', lifetime: 'one-shot', maxSteps: 2 }));
    await agent.reply({ text: 'calling', toolCalls: [{ name: 'lookup' }] });
    await agent.answerTools();
    expect(agent.requests()).toHaveLength(2);
    agent.send({ type: 'inbox', item: item('one more thing') });
    await agent.reply({ text: 'my last answer' });
    expect(agent.requests()).toHaveLength(2);
    expect(agent.results).toEqual([expect.objectContaining({ status: 'failed', stopReason: 'max_steps', text: 'my last answer' })]);
    expect(agent.actor.getSnapshot().status).toBe('done');
  });

  it('a continuable agent in the same place ends its turn max_steps and waits, with no third request', async () => {
    const agent = driveAgent(createAgentInput({ model: 'm', task: 't', path: '/root/w', lifetime: 'continuable', maxSteps: 2 }));
    await agent.reply({ text: 'calling', toolCalls: [{ name: 'lookup' }] });
    await agent.answerTools();
    agent.send({ type: 'inbox', item: item('one more thing') });
    await agent.reply({ text: 'my last answer' });
    expect(agent.requests()).toHaveLength(2);
    expect(agent.turns).toEqual([expect.objectContaining({ status: 'max_steps', stopReason: 'max_steps' })]);
    expect(agent.key()).toMatch(/^running\.idle/);
  });
});

describe('a failed model request', () => {
  it('settles a continuable subagent with model_error and delivers its one result', async () => {
    const agent = driveAgent(createAgentInput({ model: 'm', task: 't', path: '/root/w', lifetime: 'continuable' }));
    await agent.failModel(new Error('the provider is down'));
    expect(agent.results).toEqual([expect.objectContaining({ path: '/root/w', status: 'failed', stopReason: 'model_error', error: 'the provider is down' })]);
    expect(agent.turns).toEqual([]);
    expect(agent.actor.getSnapshot().status).toBe('done');
  });

  it('reports it to the parent actor', async () => {
    // The open root makes no request until prompted; every request fails.
    const logic = agentMachine.provide({
      actors: { sampleModel: fromPromise<SampleOutput, SampleInput>(() => Promise.reject(new Error('the provider is down'))) },
      actions: { releaseAndReport: () => {} },
    });
    const root = createActor(logic, { input: createAgentInput({ model: 'm' }) }).start();
    // Parent delivery: the result reaches the parent as an inbox notice (no Agent call waits here).
    root.send({ type: 'subagent.spawn', input: createAgentInput({ model: 'm', task: 't', path: '/root/w', lifetime: 'continuable', delivery: 'parent' }) });
    const sub = subagentOf(root, '/root/w')!;
    await afterMicrotasks();
    expect(sub.getSnapshot().status).toBe('done');
    // The notice of its result opened a turn of the root (whose own request then failed too).
    const notices = (root.getSnapshot().context as AgentContext).dialogue.log.toArray().filter((e) => e.kind === 'user' && e.origin.kind === 'notice');
    expect(notices).toHaveLength(1);
    expect(notices[0]?.kind === 'user' && notices[0].text).toMatch(/"agent_id":"\/root\/w".*"status":"failed","stop_reason":"model_error"/);
    root.stop();
  });
});

describe('a settled subagent leaves its parent', () => {
  it('is no longer held, and its actor id is handed out again', async () => {
    const results: AgentResult[] = [];
    const logic = agentMachine.provide({
      actors: { sampleModel: fromPromise<SampleOutput, SampleInput>(async () => ({ response: { text: 'done', toolCalls: [], usage: ZERO_USAGE }, compaction: undefined })) },
      actions: { releaseAndReport: (_, { result }) => void results.push(result) },
    });
    const root = createActor(logic, { input: createAgentInput({ model: 'm' }) }).start();
    const input = (path: string) => createAgentInput({ model: 'm', task: `work of ${path}`, path });
    root.send({ type: 'subagent.spawn', input: input('/root/a') });
    const a = subagentOf(root, '/root/a')!;
    expect(a.id).toBe('subagent:0');
    await toPromise(a);
    expect(results.map((r) => `${r.path} ${r.status}`)).toContain('/root/a completed');
    expect(subagentOf(root, '/root/a')).toBeUndefined();
    expect(subagentsOf(root)).toEqual([]);
    root.send({ type: 'subagent.spawn', input: input('/root/a') });
    expect(subagentOf(root, '/root/a')?.id).toBe('subagent:0');
    root.stop();
  });
});
