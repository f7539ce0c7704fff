import { describe, expect, it } from 'vitest';
import { BUILTIN_TOOL_NAMES } from '../../src/request/tool-names.js';
import { BUILTIN_TOOL_SCHEMAS, BUILTIN_TOOLS, isBuiltinTool, parseToolArguments } from '../../src/request/tools.js';
import { TOOL_DESCRIPTIONS } from '../../src/request/tool-schemas.js';

/** The error message of a failed parse (fails the test if the parse succeeded). */
function errorOf(name: string, args: unknown): string {
  const result = parseToolArguments(name, args);
  if (result.ok) throw new Error(`expected ${name} to reject ${JSON.stringify(args)}`);
  return result.error.message;
}

describe('built-in tool schemas', () => {
  it('come in the fixed order Agent, send_message, list_agents, cancel_agent, close_agent', () => {
    expect(BUILTIN_TOOL_SCHEMAS.map((t) => t.name)).toEqual(['Agent', 'send_message', 'list_agents', 'cancel_agent', 'close_agent']);
    expect(BUILTIN_TOOL_NAMES).toEqual(BUILTIN_TOOL_SCHEMAS.map((t) => t.name));
  });

  it('are deeply frozen and canonical (keys sorted, no $schema)', () => {
    for (const schema of BUILTIN_TOOL_SCHEMAS) {
      expect(Object.isFrozen(schema)).toBe(true);
      expect(Object.isFrozen(schema.inputSchema)).toBe(true);
      expect(Object.isFrozen(schema.inputSchema['properties'])).toBe(true);
      expect(schema.inputSchema).not.toHaveProperty('$schema');
      expect(Object.keys(schema.inputSchema)).toEqual([...Object.keys(schema.inputSchema)].sort());
    }
  });

  it('say subagent / delegated agent / worker, never "child agent"', () => {
    const text = JSON.stringify(BUILTIN_TOOL_SCHEMAS);
    expect(text.toLowerCase()).not.toContain('child');
    expect(TOOL_DESCRIPTIONS.Agent).toContain('subagent');
  });

  it('explain every context value in the Agent description', () => {
    for (const value of ['"none"', '"all"', 'N (a positive integer)', '"summary"']) expect(TOOL_DESCRIPTIONS.Agent).toContain(value);
  });

  it('describe Agent inputs: required task_name and message, the rest optional', () => {
    const agent = BUILTIN_TOOLS.Agent.schema.inputSchema;
    expect(agent['required']).toEqual(['task_name', 'message']);
    expect(Object.keys(agent['properties'] as object)).toEqual(['attachments', 'context', 'effort', 'message', 'model', 'role', 'task_name']);
    expect(agent['additionalProperties']).toBe(false);
  });

  it('isBuiltinTool tells built-in names apart', () => {
    expect(isBuiltinTool('send_message')).toBe(true);
    expect(isBuiltinTool('read_file')).toBe(false);
  });
});

describe('parseToolArguments: Agent', () => {
  it('accepts the minimal and the full form', () => {
    expect(parseToolArguments('Agent', { task_name: 'fix-tests', message: 'Fix them.' })).toEqual({
      ok: true,
      tool: 'Agent',
      args: { task_name: 'fix-tests', message: 'Fix them.' },
    });
    const full = {
      task_name: 'review_2',
      message: 'Review.',
      role: 'reviewer',
      context: 3,
      model: 'm-small',
      effort: 'low',
      attachments: [{ name: 'diff', content: '+1' }],
    };
    const result = parseToolArguments('Agent', full);
    expect(result).toEqual({ ok: true, tool: 'Agent', args: full });
    expect(result.ok && Object.isFrozen(result.args)).toBe(true);
  });

  it('keeps context permissive: any string or a positive integer', () => {
    for (const context of ['none', 'all', 'summary', 'fork', 'independent', '2', 'junk']) {
      expect(parseToolArguments('Agent', { task_name: 'a', message: 'b', context }).ok).toBe(true);
    }
  });

  it('names a bad task_name and shows what it got', () => {
    expect(errorOf('Agent', { task_name: 'Research', message: 'Go.' })).toBe(
      'Invalid arguments for tool Agent: "task_name" is invalid: expected a string of 1-64 lowercase letters, digits, "-" or "_" (for example "fix-tests"); got "Research". Fix the arguments and call Agent again.',
    );
    expect(errorOf('Agent', { task_name: 'x'.repeat(65), message: 'Go.' })).toContain(
      `got "${'x'.repeat(40)}"... (65 characters).`,
    );
  });

  it('reports missing required fields', () => {
    expect(errorOf('Agent', {})).toBe(
      'Invalid arguments for tool Agent: "task_name" is required: expected a string of 1-64 lowercase letters, digits, "-" or "_" (for example "fix-tests"). "message" is required: expected a non-empty string stating the task. Fix the arguments and call Agent again.',
    );
  });

  it('rejects an empty message, a bad context, effort, model and role', () => {
    expect(errorOf('Agent', { task_name: 'a', message: '' })).toBe(
      'Invalid arguments for tool Agent: "message" is invalid: expected a non-empty string stating the task; got "". Fix the arguments and call Agent again.',
    );
    expect(errorOf('Agent', { task_name: 'a', message: 'b', context: 0 })).toBe(
      'Invalid arguments for tool Agent: "context" is invalid: expected "none", "all", "summary" or a positive integer N (the last N turns); got 0. Fix the arguments and call Agent again.',
    );
    expect(errorOf('Agent', { task_name: 'a', message: 'b', context: 2.5 })).toContain('"context" is invalid');
    expect(errorOf('Agent', { task_name: 'a', message: 'b', context: null })).toContain('got null');
    expect(errorOf('Agent', { task_name: 'a', message: 'b', effort: 'max' })).toBe(
      'Invalid arguments for tool Agent: "effort" is invalid: expected "low", "medium" or "high"; got "max". Fix the arguments and call Agent again.',
    );
    expect(errorOf('Agent', { task_name: 'a', message: 'b', model: '', role: 7 })).toBe(
      'Invalid arguments for tool Agent: "role" is invalid: expected a non-empty string naming an agent definition; got 7. "model" is invalid: expected a non-empty string naming a model; got "". Fix the arguments and call Agent again.',
    );
  });

  it('locates errors inside attachments and unknown fields', () => {
    expect(errorOf('Agent', { task_name: 'a', message: 'b', attachments: [{ name: 'x', content: 1, extra: true }] })).toBe(
      'Invalid arguments for tool Agent: "attachments[0].content" is invalid: expected a string; got 1. "attachments[0].extra" is not accepted: no such field in attachments[0]; allowed fields: name, content. Fix the arguments and call Agent again.',
    );
    expect(errorOf('Agent', { task_name: 'a', message: 'b', attachments: {} })).toBe(
      'Invalid arguments for tool Agent: "attachments" is invalid: expected a list of { "name": string, "content": string } objects; got an object. Fix the arguments and call Agent again.',
    );
    expect(errorOf('Agent', { task_name: 'a', message: 'b', attachments: [{ content: 'c' }] })).toContain(
      '"attachments[0].name" is required: expected a non-empty string.',
    );
    expect(errorOf('Agent', { task_name: 'a', message: 'b', context_mode: 'all' })).toBe(
      'Invalid arguments for tool Agent: "context_mode" is not accepted: no such field in the arguments; allowed fields: task_name, message, role, context, model, effort, attachments. Fix the arguments and call Agent again.',
    );
  });

  it('rejects arguments that are not an object', () => {
    expect(errorOf('Agent', 'fix the tests')).toBe(
      'Invalid arguments for tool Agent: the arguments must be a JSON object with the fields task_name, message, role, context, model, effort, attachments; got "fix the tests". Fix the arguments and call Agent again.',
    );
    expect(errorOf('Agent', [1])).toContain('got an array of 1 item.');
    expect(errorOf('Agent', [])).toContain('got an empty array.');
    expect(errorOf('Agent', [1, 2])).toContain('got an array of 2 items.');
    expect(errorOf('Agent', undefined)).toContain('got nothing.');
    expect(errorOf('Agent', true)).toContain('got true.');
  });
});

describe('parseToolArguments: send_message', () => {
  it('accepts an agent path and a message', () => {
    expect(parseToolArguments('send_message', { agent_id: '/root/research', message: 'Done?' })).toEqual({
      ok: true,
      tool: 'send_message',
      args: { agent_id: '/root/research', message: 'Done?' },
    });
    expect(parseToolArguments('send_message', { agent_id: '/root', message: 'Hi' }).ok).toBe(true);
  });

  it('rejects a bare name, a trailing slash and an empty message', () => {
    expect(errorOf('send_message', { agent_id: 'root', message: '' })).toBe(
      'Invalid arguments for tool send_message: "agent_id" is invalid: expected an agent path such as "/root" or "/root/research"; got "root". "message" is invalid: expected a non-empty string; got "". Fix the arguments and call send_message again.',
    );
    expect(errorOf('send_message', { agent_id: '/root/', message: 'x' })).toContain('"agent_id" is invalid');
    expect(errorOf('send_message', { agent_id: '/root' })).toBe(
      'Invalid arguments for tool send_message: "message" is required: expected a non-empty string. Fix the arguments and call send_message again.',
    );
  });
});

describe('parseToolArguments: list_agents', () => {
  it('accepts an empty object only', () => {
    expect(parseToolArguments('list_agents', {})).toEqual({ ok: true, tool: 'list_agents', args: {} });
    expect(errorOf('list_agents', { all: true })).toBe(
      'Invalid arguments for tool list_agents: "all" is not accepted: no fields in the arguments. Fix the arguments and call list_agents again.',
    );
    expect(errorOf('list_agents', null)).toBe(
      'Invalid arguments for tool list_agents: the arguments must be an empty JSON object {}; got null. Fix the arguments and call list_agents again.',
    );
  });
});

describe.each(['cancel_agent', 'close_agent'] as const)('parseToolArguments: %s', (tool) => {
  it('accepts an agent_id', () => {
    expect(parseToolArguments(tool, { agent_id: '/root/a/b' })).toEqual({ ok: true, tool, args: { agent_id: '/root/a/b' } });
  });

  it('rejects a missing or malformed agent_id', () => {
    expect(errorOf(tool, {})).toBe(
      `Invalid arguments for tool ${tool}: "agent_id" is required: expected an agent path such as "/root" or "/root/research". Fix the arguments and call ${tool} again.`,
    );
    expect(errorOf(tool, { agent_id: 42 })).toBe(
      `Invalid arguments for tool ${tool}: "agent_id" is invalid: expected an agent path such as "/root" or "/root/research"; got 42. Fix the arguments and call ${tool} again.`,
    );
  });
});

describe('parseToolArguments: unknown tools', () => {
  it('names the available tools and never throws', () => {
    const result = parseToolArguments('spawn', {});
    expect(result).toEqual({
      ok: false,
      error: {
        tool: 'spawn',
        issues: [{ field: '', problem: 'unknown_tool', expected: 'one of Agent, send_message, list_agents, cancel_agent, close_agent' }],
        message: 'Unknown tool "spawn": expected one of Agent, send_message, list_agents, cancel_agent, close_agent.',
      },
    });
    expect(parseToolArguments('__proto__', null).ok).toBe(false);
  });
});
