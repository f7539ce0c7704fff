/**
 * The Stately inspector path: `createRuntime({ inspect })` with `@statelyai/inspect`'s
 * WebSocket inspector, against a local WebSocket server. Actor, event and snapshot messages
 * arrive for the whole tree, and no message carries a dialogue.
 */
import { createWebSocketInspector } from '@statelyai/inspect';
import { describe, expect, it } from 'vitest';
import { createRuntime } from '../../src/runtime/runtime.js';
import { sanitizingInspectorOptions } from '../../src/inspect/stately.js';
import { collectingServer, MARKER, ONE_SHOT_FORKS, sessionModel, SYSTEM_PROMPT, type StatelyMessage } from './helpers.js';

const isAgentSnapshot = (m: StatelyMessage): boolean => m.type === '@xstate.snapshot' && m.snapshot?.context !== undefined && 'dialogue' in m.snapshot.context;

async function inspectSession(sanitizing: boolean) {
  const server = await collectingServer();
  const inspector = createWebSocketInspector({ url: server.url, ...(sanitizing ? sanitizingInspectorOptions() : {}) });
  await server.connected;
  const rt = createRuntime({ model: sessionModel(), systemPrompt: SYSTEM_PROMPT, ...ONE_SHOT_FORKS, inspect: inspector.inspect });
  rt.prompt(`Please find the answer. ${MARKER}`);
  await rt.whenQuiet();
  const { received } = server;
  // The inspector sends each event a tick later: wait for the session's last messages.
  await received.until(() => {
    const child = received.about('/root/research', '@xstate.snapshot');
    const root = received.about('/root', '@xstate.snapshot');
    return child.some((m) => m.snapshot?.status === 'done') && root.some((m) => (m.snapshot?.context?.dialogue as { entries?: number } | undefined)?.entries === 4);
  });
  inspector.stop();
  await server.close();
  return received;
}

describe.each([
  ['the runtime alone', false],
  ['the runtime with sanitizingInspectorOptions()', true],
])('Stately WebSocket inspector, %s', (_, sanitizing) => {
  it('receives actor, event and snapshot messages for the root and its subagent, without dialogues', async () => {
    const received = await inspectSession(sanitizing);
    for (const path of ['/root', '/root/research']) {
      expect(received.about(path, '@xstate.actor'), path).toHaveLength(1);
      expect(received.about(path, '@xstate.event').length, path).toBeGreaterThan(0);
      expect(received.about(path, '@xstate.snapshot').length, path).toBeGreaterThan(0);
    }
    expect([...received.names().values()]).toEqual(expect.arrayContaining(['model', 'tools']));

    expect(received.raw.filter((text) => text.includes(MARKER))).toEqual([]);
    const agentSnapshots = received.messages.filter(isAgentSnapshot);
    expect(agentSnapshots.length).toBeGreaterThan(4);
    for (const m of agentSnapshots) {
      expect(m.snapshot?.context?.dialogue).toEqual({ entries: expect.any(Number), last: expect.toSatisfy((v: unknown) => v === null || typeof v === 'object') });
    }
    const last = received.about('/root', '@xstate.snapshot').at(-1)!;
    expect(last.snapshot?.value).toEqual({ running: 'idle' });
    expect(last.snapshot?.context?.dialogue).toEqual({ entries: 4, last: { kind: 'assistant', text: 'the answer is 42', toolCalls: [] } });
  });

  if (sanitizing) {
    it('sends no request head either (model requests and actor registrations are sanitized too)', async () => {
      const received = await inspectSession(true);
      expect(received.raw.filter((text) => text.includes(SYSTEM_PROMPT))).toEqual([]);
      const model = received.messages.find((m) => m.type === '@xstate.snapshot' && received.names().get(m.sessionId) === 'model')!;
      expect((model.snapshot as { input?: { system?: unknown } }).input?.system).toEqual({ preset: 'default', tools: expect.arrayContaining(['Agent', 'send_message']) });
    });
  }
});
