import { describe, expect, it } from 'vitest';
import { mapToolEntry, mappedName } from '../../src/policy/tool-mapping.js';

const map = { Read: 'read_file', Bash: 'shell' };

describe('mapToolEntry', () => {
  it('maps the tool name and keeps the pattern with it', () => {
    expect(mapToolEntry('Read', map)).toBe('read_file');
    expect(mapToolEntry('Read(./src/**)', map)).toBe('read_file(./src/**)');
    expect(mapToolEntry('Bash(git diff *)', map)).toBe('shell(git diff *)');
  });

  it('falls back to a lookup that ignores case, and leaves unmapped names alone', () => {
    expect(mappedName('bash', map)).toBe('shell');
    expect(mapToolEntry('Grep', map)).toBe('Grep');
    expect(mapToolEntry('Grep', undefined)).toBe('Grep');
    expect(mappedName('toString', map)).toBeUndefined();
  });
});
