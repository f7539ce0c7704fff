import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { resolveContextSpec } from '../../src/context/resolve.js';
import { isValidAgentName } from '../../src/policy/definition.js';
import { DefinitionError } from '../../src/policy/definition-error.js';
import type { ParseDefinitionOptions } from '../../src/policy/parse-definition.js';
import { KNOWN_DEFINITION_KEYS, parseDefinition } from '../../src/policy/parse-definition.js';

const fixtures = fileURLToPath(new URL('../fixtures/agents/', import.meta.url));
const readFixture = (path: string): Promise<string> => readFile(`${fixtures}${path}`, 'utf8');

/** A definition file: front matter lines between fences, then a body. */
const md = (frontMatter: readonly string[], body = 'Do the work.'): string => ['---', ...frontMatter, '---', body].join('\n');
const opts = (file = 'agents/reviewer.md'): ParseDefinitionOptions => ({ file, scope: 'project' });

/** The DefinitionError thrown by parsing `text`. */
function errorOf(text: string, options: ParseDefinitionOptions = opts()): DefinitionError {
  try {
    parseDefinition(text, options);
  } catch (error) {
    expect(error).toBeInstanceOf(DefinitionError);
    return error as DefinitionError;
  }
  throw new Error('expected parseDefinition to throw');
}

describe('parseDefinition: fixtures', () => {
  it('reads a project reviewer with list tools and a context restriction', async () => {
    const text = await readFixture('project/.agents/reviewer.md');
    const definition = parseDefinition(text, { file: '.agents/reviewer.md', scope: 'project' });
    expect(definition).toEqual({
      name: 'reviewer',
      description: "Adversarial reviewer. Reads the change cold, without the author's reasoning.",
      instructions:
        'You review changes as an outsider. You never see the conversation that produced them.\n\nReport findings as a numbered list, most severe first.',
      tools: ['read', 'grep', 'find'],
      disallowedTools: ['bash'],
      context: 'none',
      contexts: ['none', 'summary'],
      effort: 'high',
      delivery: 'parent',
      lifetime: 'one-shot',
      maxSteps: 12,
      unknownKeys: [],
      source: { file: '.agents/reviewer.md', scope: 'project' },
    });
    // The definition is what the context layer's precedence reads.
    expect(resolveContextSpec({ role: definition })).toBe('none');
    expect(resolveContextSpec({ role: definition, requested: 'summary' })).toBe('summary');
    expect(() => resolveContextSpec({ role: definition, requested: 'fork' })).toThrow(/does not allow/);
  });

  it('loads a real-world Claude Code agent file without edits', async () => {
    const text = await readFixture('project/.claude/agents/code-reviewer.md');
    const warnings: string[] = [];
    const definition = parseDefinition(text, { file: '.claude/agents/code-reviewer.md', scope: 'claude', onWarning: (w) => warnings.push(w) });
    expect(warnings).toEqual([]);
    expect(definition.name).toBe('code-reviewer');
    expect(definition.description).toMatch(/^Expert code review specialist\./);
    expect(definition.tools).toEqual(['Read', 'Grep', 'Glob', 'Bash']);
    expect(definition.model).toBe('sonnet');
    expect(definition.instructions.startsWith('You are a senior code reviewer')).toBe(true);
    expect(definition.instructions.endsWith('Include specific examples of how to fix issues.')).toBe(true);
    expect(definition.instructions.split('\n\n')).toHaveLength(5);
    // Keys the file does not set stay absent, so callers apply their own defaults.
    for (const key of ['effort', 'disallowedTools', 'context', 'contexts', 'delivery', 'lifetime', 'maxSteps']) {
      expect(Object.hasOwn(definition, key), key).toBe(false);
    }
    expect(resolveContextSpec({ role: definition, requested: 'fork' })).toBe('all');
  });

  it('takes the name from the file name when the front matter has none', async () => {
    const text = await readFixture('project/.agents/planner.md');
    const definition = parseDefinition(text, { file: '/x/.agents/planner.md', scope: 'project' });
    expect(definition.name).toBe('planner');
    expect(definition.context).toEqual({ turns: 2 });
    expect(definition.contexts).toEqual(['turns', 'none']);
    expect(definition.lifetime).toBe('continuable');
    expect(definition.instructions).toBe('Plan first, then report the plan.');
  });

  it('keeps unknown keys and reports each with its line, suggesting near-miss keys', async () => {
    const text = await readFixture('user/.agents/explorer.md');
    const warnings: string[] = [];
    const definition = parseDefinition(text, { file: 'user/explorer.md', scope: 'user', onWarning: (w) => warnings.push(w) });
    expect(definition.unknownKeys).toEqual(['color', 'max_turns']);
    expect(warnings).toEqual([
      'user/explorer.md:6: unknown key "color" is ignored',
      'user/explorer.md:8: unknown key "max_turns" is ignored (did you mean "maxTurns"?)',
    ]);
    expect(definition.permissionMode).toBe('plan');
    // Claude Code's `model: inherit` means "the caller's model": no model of its own.
    expect(Object.hasOwn(definition, 'model')).toBe(false);
    expect(definition.maxSteps).toBeUndefined();
  });

  it('works without a warning sink', async () => {
    const text = await readFixture('user/.agents/explorer.md');
    expect(parseDefinition(text, opts('explorer.md')).unknownKeys).toHaveLength(2);
  });
});

describe('parseDefinition: values', () => {
  it('returns a deeply frozen value', () => {
    const definition = parseDefinition(md(['name: a', 'description: d', 'tools: [x]', 'contexts: [turns]', 'context: 3']), opts());
    expect(Object.isFrozen(definition)).toBe(true);
    expect(Object.isFrozen(definition.tools)).toBe(true);
    expect(Object.isFrozen(definition.contexts)).toBe(true);
    expect(Object.isFrozen(definition.unknownKeys)).toBe(true);
    expect(Object.isFrozen(definition.source)).toBe(true);
    expect(Object.isFrozen(definition.context)).toBe(true);
  });

  it('accepts the context aliases and every spelling of allowed modes', () => {
    const definition = parseDefinition(md(['name: a', 'description: d', 'context: fork', 'contexts: [fork, independent, 3, turns, summary, all]']), opts());
    expect(definition.context).toBe('all');
    expect(definition.contexts).toEqual(['all', 'none', 'turns', 'summary']);
    expect(parseDefinition(md(['name: a', 'description: d', 'context: independent']), opts()).context).toBe('none');
    expect(parseDefinition(md(['name: a', 'description: d', 'context: summary', 'contexts: summary']), opts()).contexts).toEqual(['summary']);
    expect(parseDefinition(md(['name: a', 'description: d', 'contexts: 4']), opts()).contexts).toEqual(['turns']);
    expect(parseDefinition(md(['name: a', 'description: d', 'context: "5"']), opts()).context).toEqual({ turns: 5 });
  });

  it('splits comma-separated tools, keeps specifiers whole and drops duplicates', () => {
    const definition = parseDefinition(md(['name: a', 'description: d', 'tools: Read, Task(a, b), Read, Bash(git diff:*)', 'disallowedTools: Write,Edit']), opts());
    expect(definition.tools).toEqual(['Read', 'Task(a, b)', 'Bash(git diff:*)']);
    expect(definition.disallowedTools).toEqual(['Write', 'Edit']);
  });

  it('reads an empty tool list as "no tools" and an empty value as "not set"', () => {
    expect(parseDefinition(md(['name: a', 'description: d', 'tools: []']), opts()).tools).toEqual([]);
    expect(parseDefinition(md(['name: a', 'description: d', 'tools: ""']), opts()).tools).toEqual([]);
    const unset = parseDefinition(md(['name: a', 'description: d', 'tools:', 'model:', 'maxTurns: ~']), opts());
    expect(Object.hasOwn(unset, 'tools')).toBe(false);
    expect(Object.hasOwn(unset, 'model')).toBe(false);
    expect(Object.hasOwn(unset, 'maxSteps')).toBe(false);
  });

  it('accepts a quoted step budget and trims strings', () => {
    const definition = parseDefinition(md(['name: " a "', 'description: "  d  "', 'maxTurns: "7"', 'model: " opus "']), opts());
    expect(definition).toMatchObject({ name: 'a', description: 'd', maxSteps: 7, model: 'opus' });
  });

  it('handles CRLF line endings, a byte order mark and the "..." closing fence', () => {
    const text = '\uFEFF---\r\nname: a\r\ndescription: d\r\n...\r\n\r\n\r\nLine one.\r\nLine two.\r\n\r\n';
    const definition = parseDefinition(text, opts());
    expect(definition.instructions).toBe('Line one.\nLine two.');
  });

  it('allows an empty body and resolves YAML anchors', () => {
    const definition = parseDefinition('---\nname: &n a\ndescription: *n\n---\n', opts());
    expect(definition).toMatchObject({ name: 'a', description: 'a', instructions: '' });
  });

  it('keeps indentation inside the body', () => {
    expect(parseDefinition(md(['name: a', 'description: d'], '\n    code block\n\ntext  \n'), opts()).instructions).toBe('    code block\n\ntext');
  });

  it('reports YAML warnings with their line', () => {
    const warnings: string[] = [];
    parseDefinition(md(['name: a', 'description: d', 'model: !custom opus']), { ...opts(), onWarning: (w) => warnings.push(w) });
    expect(warnings).toEqual(['agents/reviewer.md:4: YAML warning: Unresolved tag: !custom']);
  });

  it('reads a budget (a mapping) and refuses a bad one naming the field', () => {
    const definition = parseDefinition(md(['name: a', 'description: d', 'budget:', '  tokens: 50000', '  steps: 20']), opts());
    expect(definition.budget).toEqual({ tokens: 50_000, steps: 20 });
    expect(Object.isFrozen(definition.budget)).toBe(true);
    expect(errorOf(md(['name: a', 'description: d', 'budget:', '  tokenz: 5'])).message).toMatch(/"tokenz" is not a budget field/);
  });

  it('reads retry settings (a mapping) and a request timeout', () => {
    const definition = parseDefinition(md(['name: a', 'description: d', 'retry:', '  maxRetries: 5', '  initialDelayMs: 500', 'requestTimeoutMs: 120000']), opts());
    expect(definition.retry).toEqual({ maxRetries: 5, initialDelayMs: 500 });
    expect(definition.requestTimeoutMs).toBe(120_000);
    expect(Object.isFrozen(definition.retry)).toBe(true);
    const bad = errorOf(md(['name: a', 'description: d', 'retry:', '  maxRetries: lots']));
    expect(bad).toMatchObject({ code: 'invalid_value', key: 'retry', line: 4 });
    expect(bad.message).toMatch(/retry\.maxRetries must be an integer ≥ 0, got lots/);
    expect(errorOf(md(['name: a', 'description: d', 'retry: 3'])).message).toMatch(/retry must be an object of retry settings/);
  });

  it('lists the known keys', () => {
    expect(KNOWN_DEFINITION_KEYS).toContain('disallowedTools');
    expect(KNOWN_DEFINITION_KEYS).toContain('permissionMode');
    expect(KNOWN_DEFINITION_KEYS).toHaveLength(16);
    expect(KNOWN_DEFINITION_KEYS).toContain('budget');
    expect(KNOWN_DEFINITION_KEYS).toContain('output');
  });
});

describe('parseDefinition: errors name the file, the line and the key', () => {
  const cases: Array<{ title: string; text: string; file?: string; code: DefinitionError['code']; line?: number; key?: string; message: string }> = [
    {
      title: 'a bad turn budget (the documented example)',
      text: md(['name: reviewer', 'description: d', 'maxTurns: lots']),
      code: 'invalid_value', line: 4, key: 'maxTurns',
      message: 'agents/reviewer.md:4: key "maxTurns": expected a positive integer, got "lots"',
    },
    { title: 'a zero turn budget', text: md(['name: a', 'description: d', 'maxTurns: 0']), code: 'invalid_value', line: 4, key: 'maxTurns', message: 'agents/reviewer.md:4: key "maxTurns": expected a positive integer, got 0' },
    { title: 'a fractional turn budget', text: md(['name: a', 'description: d', 'maxTurns: 1.5']), code: 'invalid_value', line: 4, key: 'maxTurns', message: 'agents/reviewer.md:4: key "maxTurns": expected a positive integer, got 1.5' },
    { title: 'a list as turn budget', text: md(['name: a', 'description: d', 'maxTurns: [1]']), code: 'invalid_value', line: 4, key: 'maxTurns', message: 'agents/reviewer.md:4: key "maxTurns": expected a positive integer, got a list' },
    {
      title: 'no front matter',
      text: '# Reviewer\n\nReview things.\n',
      code: 'missing_front_matter', line: 1,
      message: 'agents/reviewer.md:1: missing YAML front matter: the file must start with a "---" line, then name and description, then a closing "---" line',
    },
    {
      title: 'an unclosed front matter',
      text: '---\nname: a\ndescription: d\n',
      code: 'unterminated_front_matter', line: 1,
      message: 'agents/reviewer.md:1: the front matter opened here is never closed by a "---" line',
    },
    {
      title: 'a YAML syntax error the quoting retry cannot fix, with a hint for unquoted colons',
      text: md(['name: a', 'description:', '  Use when: reviewing', '  - x']),
      code: 'yaml_syntax', line: 5,
      message: 'agents/reviewer.md:5: invalid YAML: A block sequence may not be used as an implicit map key (quote a value that contains ": ")',
    },
    {
      title: 'an unclosed quote',
      text: md(['name: a', "description: 'unterminated", 'model: x']),
      code: 'yaml_syntax', line: 4,
      message: "agents/reviewer.md:4: invalid YAML: Missing closing 'quote",
    },
    {
      title: 'a list instead of a mapping',
      text: md(['- name', '- description']),
      code: 'not_a_mapping', line: 2,
      message: 'agents/reviewer.md:2: the front matter must be a mapping of keys to values (name: …, description: …)',
    },
    { title: 'a complex key', text: md(['name: a', '? [x]', ': 1']), code: 'invalid_key', line: 3, message: 'agents/reviewer.md:3: every front matter key must be a plain name' },
    { title: 'a null key', text: md(['name: a', '~: 1']), code: 'invalid_key', line: 3, message: 'agents/reviewer.md:3: every front matter key must be a plain name' },
    {
      title: 'a duplicate key',
      text: md(['name: a', 'description: d', 'name: b']),
      code: 'duplicate_key', line: 4, key: 'name',
      message: 'agents/reviewer.md:4: key "name": appears twice (first on line 2)',
    },
    {
      title: 'a missing description',
      text: md(['name: a']),
      code: 'missing_key', line: 1, key: 'description',
      message: 'agents/reviewer.md:1: key "description": is required: say when a parent should delegate to this agent',
    },
    {
      title: 'an empty front matter whose file name is a valid name',
      text: md([]),
      code: 'missing_key', line: 1, key: 'description',
      message: 'agents/reviewer.md:1: key "description": is required: say when a parent should delegate to this agent',
    },
    {
      title: 'a blank description',
      text: md(['name: a', 'description: "  "']),
      code: 'invalid_value', line: 3, key: 'description',
      message: 'agents/reviewer.md:3: key "description": expected a non-empty string, got "  "',
    },
    {
      title: 'a missing name with an unusable file name',
      text: md(['description: d']), file: 'agents/Code Reviewer.md',
      code: 'missing_key', line: 1, key: 'name',
      message: 'agents/Code Reviewer.md:1: key "name": is required (the file name "Code Reviewer" cannot stand in: an agent name uses lowercase letters, digits, "-" and "_", dots only between them)',
    },
    {
      title: 'an empty name',
      text: md(['name:', 'description: d']),
      code: 'invalid_value', line: 2, key: 'name',
      message: 'agents/reviewer.md:2: key "name": expected a non-empty string, got nothing',
    },
    {
      title: 'a name with capitals and spaces',
      text: md(['name: Code Reviewer', 'description: d']),
      code: 'invalid_value', line: 2, key: 'name',
      message: 'agents/reviewer.md:2: key "name": expected lowercase letters, digits, "-" and "_" (dots only between them), got "Code Reviewer"',
    },
    {
      title: 'a numeric model',
      text: md(['name: a', 'description: d', 'model: 4']),
      code: 'invalid_value', line: 4, key: 'model',
      message: 'agents/reviewer.md:4: key "model": expected a non-empty string, got 4',
    },
    {
      title: 'an unknown effort',
      text: md(['name: a', 'description: d', 'effort: max']),
      code: 'invalid_value', line: 4, key: 'effort',
      message: 'agents/reviewer.md:4: key "effort": expected one of "low", "medium", "high", got "max"',
    },
    {
      title: 'an unknown delivery',
      text: md(['name: a', 'description: d', 'delivery: inbox']),
      code: 'invalid_value', line: 4, key: 'delivery',
      message: 'agents/reviewer.md:4: key "delivery": expected one of "caller", "parent", got "inbox"',
    },
    {
      title: 'an unknown lifetime',
      text: md(['name: a', 'description: d', 'lifetime: true']),
      code: 'invalid_value', line: 4, key: 'lifetime',
      message: 'agents/reviewer.md:4: key "lifetime": expected one of "one-shot", "continuable", got true',
    },
    {
      title: 'tools given as a mapping',
      text: md(['name: a', 'description: d', 'tools:', '  read: yes']),
      code: 'invalid_value', line: 4, key: 'tools',
      message: 'agents/reviewer.md:4: key "tools": expected a list of tool names or a comma-separated string, got a mapping',
    },
    {
      title: 'a tool list with a number',
      text: md(['name: a', 'description: d', 'disallowedTools:', '  - bash', '  - 3']),
      code: 'invalid_value', line: 4, key: 'disallowedTools',
      message: 'agents/reviewer.md:4: key "disallowedTools": item 2: expected a tool name, got 3',
    },
    {
      title: 'an unknown allowed context mode',
      text: md(['name: a', 'description: d', 'contexts: [none, everything]']),
      code: 'invalid_value', line: 4, key: 'contexts',
      message: 'agents/reviewer.md:4: key "contexts": expected context modes (none, independent, all, fork, summary, turns or a positive integer), got "everything"',
    },
    {
      title: 'a zero in allowed context modes',
      text: md(['name: a', 'description: d', 'contexts: [0]']),
      code: 'invalid_value', line: 4, key: 'contexts',
      message: 'agents/reviewer.md:4: key "contexts": expected context modes (none, independent, all, fork, summary, turns or a positive integer), got 0',
    },
    {
      title: 'no allowed context modes',
      text: md(['name: a', 'description: d', 'contexts: []']),
      code: 'invalid_value', line: 4, key: 'contexts',
      message: 'agents/reviewer.md:4: key "contexts": must allow at least one context mode',
    },
    {
      title: 'a default context the restriction forbids',
      text: md(['name: a', 'description: d', 'context: fork', 'contexts: [none, summary]']),
      code: 'invalid_value', line: 4, key: 'context',
      message: 'agents/reviewer.md:4: key "context": the default context is of mode "all", which "contexts" does not allow (none, summary)',
    },
    {
      title: 'a long bad value, shortened in the message',
      text: md(['name: a', 'description: d', `effort: ${'x'.repeat(80)}`]),
      code: 'invalid_value', line: 4, key: 'effort',
      message: `agents/reviewer.md:4: key "effort": expected one of "low", "medium", "high", got "${'x'.repeat(56)}...`,
    },
  ];

  it.each(cases)('$title', ({ text, file, code, line, key, message }) => {
    const error = errorOf(text, opts(file));
    expect(error.message).toBe(message);
    expect(error.code).toBe(code);
    expect(error.file).toBe(file ?? 'agents/reviewer.md');
    expect(error.line).toBe(line);
    expect(error.key).toBe(key);
    expect(error.name).toBe('DefinitionError');
    expect(message.endsWith(error.detail)).toBe(true);
  });

  it.each([
    ['zero', 'context: 0'],
    ['a fraction', 'context: 1.5'],
    ['junk', 'context: lots'],
    ['a negative number', 'context: -2'],
    ['a list', 'context: [all]'],
  ])('rejects %s as the default context, with the context parser’s reason', (_title, line) => {
    const error = errorOf(md(['name: a', 'description: d', line]));
    expect(error.code).toBe('invalid_value');
    expect(error.key).toBe('context');
    expect(error.line).toBe(4);
    expect(error.message).toMatch(/^agents\/reviewer\.md:4: key "context": \S/);
  });

  it('quotes the context parser’s message', () => {
    expect(errorOf(md(['name: a', 'description: d', 'context: lots'])).message).toMatch(
      /^agents\/reviewer\.md:4: key "context": Invalid context "lots": it is not a known context value\. Accepted: /,
    );
  });

  it('keeps the YAML error as the cause', () => {
    const error = errorOf(md(['name: [a']));
    expect(error.code).toBe('yaml_syntax');
    expect(error.cause).toBeInstanceOf(Error);
  });
});

describe('agent names', () => {
  it('allows lowercase letters, digits, "-" and "_", with dots only between them', () => {
    for (const name of ['a', 'code-reviewer', 'x_2', '007', 'powershell-5.1-expert', 'a.md']) expect(isValidAgentName(name), name).toBe(true);
    for (const name of ['', 'A', 'a b', 'a/b', '.a', 'a.', 'a..b', '..', 'é']) expect(isValidAgentName(name), name).toBe(false);
  });
});

describe('the quoting retry for unquoted ": "', () => {
  const parse = (lines: readonly string[]) => {
    const warnings: string[] = [];
    const definition = parseDefinition(md(lines), { ...opts(), onWarning: (w) => warnings.push(w) });
    return { definition, warnings };
  };

  it('reads the value as text and warns on its line, naming the key', () => {
    const { definition, warnings } = parse(['name: a', 'description: Use when: reviewing a "diff" \\ or a patch', 'maxTurns: 3']);
    expect(definition.description).toBe('Use when: reviewing a "diff" \\ or a patch');
    expect(definition.maxSteps).toBe(3);
    expect(warnings).toEqual([expect.stringMatching(/^agents\/reviewer\.md:3: key "description": the unquoted value is not valid YAML/)]);
  });

  it('leaves valid YAML alone: no retry, no warning', () => {
    const { definition, warnings } = parse(['name: a', 'description: "Use when: quoted"', 'tools: [Read, Grep]']);
    expect(definition.description).toBe('Use when: quoted');
    expect(warnings).toEqual([]);
  });

  it('keeps lists and block scalars as structure in the retry', () => {
    const { definition, warnings } = parse(['name: a', 'description: Use when: x', 'tools: [Read, Grep]', 'contexts: |', '  none']);
    expect(definition.tools).toEqual(['Read', 'Grep']);
    expect(definition.contexts).toEqual(['none']);
    expect(warnings).toHaveLength(1);
  });

  it('quotes every line the retry needs and warns once per line', () => {
    const { definition, warnings } = parse(['name: a', 'description: Use when: x', 'model: big: fast']);
    expect(definition.model).toBe('big: fast');
    expect(warnings.map((w) => w.split(':')[1])).toEqual(['3', '4']);
  });
});

describe('permissionMode', () => {
  it('reads each of Claude Code’s modes', () => {
    for (const mode of ['default', 'acceptEdits', 'plan', 'dontAsk', 'bypassPermissions']) {
      expect(parseDefinition(md(['name: a', 'description: d', `permissionMode: ${mode}`]), opts()).permissionMode).toBe(mode);
    }
  });

  it('refuses an unknown mode, naming the line and the choices', () => {
    const error = errorOf(md(['name: a', 'description: d', 'permissionMode: yolo']));
    expect(error).toMatchObject({ code: 'invalid_value', line: 4, key: 'permissionMode' });
    expect(error.message).toMatch(/expected one of "default", "acceptEdits", "plan", "dontAsk", "bypassPermissions", got "yolo"/);
  });
});
