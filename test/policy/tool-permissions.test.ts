import { describe, expect, it } from 'vitest';
import type { PermissionMatcher } from '../../src/policy/permission-pattern.js';
import { checkToolCall, type PermissionLayer } from '../../src/policy/tool-permissions.js';

const anchors = { root: '/work/repo', home: '/home/ada' };
const bash: PermissionMatcher<{ command: string }> = { kind: 'command', subject: (args) => args.command };
const move: PermissionMatcher<{ from: string; to: string }> = { kind: 'path', subject: (args) => [args.from, args.to] };
const check = (layers: PermissionLayer[], tool: string, args: unknown, matcher?: PermissionMatcher) =>
  checkToolCall(layers, { tool, args, matcher: matcher as PermissionMatcher | undefined, anchors });

const reviewer: PermissionLayer = { label: 'role "reviewer" (agents/reviewer.md)', allow: ['Read', 'Bash(git diff *)', 'Bash(npm test:*)'] };

describe('checkToolCall', () => {
  it('allows a call inside a pattern and refuses one outside, naming the layer and the patterns', () => {
    expect(check([reviewer], 'bash', { command: 'git diff HEAD' }, bash as PermissionMatcher)).toEqual({ ok: true });
    expect(check([reviewer], 'bash', { command: 'npm test -- a' }, bash as PermissionMatcher)).toEqual({ ok: true });
    const refused = check([reviewer], 'bash', { command: 'rm -rf /' }, bash as PermissionMatcher);
    expect(refused).toEqual({
      ok: false,
      reason: 'role "reviewer" (agents/reviewer.md) allows bash only for "git diff *", "npm test:*"; this call ("rm -rf /") is outside them',
    });
  });

  it('refuses a pattern-only tool that declares no matcher, never widening', () => {
    const verdict = check([reviewer], 'bash', { command: 'git diff' });
    expect(verdict.ok).toBe(false);
    expect(!verdict.ok && verdict.reason).toMatch(/declares no matcher/);
  });

  it('allows a tool listed without a pattern, whatever the call', () => {
    expect(check([{ label: 'r', allow: ['Bash', 'Bash(git diff *)'] }], 'bash', { command: 'rm -rf /' }, bash as PermissionMatcher)).toEqual({ ok: true });
  });

  it('applies deny patterns after allow, to any part of a command', () => {
    const layer: PermissionLayer = { label: 'r', deny: ['Bash(git push:*)'] };
    expect(check([layer], 'bash', { command: 'git status' }, bash as PermissionMatcher)).toEqual({ ok: true });
    const verdict = check([layer], 'bash', { command: 'git status && git push --force' }, bash as PermissionMatcher);
    expect(!verdict.ok && verdict.reason).toBe('r denies bash for "git push:*"; this call ("git status && git push --force") matches it');
    expect(check([layer], 'bash', { command: 'git status' }).ok).toBe(false);
  });

  it('needs every layer to allow: a subagent keeps its parent role’s limits', () => {
    const parent: PermissionLayer = { label: 'role "reviewer"', allow: ['Bash(git *)'] };
    const child: PermissionLayer = { label: 'role "pusher"', allow: ['Bash(git push *)', 'Bash(rm *)'] };
    expect(check([parent, child], 'bash', { command: 'git push origin' }, bash as PermissionMatcher)).toEqual({ ok: true });
    expect(check([parent, child], 'bash', { command: 'rm -rf x' }, bash as PermissionMatcher).ok).toBe(false);
  });

  it('checks every path a call names', () => {
    const layer: PermissionLayer = { label: 'r', allow: ['Move(./src/**)'] };
    expect(check([layer], 'move', { from: 'src/a.ts', to: 'src/b.ts' }, move as PermissionMatcher)).toEqual({ ok: true });
    expect(check([layer], 'move', { from: 'src/a.ts', to: '../elsewhere.ts' }, move as PermissionMatcher).ok).toBe(false);
  });

  it('refuses when the matcher cannot say what the call does', () => {
    const broken: PermissionMatcher = { kind: 'command', subject: () => { throw new Error('no command field'); } };
    const verdict = check([reviewer], 'bash', {}, broken);
    expect(!verdict.ok && verdict.reason).toMatch(/could not say what the call acts on \(no command field\)/);
  });

  it('refuses a tool the allow list does not name', () => {
    expect(check([reviewer], 'write', { path: 'a' })).toEqual({ ok: false, reason: 'role "reviewer" (agents/reviewer.md) does not allow the tool write' });
  });
});
