/**
 * Pins the serialized requests of a parent and of every kind of subagent, built from tiny
 * synthetic dialogues with fixed ids. Head frames and messages equal to the parent's are
 * written as references (`= parent ...`) so the snapshots show exactly what each subagent
 * adds or changes, without repeating the parent's dialogue or tool schemas.
 */
import { describe, expect, it } from 'vitest';
import { assistantEntry, compactionEntry, toolResultEntry, userEntry, type Entry } from '../../src/dialogue/entry.js';
import { assembleRequest, comparePrefix } from '../../src/request/prefix.js';
import { resolvePreset } from '../../src/request/preset.js';
import { buildSystemConfiguration } from '../../src/request/system.js';
import { createToolRegistry } from '../../src/request/registry.js';
import { requestHeadHash, requestPrefixBytes, serializeHead, serializeMessage, serializeModelFrame, serializeRequest, sharedRequestPrefix } from '../../src/request/serialize.js';
import type { ModelRequest } from '../../src/request/types.js';
import { forkTaskWrapper, independentTaskText } from '../../src/request/wrapper.js';
import { agentToolSchema, roleCatalog } from '../../src/request/role-catalog.js';
import { BUILTIN_TOOL_SCHEMAS } from '../../src/request/tools.js';
import { ALL_TOOLS, seq } from './helpers.js';

const presets = {
  base: { name: 'base', systemPrompt: 'You are a careful engineer.', tools: [...ALL_TOOLS], defaults: { forkLifetime: 'continuable' as const } },
  reviewer: { name: 'reviewer', extends: 'base', systemPrompt: 'You review code strictly. Report defects only.' },
};
const registry = createToolRegistry();
const parentSystem = buildSystemConfiguration({ preset: resolvePreset('base', presets), registry });
const MODEL = 'm-large';

// The parent's effective dialogue: an anchored summary, one finished turn, the active turn.
const parentEntries: Entry[] = [
  compactionEntry({ id: 'c1', summary: 'Earlier: set up the repo.', anchorId: 'u1' }),
  userEntry({ id: 'u1', text: 'Check the build.' }),
  assistantEntry({ id: 'a1', text: '', toolCalls: [{ id: 'call_1', name: 'shell', arguments: { cmd: 'npm test' } }] }),
  toolResultEntry({ id: 'r1', callId: 'call_1', toolName: 'shell', content: '2 failing' }),
  assistantEntry({ id: 'a2', text: 'Two tests fail.' }),
  userEntry({ id: 'u2', text: 'Find out why, in parallel.' }),
];
const parent = assembleRequest({ system: parentSystem, messages: seq(parentEntries), model: MODEL, effort: 'high' });
const TASK = 'Find why test/a.test.ts fails.';
const task = (text: string): Entry => userEntry({ id: 't1', text, origin: { kind: 'task', from: '/root' } });

/** A label for each frame of the parent's head: `system prompt`, `tool <name>`. */
const parentHeadLabels = new Map(
  serializeHead(parent.system)
    .split('\n')
    .slice(0, -1)
    .map((frame, i) => [frame, i === 0 ? 'system prompt' : `tool ${(JSON.parse(frame) as { name: string }).name}`]),
);

/**
 * The request's frames, one a line. With `references`, head frames and messages equal to the
 * parent's are written as `= parent ...`, so a subagent's snapshot shows only what differs.
 */
function render(req: ModelRequest, references = true): string {
  const lines: string[] = [];
  if (references && serializeHead(req.system) === serializeHead(parent.system)) {
    lines.push(`= parent head (sha256 ${requestHeadHash(req.system).slice(0, 12)})`);
  } else {
    for (const frame of serializeHead(req.system).split('\n').slice(0, -1)) {
      const label = parentHeadLabels.get(frame);
      lines.push(references && label !== undefined ? `= parent ${label}` : frame);
    }
  }
  const parentMessages = parentEntries.map(serializeMessage);
  for (const entry of req.messages) {
    const frame = serializeMessage(entry);
    const at = parentMessages.indexOf(frame);
    lines.push(references && at >= 0 ? `= parent message ${at}` : frame.trimEnd());
  }
  lines.push(serializeModelFrame(req.model, req.effort).trimEnd());
  return lines.join('\n');
}

function describeChild(req: ModelRequest) {
  return {
    prefix: comparePrefix({ system: parent.system, model: parent.model }, { system: req.system, model: req.model }),
    sharedBytes: sharedRequestPrefix(parent, req),
    request: render(req),
  };
}

const forkTask = (contextMode: 'all' | 'turns' | 'summary', system = parentSystem) =>
  task(forkTaskWrapper({ task: TASK, parentPath: '/root', contextMode, visibleTools: system }));

describe('request heads', () => {
  it('parent', () => {
    expect(requestHeadHash(parentSystem)).toMatchSnapshot('head hash');
    expect(render(parent, false)).toMatchSnapshot('request');
  });

  it('isolated subagent (role with its own system prompt)', () => {
    const system = buildSystemConfiguration({ preset: resolvePreset('reviewer', presets), registry });
    const text = independentTaskText({ task: TASK, projectContext: 'Run tests with npm test.', attachments: [], parentPath: '/root', visibleTools: system });
    const req = assembleRequest({ system, messages: seq([task(text)]), model: MODEL, effort: 'high' });
    const child = describeChild(req);
    expect(child.prefix).toEqual({ shared: false, reasons: ['different_preset', 'different_system_prompt'] });
    expect(child).toMatchSnapshot();
  });

  it('context all', () => {
    const req = assembleRequest({ system: parentSystem, messages: seq([...parentEntries, forkTask('all')]), model: MODEL, effort: 'high' });
    const child = describeChild(req);
    expect(child.prefix).toEqual({ shared: true });
    expect(child.sharedBytes).toBeGreaterThanOrEqual(requestPrefixBytes(parent));
    expect(child).toMatchSnapshot();
  });

  it('context N = 1 (the governing summary, then the last turn)', () => {
    const [summary] = parentEntries;
    const lastTurn = parentEntries.slice(-1);
    const req = assembleRequest({ system: parentSystem, messages: seq([summary as Entry, ...lastTurn, forkTask('turns')]), model: MODEL, effort: 'high' });
    const child = describeChild(req);
    expect(child.prefix).toEqual({ shared: true });
    expect(child).toMatchSnapshot();
  });

  it('context summary', () => {
    const background = userEntry({ id: 'b1', text: 'Background: two tests fail after the refactor.', origin: { kind: 'background', from: '/root' }, opensTurn: false });
    const req = assembleRequest({ system: parentSystem, messages: seq([background, forkTask('summary')]), model: MODEL, effort: 'high' });
    const child = describeChild(req);
    expect(child.prefix).toEqual({ shared: true });
    expect(child).toMatchSnapshot();
  });

  it('filtered (send_message removed: schema and reply guidance go together)', () => {
    const system = buildSystemConfiguration({ preset: resolvePreset('base', presets), registry, filter: { deny: ['send_message'] } });
    const req = assembleRequest({ system, messages: seq([...parentEntries, forkTask('all', system)]), model: MODEL, effort: 'high' });
    const child = describeChild(req);
    expect(child.prefix).toEqual({ shared: false, reasons: ['tool_filter'] });
    expect(child.request).not.toContain('send_message({');
    expect(child).toMatchSnapshot();
  });

  it('continuable follow-up (same head; the first request is a prefix of the next)', () => {
    const first = assembleRequest({ system: parentSystem, messages: seq([...parentEntries, forkTask('all')]), model: MODEL, effort: 'high' });
    const answer = assistantEntry({ id: 'a9', text: 'A mock returns null.' });
    const followUp = userEntry({ id: 'f1', text: 'Fix it too.', origin: { kind: 'message', from: '/root' } });
    const next = assembleRequest({ system: parentSystem, messages: seq([...first.messages, answer, followUp]), model: MODEL, effort: 'high' });
    expect(serializeRequest(next).startsWith(serializeRequest(first).slice(0, requestPrefixBytes(first)))).toBe(true);
    expect(sharedRequestPrefix(first, next)).toBeGreaterThanOrEqual(requestPrefixBytes(first));
    expect(describeChild(next)).toMatchSnapshot();
  });

  it('role catalog in the Agent tool (parent and fork share it byte for byte; a role without Agent drops it)', () => {
    const catalog = roleCatalog([
      { name: 'reviewer', description: 'Reviews a change for defects; reports file and line.' },
      { name: 'docs.writer', description: 'Drafts documentation.' },
    ]).text;
    const withCatalog = createToolRegistry([], BUILTIN_TOOL_SCHEMAS.map((s) => (s.name === 'Agent' ? agentToolSchema(catalog) : s)));
    const rootSystem = buildSystemConfiguration({ preset: resolvePreset('base', presets), registry: withCatalog });
    const root = assembleRequest({ system: rootSystem, messages: seq(parentEntries), model: MODEL, effort: 'high' });
    const fork = assembleRequest({ system: rootSystem, messages: seq([...parentEntries, forkTask('all', rootSystem)]), model: MODEL, effort: 'high' });
    expect(serializeHead(fork.system)).toBe(serializeHead(root.system));
    expect(sharedRequestPrefix(root, fork)).toBeGreaterThanOrEqual(requestPrefixBytes(root));
    const noAgent = buildSystemConfiguration({ preset: resolvePreset('base', presets), registry: withCatalog, filter: { deny: ['Agent'] } });
    expect(serializeHead(noAgent)).not.toContain('Roles:');
    expect(serializeHead(rootSystem).split('\n').find((frame) => frame.includes('"name":"Agent"'))).toMatchSnapshot('Agent tool frame');
  });
});
