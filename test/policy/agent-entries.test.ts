import { describe, expect, it } from 'vitest';
import { checkSpawnRole, normalizeAgentEntry, rolesOfPattern } from '../../src/policy/agent-entries.js';

describe('Agent entries', () => {
  it('read Task as Agent, pattern kept', () => {
    expect(normalizeAgentEntry('Task(worker, scout)')).toBe('Agent(worker, scout)');
    expect(normalizeAgentEntry('task')).toBe('Agent');
    expect(normalizeAgentEntry('Task(*)')).toBe('Agent');
    expect(normalizeAgentEntry('Read')).toBe('Read');
    expect(normalizeAgentEntry('Taskmaster')).toBe('Taskmaster');
  });

  it('split a pattern into role names', () => {
    expect(rolesOfPattern(' worker ,scout,, ')).toEqual(['worker', 'scout']);
  });

  it('allow only the listed roles, in every layer, and let a deny entry take one away', () => {
    const lead = { label: 'role "lead"', allow: ['Read', 'Agent(worker, scout)'] };
    expect(checkSpawnRole([lead], 'worker')).toEqual({ ok: true });
    expect(checkSpawnRole([lead], 'other')).toEqual({ ok: false, reason: 'role "lead" may start only the roles worker, scout; pass one of them as role (not role "other")' });
    expect(checkSpawnRole([lead], undefined)).toMatchObject({ ok: false });
    // A plain Agent entry beside a pattern allows every role.
    expect(checkSpawnRole([{ label: 'r', allow: ['Agent(worker)', 'agent'] }], 'other')).toEqual({ ok: true });
    const upper = { label: 'the host', allow: ['Agent(scout)'] };
    expect(checkSpawnRole([lead, upper], 'worker')).toMatchObject({ ok: false, reason: expect.stringMatching(/^the host may start only the roles scout/) });
    const deny = { label: 'role "d"', deny: ['Agent(scout)'] };
    expect(checkSpawnRole([deny], 'scout')).toEqual({ ok: false, reason: 'role "d" may not start role "scout" (disallowedTools Agent(scout))' });
    expect(checkSpawnRole([deny], 'worker')).toEqual({ ok: true });
    expect(checkSpawnRole([{ label: 'x', deny: ['Agent'] }], 'worker')).toMatchObject({ ok: false });
    expect(checkSpawnRole([], undefined)).toEqual({ ok: true });
  });
});
