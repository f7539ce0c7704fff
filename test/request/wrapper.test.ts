import { describe, expect, it } from 'vitest';
import { composeInitialTask } from '../../src/request/compose-task.js';
import { resolvePreset } from '../../src/request/preset.js';
import { buildSystemConfiguration } from '../../src/request/system.js';
import { createToolRegistry } from '../../src/request/registry.js';
import { forkTaskWrapper, independentTaskText } from '../../src/request/wrapper.js';
import { catalog } from './helpers.js';

const registry = createToolRegistry();
const full = buildSystemConfiguration({ preset: resolvePreset('base', catalog()), registry });
const noMessaging = buildSystemConfiguration({ preset: resolvePreset('base', catalog()), registry, filter: { deny: ['send_message'] } });

const REPLY = 'call send_message({ agent_id: "/root", message: "..." })';

describe('forkTaskWrapper', () => {
  it('frames the task: opening, role, boundary, task, return shape, reply guidance', () => {
    expect(
      forkTaskWrapper({
        task: 'Find why two tests fail.',
        parentPath: '/root',
        role: { name: 'debugger', instructions: 'Reproduce before fixing.' },
        contextMode: 'all',
        visibleTools: full,
      }),
    ).toMatchInlineSnapshot(`
      "You are a subagent: a worker delegated one task by the agent /root.

      Role: debugger

      <role_instructions>
      Reproduce before fixing.
      </role_instructions>

      Context: the messages above are from the delegating agent's conversation, inherited for reference only. Do not continue that agent's work and do not act on its earlier instructions or requests; your assignment is only the task below.

      <task>
      Find why two tests fail.
      </task>

      Return: your result reaches /root exactly once. Either finish with a final answer that states it concisely (what you found or changed, and anything left open); your final answer is delivered to /root automatically. Or return it with send_message({ agent_id: "/root", message: "..." }), then finish with a final answer that only says it was sent, without repeating it. Do not include a transcript or a log of your steps.

      Messaging: to ask /root a question or send a progress note before you finish, call send_message({ agent_id: "/root", message: "..." }); a question or a progress note is not your result."
    `);
  });

  it('offers send_message to the direct parent as the other way to return, and says the result goes once', () => {
    const text = forkTaskWrapper({ task: 'T', parentPath: '/root/a', contextMode: 'all', visibleTools: full });
    expect(text).toContain('delegated one task by the agent /root/a.');
    expect(text).toContain('Return: your result reaches /root/a exactly once.');
    expect(text).toContain('your final answer is delivered to /root/a automatically');
    expect(text).toContain('Or return it with send_message({ agent_id: "/root/a", message: "..." }), then finish with a final answer that only says it was sent, without repeating it.');
    // Questions and progress notes are not the result, so they never count as a delivery of it.
    expect(text).toContain('a question or a progress note is not your result');
    expect(text).not.toContain('"/root"');
  });

  it('drops the reply guidance when send_message is filtered out', () => {
    const text = forkTaskWrapper({ task: 'T', parentPath: '/root', contextMode: 'all', visibleTools: noMessaging });
    expect(text).not.toContain('send_message');
    expect(text).not.toContain('Messaging:');
    expect(text).toContain('delivered to /root automatically');
  });

  it('words the boundary per context mode', () => {
    const of = (contextMode: 'all' | 'turns' | 'summary' | 'none') => forkTaskWrapper({ task: 'T', parentPath: '/root/a', contextMode, visibleTools: full });
    expect(of('turns')).toBe(of('all'));
    expect(of('summary')).toContain('the background above was prepared from the delegating agent');
    expect(of('none')).toContain("you do not see the delegating agent's conversation");
    expect(of('all')).toContain('call send_message({ agent_id: "/root/a", message: "..." })');
  });

  it('leaves out empty role instructions, and the role line without a role', () => {
    const bare = forkTaskWrapper({ task: 'T', parentPath: '/root', role: { name: 'r', instructions: '' }, contextMode: 'all', visibleTools: full });
    expect(bare).toContain('Role: r');
    expect(bare).not.toContain('<role_instructions>');
    expect(forkTaskWrapper({ task: 'T', parentPath: '/root', contextMode: 'all', visibleTools: full })).not.toContain('Role:');
  });

  it('is deterministic and never says "child agent"', () => {
    const input = { task: 'T', parentPath: '/root', role: { name: 'r', instructions: 'i' }, contextMode: 'all' as const, visibleTools: full };
    expect(forkTaskWrapper(input)).toBe(forkTaskWrapper({ ...input }));
    expect(forkTaskWrapper(input).toLowerCase()).not.toContain('child');
  });
});

describe('independentTaskText', () => {
  it('gives role instructions, AGENTS.md, attachments, then the task', () => {
    expect(
      independentTaskText({
        task: 'Review the diff.',
        instructions: 'Be strict.',
        projectContext: 'Use pnpm.',
        attachments: [
          { name: 'diff.patch', content: '+a' },
          { name: 'say "hi".txt', content: 'hi' },
        ],
        parentPath: '/root',
        visibleTools: full,
      }),
    ).toMatchInlineSnapshot(`
      "You are a subagent: a worker delegated one task by the agent /root. You do not see the delegating agent's conversation; everything you need is below.

      <role_instructions>
      Be strict.
      </role_instructions>

      <project_context source="AGENTS.md">
      Use pnpm.
      </project_context>

      <attachment name="diff.patch">
      +a
      </attachment>

      <attachment name="say \\"hi\\".txt">
      hi
      </attachment>

      <task>
      Review the diff.
      </task>

      Return: your result reaches /root exactly once. Either finish with a final answer that states it concisely (what you found or changed, and anything left open); your final answer is delivered to /root automatically. Or return it with send_message({ agent_id: "/root", message: "..." }), then finish with a final answer that only says it was sent, without repeating it. Do not include a transcript or a log of your steps.

      Messaging: to ask /root a question or send a progress note before you finish, call send_message({ agent_id: "/root", message: "..." }); a question or a progress note is not your result."
    `);
  });

  it('needs a parent id and a visible send_message for reply guidance', () => {
    const minimal = independentTaskText({ task: 'T', attachments: [] });
    expect(minimal).toBe(
      "You are a subagent: a worker delegated one task. You do not see the delegating agent's conversation; everything you need is below.\n\n" +
        '<task>\nT\n</task>\n\n' +
        'Return: finish with a final answer that states the result concisely (what you found or changed, and anything left open). Do not include a transcript or a log of your steps. Your final answer is delivered to the delegating agent automatically.',
    );
    expect(independentTaskText({ task: 'T', attachments: [], parentPath: '/root' })).not.toContain(REPLY);
    expect(independentTaskText({ task: 'T', attachments: [], parentPath: '/root', visibleTools: noMessaging })).not.toContain('send_message');
    expect(independentTaskText({ task: 'T', attachments: [], visibleTools: full })).not.toContain('send_message');
    expect(independentTaskText({ task: 'T', attachments: [], instructions: '', projectContext: '' })).toBe(minimal);
  });
});

describe('composeInitialTask', () => {
  it('returns the task unchanged without a framing', () => {
    expect(composeInitialTask(undefined, 'Hello.', full)).toBe('Hello.');
  });

  it('uses the fork wrapper for fork and summary framings', () => {
    const role = { name: 'r', instructions: 'i' };
    expect(composeInitialTask({ kind: 'fork', parentPath: '/root', role }, 'T', full)).toBe(
      forkTaskWrapper({ task: 'T', parentPath: '/root', role, contextMode: 'all', visibleTools: full }),
    );
    expect(composeInitialTask({ kind: 'summary', parentPath: '/root', role: undefined }, 'T', noMessaging)).toBe(
      forkTaskWrapper({ task: 'T', parentPath: '/root', contextMode: 'summary', visibleTools: noMessaging }),
    );
  });

  it('uses the independent layout for independent framings', () => {
    const attachments = [{ name: 'a', content: 'b' }];
    expect(
      composeInitialTask({ kind: 'independent', parentPath: '/root', instructions: 'i', projectContext: 'p', attachments }, 'T', full),
    ).toBe(independentTaskText({ task: 'T', parentPath: '/root', instructions: 'i', projectContext: 'p', attachments, visibleTools: full }));
    expect(
      composeInitialTask({ kind: 'independent', parentPath: '/root', instructions: undefined, projectContext: undefined, attachments: [] }, 'T', full),
    ).toBe(independentTaskText({ task: 'T', parentPath: '/root', attachments: [], visibleTools: full }));
  });
});
