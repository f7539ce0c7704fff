/**
 * Claude Code agent files in a Pi session, as a Pi user expects them: aliases go out on the
 * mapped Pi model, Claude's tool names get Pi's tools, and what is wrong with a file reaches
 * Pi's interface. Offline, with pi-ai's faux provider.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { fauxAssistantMessage, fauxToolCall, type JsonObject } from '@earendil-works/pi-ai';
import { PI_DEFAULT_MODELS } from '../../src/pi/model-table.js';
import { createPiHarness, lastText, type PiHarness, type SeenRequest } from './harness.js';

let harness: PiHarness | undefined;
afterEach(() => {
  harness?.dispose();
  harness = undefined;
});

const agentCall = (args: JsonObject) => fauxAssistantMessage([fauxToolCall('Agent', args, { id: 'call_agent' })], { stopReason: 'toolUse' });
const isTask = (request: SeenRequest, marker: string) => request.context.messages.at(-1)?.role === 'user' && lastText(request).includes(marker);

/** The root delegates TASK to `role`, the subagent answers, the root finishes. */
function delegating(role: string) {
  return (r: SeenRequest) => {
    if (isTask(r, 'SUB-TASK')) return fauxAssistantMessage('sub done');
    if (r.context.messages.at(-1)?.role === 'toolResult') return fauxAssistantMessage('root done');
    return agentCall({ task_name: 'sub', message: 'SUB-TASK do it', role });
  };
}

const reviewer = '---\nname: reviewer\ndescription: Use this agent when: a change needs review\nmodel: sonnet\ntools: Read, Grep\n---\nReview.\n';

describe('Claude agent files in Pi', () => {
  it('sends a model: sonnet role’s requests on the model the subagents.models setting maps it to', async () => {
    harness = await createPiHarness({
      files: { '.claude/agents/reviewer.md': reviewer },
      models: [{ id: 'faux-sonnet' }],
      settings: { subagents: { models: { sonnet: 'faux/faux-sonnet' } } },
      tools: ['+grep'],
      respond: delegating('reviewer'),
    });
    await harness.session.prompt('Review my change.');
    const sub = await harness.request((r) => isTask(r, 'SUB-TASK'));
    expect(sub.model).toBe('faux/faux-sonnet');
    expect(harness.requests[0]!.model).toBe('faux/faux-1');
    // The only notice is about the unquoted ": " in its description.
    expect(harness.ui.notifications.map((n) => n.message)).toEqual([expect.stringMatching(/^subagents: 1 warning about agent files .*\n {2}\.claude\/agents\/reviewer\.md:3: key "description": the unquoted value/s)]);
  });

  it('takes full ids (bare or provider/id) and inherit; the extension option changes an alias', async () => {
    harness = await createPiHarness({
      files: {
        '.claude/agents/bare.md': '---\nname: bare\ndescription: d\nmodel: faux-opus\n---\nx\n',
        '.claude/agents/quick.md': '---\nname: quick\ndescription: d\nmodel: haiku\n---\nx\n',
        '.claude/agents/same.md': '---\nname: same\ndescription: d\nmodel: inherit\n---\nx\n',
      },
      models: [{ id: 'faux-opus' }, { id: 'faux-haiku' }],
      options: { models: { haiku: 'faux/faux-haiku' } },
      respond: (r) => {
        if (isTask(r, 'SUB-TASK')) return fauxAssistantMessage('sub done');
        const results = r.context.messages.filter((m) => m.role === 'toolResult').length;
        if (results === 3) return fauxAssistantMessage('root done');
        const role = ['bare', 'quick', 'same'][results]!;
        return fauxAssistantMessage([fauxToolCall('Agent', { task_name: role, message: `SUB-TASK ${role}`, role }, { id: `c${results}` })], { stopReason: 'toolUse' });
      },
    });
    await harness.session.prompt('Go.');
    const modelOf = async (role: string) => (await harness!.request((r) => isTask(r, `SUB-TASK ${role}`))).model;
    expect([await modelOf('bare'), await modelOf('quick'), await modelOf('same')]).toEqual(['faux/faux-opus', 'faux/faux-haiku', 'faux/faux-1']);
  });

  it('maps each default alias to a model of Pi’s registry', async () => {
    harness = await createPiHarness({ respond: () => fauxAssistantMessage('hi') });
    for (const target of Object.values(PI_DEFAULT_MODELS)) {
      const [provider, id] = target.split('/') as [string, string];
      expect(harness.session.modelRuntime.getModel(provider, id), target).toBeDefined();
    }
  });

  it('shows a broken file’s error and the warnings in Pi’s interface at session start', async () => {
    harness = await createPiHarness({
      files: {
        '.claude/agents/reviewer.md': reviewer,
        '.claude/agents/broken.md': '---\nname: broken\ndescription: "an unterminated quote\ntools: Read\n---\nBroken.\n',
        '.claude/agents/surfer.md': '---\nname: surfer\ndescription: Browses.\ntools: Read, WebFetch\nmodel: gpt-nine\ncolor: blue\n---\nBrowse.\n',
      },
      respond: () => fauxAssistantMessage('hi'),
    });
    const errors = harness.ui.notifications.filter((n) => n.type === 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0]!.message).toMatch(/^subagents: 1 agent file was not loaded \(\/agents lists every role and problem\):\n {2}\.claude\/agents\/broken\.md:/);
    const warnings = harness.ui.notifications.filter((n) => n.type === 'warning').map((n) => n.message).join('\n');
    expect(warnings).toContain('role "surfer" (.claude/agents/surfer.md): tools entry "WebFetch" names no tool of this runtime');
    expect(warnings).toContain('role "surfer" (.claude/agents/surfer.md): model "gpt-nine" is not in the runtime\'s models table');
    expect(warnings).toMatch(/surfer\.md.*color/);
    // The model is told about the role that loaded, not the broken one.
    await harness.session.prompt('hi');
    const agent = harness.requests[0]!.context.tools.find((t) => t.name === 'Agent')!;
    expect(agent.description).toContain('reviewer');
    expect(agent.description).not.toContain('broken');
  });

  it('/agents lists the roles with each file’s problems', async () => {
    harness = await createPiHarness({
      files: {
        '.claude/agents/reviewer.md': reviewer,
        '.claude/agents/broken.md': '---\nname: broken\ndescription: "an unterminated quote\n---\nBroken.\n',
        '.claude/agents/surfer.md': '---\nname: surfer\ndescription: Browses.\ntools: Read, WebFetch\n---\nBrowse.\n',
      },
      respond: () => fauxAssistantMessage('hi'),
    });
    const before = harness.ui.notifications.length;
    await harness.session.prompt('/agents');
    expect(harness.requests).toEqual([]);
    const report = harness.ui.notifications.slice(before);
    expect(report).toHaveLength(1);
    const lines = report[0]!.message.split('\n');
    expect(lines[0]).toBe('Subagent roles (2), from .pi/agents, .claude/agents:');
    expect(lines).toContain(`  reviewer — .claude/agents/reviewer.md — model sonnet → ${PI_DEFAULT_MODELS['sonnet']} — tools Read, Grep`);
    expect(lines).toContain('  surfer — .claude/agents/surfer.md — model inherit — tools Read, WebFetch');
    const surfer = lines.indexOf('  surfer — .claude/agents/surfer.md — model inherit — tools Read, WebFetch');
    expect(lines[surfer + 1]).toMatch(/^ {4}warning: role "surfer" \(\.claude\/agents\/surfer\.md\): tools entry "WebFetch" names no tool/);
    expect(lines).toContain('Other problems:');
    expect(lines).toContain('  .claude/agents/broken.md');
    expect(lines.some((l) => l.startsWith('    error: .claude/agents/broken.md:'))).toBe(true);
  });

  it('gives a Glob role Pi’s find tool (and Grep grep, LS ls)', async () => {
    harness = await createPiHarness({
      files: { '.claude/agents/scout.md': '---\nname: scout\ndescription: Finds files.\ntools: Glob, Grep, LS, Read\nmodel: inherit\n---\nFind.\n' },
      // Pi's default tools are read, bash, edit and write; a session with find, grep and ls
      // (`pi --tools …`) gives them to its subagents.
      tools: ['+grep', '+find', '+ls'],
      respond: delegating('scout'),
    });
    await harness.session.prompt('Where is the parser?');
    const sub = await harness.request((r) => isTask(r, 'SUB-TASK'));
    expect(sub.context.tools.map((t) => t.name).sort()).toEqual(['find', 'grep', 'ls', 'read']);
    expect(harness.ui.notifications.filter((n) => n.type !== 'info')).toEqual([]);
  });

  it('warns when the Pi session lacks the Pi tool a Claude name maps to', async () => {
    harness = await createPiHarness({
      files: { '.claude/agents/scout.md': '---\nname: scout\ndescription: Finds files.\ntools: Glob, Read\n---\nFind.\n' },
      respond: () => fauxAssistantMessage('hi'),
    });
    const warnings = harness.ui.notifications.filter((n) => n.type === 'warning').map((n) => n.message).join('\n');
    expect(warnings).toContain('role "scout" (.claude/agents/scout.md): tools entry "find" names no tool of this runtime (');
  });
});
