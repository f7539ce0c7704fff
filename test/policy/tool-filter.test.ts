import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { effectiveToolNames, isToolAllowed } from '../../src/policy/tool-filter.js';
import { hasSpecifier, splitToolList, toolBaseName, toolNameMatches } from '../../src/policy/tool-name.js';

const available = ['read', 'grep', 'find', 'bash', 'edit', 'write', 'send_message', 'Agent'];

describe('effectiveToolNames', () => {
  it('keeps every available tool without a filter', () => {
    expect(effectiveToolNames({ available })).toEqual({ tools: available, unknownAllowed: [], unknownDenied: [], unenforceable: [] });
  });

  it('applies the allow list, keeping the available order', () => {
    expect(effectiveToolNames({ available, allow: ['send_message', 'grep', 'read'] }).tools).toEqual(['read', 'grep', 'send_message']);
  });

  it('treats an empty allow list as no tools', () => {
    expect(effectiveToolNames({ available, allow: [] }).tools).toEqual([]);
  });

  it('applies the deny list after the allow list', () => {
    expect(effectiveToolNames({ available, allow: ['read', 'bash'], deny: ['bash'] }).tools).toEqual(['read']);
    expect(effectiveToolNames({ available, deny: ['bash', 'write', 'edit'] }).tools).toEqual(['read', 'grep', 'find', 'send_message', 'Agent']);
  });

  it('reports unknown names in both lists', () => {
    const result = effectiveToolNames({ available, allow: ['read', 'Glob', 'WebSearch'], deny: ['NotebookEdit'] });
    expect(result.tools).toEqual(['read']);
    expect(result.unknownAllowed).toEqual(['Glob', 'WebSearch']);
    expect(result.unknownDenied).toEqual(['NotebookEdit']);
  });

  it('lets a Claude Code list (Read, Grep, Bash) select lowercase host tools', () => {
    expect(effectiveToolNames({ available, allow: ['Read', 'Grep', 'Bash'] }).tools).toEqual(['read', 'grep', 'bash']);
  });

  it('matches every tool whose name differs only in case, so listing and execution agree', () => {
    expect(effectiveToolNames({ available: ['Read', 'read'], allow: ['READ'] }).tools).toEqual(['Read', 'read']);
    expect(effectiveToolNames({ available: ['Bash', 'bash'], deny: ['Bash'] }).tools).toEqual([]);
  });

  it('never widens a pattern: without a matcher, a pattern allows nothing and denies the whole tool', () => {
    const result = effectiveToolNames({ available, allow: ['Bash(git diff:*)', 'read', 'edit'], deny: ['Edit(*.lock)'] });
    expect(result.tools).toEqual(['read']);
    expect(result.unenforceable).toEqual(['Bash(git diff:*)', 'Edit(*.lock)']);
  });

  it('keeps a pattern-only tool when it declares a matcher (the pattern is checked per call)', () => {
    const hasMatcher = (name: string) => name === 'bash' || name === 'edit';
    const result = effectiveToolNames({ available, hasMatcher, allow: ['Bash(git diff:*)', 'read', 'edit'], deny: ['Edit(*.lock)'] });
    expect(result.tools).toEqual(['read', 'bash', 'edit']);
    expect(result.unenforceable).toEqual([]);
  });

  it('reads Bash() and Bash(*) as the whole tool, as Claude Code does', () => {
    expect(effectiveToolNames({ available, allow: ['Bash()', 'Read(*)'] }).tools).toEqual(['read', 'bash']);
  });

  it('never lists a tool twice', () => {
    expect(effectiveToolNames({ available: ['read', 'read'], allow: ['read', 'Read'] }).tools).toEqual(['read']);
  });

  it('only ever returns available tools, minus denied ones (property)', () => {
    const name = fc.constantFrom('read', 'Read', 'bash', 'Bash', 'grep', 'x', 'Write(*)');
    fc.assert(
      fc.property(fc.array(name), fc.option(fc.array(name), { nil: undefined }), fc.array(name), (avail, allow, deny) => {
        const { tools } = effectiveToolNames({ available: avail, allow, deny });
        for (const tool of tools) {
          expect(avail).toContain(tool);
          expect(isToolAllowed({ allow, deny }, tool)).toBe(true);
        }
      }),
    );
  });
});

describe('isToolAllowed', () => {
  it('allows everything without a filter', () => {
    expect(isToolAllowed({}, 'bash')).toBe(true);
  });

  it('refuses tools outside the allow list and tools on the deny list', () => {
    const filter = { allow: ['Read', 'Bash'], deny: ['bash'] };
    expect(isToolAllowed(filter, 'read')).toBe(true);
    expect(isToolAllowed(filter, 'bash')).toBe(false);
    expect(isToolAllowed(filter, 'write')).toBe(false);
    expect(isToolAllowed({ allow: [] }, 'read')).toBe(false);
    expect(isToolAllowed({ deny: ['Write(*.md)'] }, 'write')).toBe(false);
  });
});

describe('tool names', () => {
  it('splits comma lists outside parentheses', () => {
    expect(splitToolList('Read, Grep,Glob ,  Bash')).toEqual(['Read', 'Grep', 'Glob', 'Bash']);
    expect(splitToolList('Task(a, b), Bash(git diff:*), ,')).toEqual(['Task(a, b)', 'Bash(git diff:*)']);
    expect(splitToolList('odd), Read')).toEqual(['odd)', 'Read']);
    expect(splitToolList('')).toEqual([]);
  });

  it('round-trips names joined with commas (property)', () => {
    const toolName = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,11}$/);
    fc.assert(fc.property(fc.array(toolName), (names) => {
      expect(splitToolList(names.join(', '))).toEqual(names);
    }));
  });

  it('finds base names and specifiers', () => {
    expect(toolBaseName('Bash(git:*)')).toBe('Bash');
    expect(toolBaseName(' Read ')).toBe('Read');
    expect(hasSpecifier('Bash(git:*)')).toBe(true);
    expect(hasSpecifier('Bash')).toBe(false);
    expect(toolNameMatches('Bash(x)', 'bash')).toBe(true);
    expect(toolNameMatches('Write', 'read')).toBe(false);
  });
});
