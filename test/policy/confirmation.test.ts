import { describe, expect, expectTypeOf, it } from 'vitest';
import type { ConfirmCallback, ConfirmationDecision } from '../../src/policy/confirmation.js';
import { describeConfirmation } from '../../src/policy/confirmation.js';

describe('describeConfirmation', () => {
  it('names the subagent path, its role and each capability with its reason', () => {
    const text = describeConfirmation({
      parentPath: '/root/research',
      taskName: 'tests',
      role: 'tester',
      capabilities: [
        { capability: 'shell', subjects: ['bash'], reason: 'tool "bash" grants shell' },
        { capability: 'cost_tier', subjects: ['opus'], reason: 'model "opus" has cost tier 3, above the granted maximum 2' },
      ],
    });
    expect(text).toBe(
      [
        'Subagent /root/research/tests (role "tester"), started by /root/research, asks for permission to:',
        '- run shell commands: tool "bash" grants shell',
        '- use a costlier model: model "opus" has cost tier 3, above the granted maximum 2',
      ].join('\n'),
    );
    expect(text).not.toMatch(/child/i);
  });

  it('works without a role and with nothing to confirm', () => {
    expect(describeConfirmation({ parentPath: '/root/', taskName: 'scan', capabilities: [] })).toBe(
      'Subagent /root/scan, started by /root/, asks for permission to:\n- nothing risky',
    );
  });

  it('types the host callback', async () => {
    const confirm: ConfirmCallback = async (request, signal) =>
      signal.aborted ? { approved: false, reason: 'cancelled' } : request.capabilities.length < 2 ? { approved: true } : { approved: false };
    const decision = await confirm({ parentPath: '/root', taskName: 'x', capabilities: [] }, new AbortController().signal);
    expect(decision).toEqual({ approved: true });
    expectTypeOf(decision).toEqualTypeOf<ConfirmationDecision>();
    const controller = new AbortController();
    controller.abort();
    expect(await confirm({ parentPath: '/root', taskName: 'x', capabilities: [] }, controller.signal)).toEqual({ approved: false, reason: 'cancelled' });
  });
});
