/**
 * `Agent` arguments in a session with budgets: a call asking for a budget is checked by hand
 * for its `budget` and by the plain schema for the rest. Whatever it is given, the outcome is
 * the one the full zod schema gives: the same arguments, the same error.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AGENT_TOOL_WITH_BUDGET, parseToolArguments } from '../../src/request/tools.js';

const field = fc.oneof(
  fc.nat(),
  fc.integer({ min: -5, max: 5 }),
  fc.double({ noNaN: false }),
  fc.constantFrom(Number.MAX_SAFE_INTEGER + 1, Infinity, -0, 0.5),
  fc.string(),
  fc.constant(null),
  fc.constant(undefined),
);
const budgetKey = fc.constantFrom('tokens', 'costUsd', 'wallMs', 'steps', 'spawns', 'softLimit', 'other');
const budget = fc.oneof(fc.dictionary(budgetKey, field, { maxKeys: 6, noNullPrototype: true }), fc.constant(null), fc.array(fc.nat(), { maxLength: 2 }), fc.nat(), fc.string());
const args = fc.record(
  {
    task_name: fc.oneof(fc.constantFrom('w1', 'research'), fc.string()),
    message: fc.oneof(fc.constant('work'), fc.string()),
    context: fc.constantFrom('none', 'all', 3),
    extra: fc.nat(),
    budget,
  },
  { requiredKeys: ['budget'], noNullPrototype: true },
);

describe('parseToolArguments: Agent with a budget', () => {
  it('accepts and rejects exactly what the full schema does, with the same arguments or the same error', () => {
    fc.assert(
      fc.property(args, (raw) => {
        const got = parseToolArguments('Agent', raw, { budget: true });
        const full = AGENT_TOOL_WITH_BUDGET.parse(raw);
        expect(got.ok).toBe(full.ok);
        if (got.ok && full.ok) expect(JSON.stringify(got.args)).toBe(JSON.stringify(full.args));
        if (!got.ok && !full.ok) expect(got.error.message).toBe(full.error.message);
      }),
      { numRuns: 2_000 },
    );
  });

  it('keeps the budget fields in the schema order and only those the call set', () => {
    const got = parseToolArguments('Agent', { budget: { steps: 4, tokens: 10_000 }, message: 'work', task_name: 'w1' }, { budget: true });
    if (!got.ok) throw new Error(got.error.message);
    expect(got.args).toEqual({ task_name: 'w1', message: 'work', budget: { tokens: 10_000, steps: 4 } });
    expect(Object.keys((got.args as { budget?: object }).budget ?? {})).toEqual(['tokens', 'steps']);
  });

  it('refuses a budget that is not a plain object as the schema words it', () => {
    const got = parseToolArguments('Agent', { task_name: 'w1', message: 'work', budget: Object.create({ tokens: 5 }) as object }, { budget: true });
    const full = AGENT_TOOL_WITH_BUDGET.parse({ task_name: 'w1', message: 'work', budget: Object.create({ tokens: 5 }) as object });
    expect(got.ok).toBe(full.ok);
  });
});
