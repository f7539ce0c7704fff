import { describe, expect, it } from 'vitest';
import { ContextNotAllowedError, ContextSpecError } from '../../src/context/errors.js';
import { resolveContextSpec } from '../../src/context/resolve.js';
import type { ContextSpec } from '../../src/context/types.js';

/** The error resolving `input` throws. */
function failure(input: Parameters<typeof resolveContextSpec>[0]): Error {
  try {
    resolveContextSpec(input);
  } catch (error) {
    if (error instanceof Error) return error;
  }
  throw new Error('expected a failure');
}

describe('resolveContextSpec precedence', () => {
  it('defaults to none', () => {
    expect(resolveContextSpec({})).toBe('none');
  });

  it('runtime default, then role default, then the spawn value', () => {
    expect(resolveContextSpec({ runtimeDefault: 'all' })).toBe('all');
    expect(resolveContextSpec({ runtimeDefault: 'all', role: { name: 'r', context: 'summary' } })).toBe('summary');
    expect(resolveContextSpec({ runtimeDefault: 'all', role: { name: 'r', context: 'summary' }, requested: '2' })).toEqual({ turns: 2 });
    expect(resolveContextSpec({ role: { name: 'r' }, requested: 'fork' })).toBe('all');
    expect(resolveContextSpec({ runtimeDefault: { turns: 4 }, role: { name: 'r' } })).toEqual({ turns: 4 });
  });

  it('an omitted spawn value keeps the default; null is an invalid value', () => {
    expect(resolveContextSpec({ runtimeDefault: 'all', requested: undefined })).toBe('all');
    expect(failure({ runtimeDefault: 'all', requested: null })).toBeInstanceOf(ContextSpecError);
  });

  it('parses the spawn value strictly', () => {
    const error = failure({ requested: 'three' });
    expect(error).toBeInstanceOf(ContextSpecError);
    expect((error as ContextSpecError).code).toBe('invalid_context');
  });

  it('rejects malformed configured defaults', () => {
    const runtime = failure({ runtimeDefault: { turns: 0 } });
    expect(runtime).toBeInstanceOf(ContextSpecError);
    expect(runtime.message).toBe('Invalid context in the runtime default: {"turns":0} is not a context spec.');
    const role = failure({ role: { name: 'critic', context: 'fork' as unknown as ContextSpec } });
    expect(role.message).toBe('Invalid context in the role default of role "critic": "fork" is not a context spec.');
  });
});

describe('resolveContextSpec allowed modes', () => {
  const reviewer = { name: 'reviewer', contexts: ['none', 'summary'] as const };

  it('allows a listed mode', () => {
    expect(resolveContextSpec({ role: reviewer, requested: 'summary' })).toBe('summary');
    expect(resolveContextSpec({ role: { name: 'r', contexts: ['turns'] }, requested: 5 })).toEqual({ turns: 5 });
  });

  it('refuses a spawn value outside the list, naming the role and the allowed modes', () => {
    const error = failure({ role: reviewer, requested: 'all' }) as ContextNotAllowedError;
    expect(error).toBeInstanceOf(ContextNotAllowedError);
    expect(error.code).toBe('context_not_allowed');
    expect(error.name).toBe('ContextNotAllowedError');
    expect(error.role).toBe('reviewer');
    expect(error.allowed).toEqual(['none', 'summary']);
    expect(error.spec).toBe('all');
    expect(error.source).toBe('spawn');
    expect(error.message).toBe('Role "reviewer" does not allow context "all" (mode all, from the spawn); allowed modes: none, summary.');
  });

  it('refuses N turns when the role does not list the turns mode', () => {
    const error = failure({ role: reviewer, requested: '3' }) as ContextNotAllowedError;
    expect(error.message).toBe('Role "reviewer" does not allow context "3" (mode turns, from the spawn); allowed modes: none, summary.');
  });

  it("a role default outside its own list is an error only when it is the effective value", () => {
    const odd = { name: 'odd', context: 'all' as const, contexts: ['none'] as const };
    expect(resolveContextSpec({ role: odd, requested: 'none' })).toBe('none');
    const error = failure({ role: odd }) as ContextNotAllowedError;
    expect(error.source).toBe('role default');
    expect(error.message).toBe('Role "odd" does not allow context "all" (mode all, from the role default); allowed modes: none.');
  });

  it('checks the runtime default when it is the effective value', () => {
    const error = failure({ runtimeDefault: 'all', role: { name: 'quiet', contexts: ['none'] } }) as ContextNotAllowedError;
    expect(error.source).toBe('runtime default');
    expect(error.message).toBe('Role "quiet" does not allow context "all" (mode all, from the runtime default); allowed modes: none.');
  });

  it('an empty list allows nothing', () => {
    const error = failure({ role: { name: 'locked', contexts: [] } }) as ContextNotAllowedError;
    expect(error.message).toBe('Role "locked" does not allow context "none" (mode none, from the runtime default); it allows no context mode.');
    expect(Object.isFrozen(error.allowed)).toBe(true);
  });
});
