/**
 * The coordination tools against a port that is only a table: every check, its order and
 * every answer come from `machines/coordination.ts`, whichever host asks. Cases a host's
 * tool-argument schema already refuses (an id that is not a path, a message that is not a
 * string) are reached here directly, as a host's own `runtime.send` reaches them.
 */
import { describe, expect, it } from 'vitest';
import { addressable, agentPathOf, coordinationCall, listFor, messageTarget, type CoordinationCall, type CoordinationPort, type CoordinationRefusal, type DirectoryEntry, type StoppedAgent } from '../../machines/coordination.js';

const entry = (path: string, addressable = true, lastTask: string | null = `task of ${path}`): DirectoryEntry => ({ path, role: undefined, state: addressable ? 'running.idle' : 'preparingSummary', context: 'none', lastTask, addressable });

/** A port over a fixed table of live agents, with a record of the effects asked of it. */
function tablePort(live: readonly DirectoryEntry[], options: { halted?: CoordinationRefusal; ended?: Record<string, { status: 'completed' | 'failed' | 'cancelled'; stopReason: 'completed' | 'closed' | 'cancelled' | 'model_error' }> } = {}) {
  const effects: string[] = [];
  const port: CoordinationPort = {
    halted: () => options.halted,
    entry: (path) => live.find((e) => e.path === path),
    ended: (path) => options.ended?.[path],
    agents: () => live,
    deliver: (from, to, message) => void effects.push(`deliver ${from} ${to} ${message}`),
    cancel: (path, reason, call): StoppedAgent[] => {
      effects.push(`cancel ${path} ${reason} ${call?.by ?? '-'} ${call?.callId ?? '-'}`);
      return live.filter((e) => e.path === path || e.path.startsWith(`${path}/`)).reverse().map((e) => ({ path: e.path, state: e.state }));
    },
    close: (path) => void effects.push(`close ${path}`),
  };
  return { port, effects };
}

const tree = [entry('/root', true, null), entry('/root/a'), entry('/root/a/b'), entry('/root/c'), entry('/root/starting', false)];

describe('coordinationCall', () => {
  it('refuses every call with the halt’s own words while the session is halted, and asks nothing else', () => {
    const { port, effects } = tablePort(tree, { halted: { code: 'session_halted', message: 'the session stopped taking work: disk gone' } });
    const calls: CoordinationCall[] = [
      { ok: true, tool: 'send_message', args: { agent_id: '/root/a', message: 'hi' } },
      { ok: true, tool: 'list_agents', args: {} },
      { ok: true, tool: 'cancel_agent', args: { agent_id: '/root/a' } },
      { ok: true, tool: 'close_agent', args: { agent_id: '/root/a' } },
    ];
    for (const call of calls) {
      expect(coordinationCall(port, '/root', 'c1', call)).toEqual({ content: 'Error (session_halted): the session stopped taking work: disk gone', isError: true });
    }
    expect(effects).toEqual([]);
  });

  it('cancels a live subtree naming the call that asked, answers an ended one with an empty report and an unknown one with the live agents', () => {
    const { port, effects } = tablePort(tree, { ended: { '/root/gone': { status: 'completed', stopReason: 'completed' } } });
    expect(coordinationCall(port, '/root', 'c7', { ok: true, tool: 'cancel_agent', args: { agent_id: '/root/a' } })).toEqual({ content: '{"cancelled":[{"agent_id":"/root/a/b","state":"running.idle"},{"agent_id":"/root/a","state":"running.idle"}]}', isError: false });
    expect(effects).toEqual(['cancel /root/a cancelled by /root /root c7']);
    expect(coordinationCall(port, '/root', 'c8', { ok: true, tool: 'cancel_agent', args: { agent_id: '/root/gone' } })).toEqual({ content: '{"cancelled":[]}', isError: false });
    expect(coordinationCall(port, '/root', 'c9', { ok: true, tool: 'cancel_agent', args: { agent_id: '/root/ghost' } })).toEqual({ content: 'Error (unknown_agent): no agent /root/ghost; live agents: /root, /root/a, /root/a/b, /root/c, /root/starting', isError: true });
    expect(effects).toHaveLength(1);
  });

  it('refuses to cancel or close the caller itself, an agent outside its subtree, or an id that is not a path', () => {
    const { port, effects } = tablePort(tree);
    const refusal = (tool: 'cancel_agent' | 'close_agent', id: string) => coordinationCall(port, '/root/a', 'c1', { ok: true, tool, args: { agent_id: id } } as CoordinationCall).content;
    expect(refusal('cancel_agent', '/root/a')).toBe('Error (not_permitted): /root/a may only cancel its own subagents (and theirs); /root/a is not one of them');
    expect(refusal('close_agent', '/root/c')).toBe('Error (not_permitted): /root/a may only close its own subagents (and theirs); /root/c is not one of them');
    // A sibling whose name starts with the caller's is not in its subtree.
    expect(refusal('cancel_agent', '/root/ab')).toMatch(/^Error \(not_permitted\)/);
    expect(refusal('close_agent', 'root/a/b')).toBe('Error (invalid_arguments): agent_id must be an agent path such as "/root" or "/root/research" (got "root/a/b")');
    expect(effects).toEqual([]);
    expect(coordinationCall(port, '/root/a', 'c2', { ok: true, tool: 'close_agent', args: { agent_id: '/root/a/b' } })).toEqual({ content: '{"agent_id":"/root/a/b","status":"closing"}', isError: false });
    expect(effects).toEqual(['close /root/a/b']);
  });
});

describe('messageTarget and addressable', () => {
  it('checks the text, then the path, then the scope, then that the target runs', () => {
    const { port } = tablePort(tree, { ended: { '/root/done': { status: 'completed', stopReason: 'completed' }, '/root/shut': { status: 'completed', stopReason: 'closed' }, '/root/stopped': { status: 'cancelled', stopReason: 'cancelled' } } });
    expect(messageTarget(port, '/root', '/root/a', 42 as unknown as string)).toEqual({ code: 'invalid_arguments', message: 'message must be a non-empty string' });
    expect(messageTarget(port, '/root', 'nowhere', ' \n ')).toMatchObject({ code: 'invalid_arguments', message: 'message must be a non-empty string' });
    expect(messageTarget(port, '/root', 'nowhere', 'hi')).toMatchObject({ code: 'invalid_arguments', message: expect.stringContaining('got "nowhere"') });
    expect(messageTarget(port, '/root', '/root/a/b', 'hi')).toMatchObject({ code: 'not_permitted' });
    expect(messageTarget(port, '/root', '/root/starting', 'hi')).toEqual({ code: 'not_published', message: 'agent /root/starting is still starting (not yet running) and cannot take messages yet' });
    expect(messageTarget(port, '/root', '/root/a/', 'hi')).toBe('/root/a');
    expect(addressable(port, '/root/done')).toEqual({ code: 'agent_closed', message: 'agent /root/done has finished and takes no more messages' });
    expect(addressable(port, '/root/shut')?.message).toBe('agent /root/shut has been closed and takes no more messages');
    expect(addressable(port, '/root/stopped')?.message).toBe('agent /root/stopped has been cancelled and takes no more messages');
    expect(addressable(port, '/root/a')).toBeUndefined();
  });

  it('reads trailing slashes off an agent id, and nothing else', () => {
    expect(agentPathOf('/root/a/')).toBe('/root/a');
    expect(agentPathOf('/root/a///')).toBe('/root/a');
    expect(agentPathOf('/root/a')).toBe('/root/a');
    expect(agentPathOf(7 as unknown as string)).toMatchObject({ code: 'invalid_arguments' });
  });
});

describe('listFor', () => {
  it('shows the running agents the viewer may message, in tree order, with the host’s scope', () => {
    const { port } = tablePort(tree);
    expect(listFor(port, '/root/a').map((e) => e.path)).toEqual(['/root', '/root/a/b', '/root/c']);
    const session = { ...port, messaging: { scope: 'session' as const } };
    expect(listFor(session, '/root/a').map((e) => e.path)).toEqual(['/root', '/root/a/b', '/root/c']);
    expect(listFor(session, '/root/a/b').map((e) => e.path)).toEqual(['/root', '/root/a', '/root/c']);
    expect(listFor(port, '/root/a/b').map((e) => e.path)).toEqual(['/root/a']);
  });
});
