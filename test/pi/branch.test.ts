import { describe, expect, it } from 'vitest';
import { fauxAssistantMessage, fauxText, fauxToolCall } from '@earendil-works/pi-ai';
import { buildSessionContext, convertToLlm, SessionManager } from '@earendil-works/pi-coding-agent';
import { selectSnapshot } from '../../src/context/index.js';
import { piBranchDialogue, piMessageOf } from '../../src/pi/index.js';

const user = (text: string) => ({ role: 'user' as const, content: [{ type: 'text' as const, text }], timestamp: 1 });

function compactedBranch() {
  const sessions = SessionManager.inMemory('/tmp');
  sessions.appendMessage(user('first question'));
  sessions.appendMessage(fauxAssistantMessage('first answer'));
  const kept = sessions.appendMessage(user('second question'));
  sessions.appendMessage(fauxAssistantMessage('second answer'));
  sessions.appendCompaction('SUMMARY of the first question', kept, 1000);
  sessions.appendMessage(user('third question'));
  sessions.appendMessage(fauxAssistantMessage([fauxText('Delegating.'), fauxToolCall('Agent', { task_name: 'x', message: 'y' }, { id: 'agent_call' })], { stopReason: 'toolUse' }));
  return sessions.getBranch();
}

describe('piBranchDialogue', () => {
  it('reads a compacted branch as the anchored summary, then the kept tail, through Pi’s own context builder', () => {
    const branch = compactedBranch();
    const dialogue = piBranchDialogue(branch);
    const effective = dialogue.effective().toArray();
    expect(effective.map((e) => e.kind)).toEqual(['compaction', 'user', 'assistant', 'user', 'assistant']);
    expect(effective[0]).toMatchObject({ kind: 'compaction', summary: 'SUMMARY of the first question' });
    expect(JSON.stringify(effective)).not.toContain('first answer');
    // Each entry stands for exactly the message Pi sends its provider.
    const sent = convertToLlm(buildSessionContext(branch).messages);
    expect(effective.map((e) => piMessageOf(e))).toEqual(sent);
  });

  it('drops the in-flight Agent call that is the branch’s leaf, and keeps the summary that governs the last turns', () => {
    const dialogue = piBranchDialogue(compactedBranch());
    const all = selectSnapshot(dialogue, 'all', { triggeringCallId: 'agent_call' }).entries.toArray();
    expect(all.at(-1)).toMatchObject({ kind: 'assistant', text: 'Delegating.', toolCalls: [] });
    const last = selectSnapshot(dialogue, { turns: 1 }, { triggeringCallId: 'agent_call' }).entries.toArray();
    expect(last.map((e) => e.kind)).toEqual(['compaction', 'user', 'assistant']);
    expect(last[1]).toMatchObject({ kind: 'user', text: 'third question' });
  });
});
