import { describe, expect, it } from 'vitest';
import { commandMatchesAll, commandMatchesAny, pathMatches, splitCommand } from '../../src/policy/permission-pattern.js';
import { parseToolEntry } from '../../src/policy/tool-name.js';

const anchors = { root: '/work/repo', home: '/home/ada' };

describe('parseToolEntry', () => {
  it('splits a tool and its pattern', () => {
    expect(parseToolEntry('Bash(git diff *)')).toEqual({ text: 'Bash(git diff *)', tool: 'Bash', pattern: 'git diff *' });
    expect(parseToolEntry(' Read ')).toEqual({ text: 'Read', tool: 'Read' });
  });

  it('reads Bash() and Bash(*) as the whole tool', () => {
    expect(parseToolEntry('Bash()').pattern).toBeUndefined();
    expect(parseToolEntry('Bash(*)').pattern).toBeUndefined();
  });
});

describe('command patterns', () => {
  const allows = (pattern: string, command: string) => commandMatchesAll([pattern], command);

  it('matches a wildcard pattern, and its bare command when it ends in " *"', () => {
    expect(allows('git diff *', 'git diff HEAD~1 -- src')).toBe(true);
    expect(allows('git diff *', 'git diff')).toBe(true);
    expect(allows('git diff *', 'git   diff   --stat')).toBe(true);
    expect(allows('git diff *', 'git status')).toBe(false);
    expect(allows('ls *', 'lsof')).toBe(false);
    expect(allows('ls*', 'lsof')).toBe(true);
  });

  it('reads the ":*" suffix as a prefix at a word boundary', () => {
    expect(allows('npm test:*', 'npm test')).toBe(true);
    expect(allows('npm test:*', 'npm test -- --run a.test.ts')).toBe(true);
    expect(allows('npm test:*', 'npm testing')).toBe(false);
    expect(allows('npm test:*', 'npm install')).toBe(false);
  });

  it('needs an exact match without a wildcard', () => {
    expect(allows('git status', 'git status')).toBe(true);
    expect(allows('git status', 'git status --short')).toBe(false);
  });

  it('checks every part of a compound command', () => {
    expect(allows('git diff *', 'git diff; rm -rf /')).toBe(false);
    expect(allows('git diff *', 'git diff && rm -rf /')).toBe(false);
    expect(allows('git diff *', 'git diff | sh')).toBe(false);
    expect(allows('git diff *', 'git diff & rm -rf /')).toBe(false);
    expect(allows('git diff *', 'git diff\nrm -rf /')).toBe(false);
    expect(commandMatchesAll(['git diff *', 'wc *'], 'git diff | wc -l')).toBe(true);
  });

  it('never vouches for substitution or redirection', () => {
    for (const command of ['git diff $(rm -rf /)', 'git diff `rm -rf /`', 'git diff "$(rm -rf /)"', 'git diff > src/a.ts', 'git diff <(cat /etc/passwd)', 'git diff \\\nrm']) {
      expect(allows('git diff *', command), command).toBe(false);
    }
  });

  it('keeps operators inside quotes as text', () => {
    expect(allows('git commit -m *', 'git commit -m "a; b && c > d"')).toBe(true);
    expect(allows('echo *', "echo '$(not run)'")).toBe(true);
    expect(splitCommand('echo "a | b" | wc')).toEqual(['echo "a | b"', 'wc']);
    expect(splitCommand('echo "unclosed')).toBeUndefined();
  });

  it('denies when any part matches, and treats an opaque command as matching', () => {
    expect(commandMatchesAny(['rm *'], 'git diff && rm -rf x')).toBe(true);
    expect(commandMatchesAny(['rm *'], 'git diff')).toBe(false);
    expect(commandMatchesAny(['rm *'], 'git diff $(whatever)')).toBe(true);
  });
});

describe('path patterns', () => {
  it('anchors ./x, /x and x at the workspace root', () => {
    for (const pattern of ['./src/**', '/src/**', 'src/**']) {
      expect(pathMatches(pattern, 'src/a/b.ts', anchors), pattern).toBe(true);
      expect(pathMatches(pattern, '/work/repo/src/.env', anchors), pattern).toBe(true);
      expect(pathMatches(pattern, 'test/a.ts', anchors), pattern).toBe(false);
    }
  });

  it('resolves the call path first, so ".." cannot step out', () => {
    expect(pathMatches('./src/**', 'src/../.env', anchors)).toBe(false);
    expect(pathMatches('./src/**', '/work/repo/src/../../secret', anchors)).toBe(false);
  });

  it('reads // as absolute and ~/ as the home directory', () => {
    expect(pathMatches('//etc/hosts', '/etc/hosts', anchors)).toBe(true);
    expect(pathMatches('~/notes/*.md', '~/notes/a.md', anchors)).toBe(true);
    expect(pathMatches('~/notes/*.md', '/home/ada/notes/a.md', anchors)).toBe(true);
    expect(pathMatches('~/notes/*.md', '/home/ada/notes/deep/a.md', anchors)).toBe(false);
  });
});
