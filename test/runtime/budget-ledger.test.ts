import { describe, expect, it } from 'vitest';
import { BudgetLedger, type BudgetWarning } from '../../src/runtime/budget-ledger.js';
import { BudgetError, checkBudget, exceedsCeiling, tighterBudget } from '../../src/policy/budget.js';
import { ZERO_USAGE, type Usage } from '../../src/request/usage.js';

const used = (inputTokens: number, outputTokens: number, requests = 1): Usage => ({ ...ZERO_USAGE, inputTokens, outputTokens, requests });

function ledger(now = () => 0) {
  const warnings: BudgetWarning[] = [];
  const l = new BudgetLedger(now, (w) => warnings.push(w));
  return { l, warnings };
}

const open = (l: BudgetLedger, path: string, parentPath: string | null, budget?: Parameters<typeof checkBudget>[0]) =>
  l.open({ path, parentPath, budget: budget === undefined ? undefined : checkBudget(budget, 'test'), price: undefined, model: 'm', startedAt: 0 });

describe('budget rules', () => {
  it('refuses unknown fields and bad values with the field named', () => {
    expect(() => checkBudget({ tokenz: 5 }, 'spawn budget')).toThrow(/"tokenz" is not a budget field/);
    expect(() => checkBudget({ tokens: -1 }, 'spawn budget')).toThrow(/spawn budget.tokens must be an integer >= 0/);
    expect(() => checkBudget({ costUsd: Number.NaN }, 'b')).toThrow(/costUsd/);
    expect(() => checkBudget({ softLimit: 1.5 }, 'b')).toThrow(/softLimit/);
    expect(checkBudget({ tokens: 5, steps: undefined }, 'b')).toEqual({ tokens: 5 });
  });

  it('takes the tighter cap per dimension and names what exceeds a ceiling', () => {
    expect(tighterBudget({ tokens: 5000 }, { tokens: 8000, steps: 4 })).toEqual({ tokens: 5000, steps: 4 });
    expect(exceedsCeiling({ tokens: 9000, steps: 2 }, { tokens: 8000, steps: 4 })).toEqual([{ dimension: 'tokens', asked: 9000, ceiling: 8000 }]);
  });
});

describe('BudgetLedger', () => {
  it('carves a subagent budget from the parent, refuses a carve that does not fit, and takes nothing then', () => {
    const { l } = ledger();
    open(l, '/root', null, { tokens: 1000 });
    open(l, '/root/a', '/root', { tokens: 600 });
    expect(l.remaining('/root')).toEqual({ tokens: 400 });
    // Two parents racing for the last of the budget: the second carve fails with a typed error.
    open(l, '/root/b', '/root', { tokens: 400 });
    let error: unknown;
    try {
      open(l, '/root/c', '/root', { tokens: 1 });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(BudgetError);
    expect((error as BudgetError).code).toBe('budget');
    expect((error as BudgetError).dimension).toBe('tokens');
    expect(l.remaining('/root/c')).toBeUndefined();
    expect(l.remaining('/root')).toEqual({ tokens: 0 });
  });

  it('returns what a settled subagent did not use', () => {
    const { l } = ledger();
    open(l, '/root', null, { tokens: 1000 });
    open(l, '/root/a', '/root', { tokens: 600 });
    l.sync('/root/a', used(100, 50));
    expect(l.remaining('/root/a')).toEqual({ tokens: 450 });
    l.settle('/root/a');
    expect(l.remaining('/root')).toEqual({ tokens: 850 });
  });

  it('refuses a request whose estimate would cross the cap, and holds the estimate of one that fits', () => {
    const { l } = ledger();
    open(l, '/root', null, { tokens: 1000 });
    open(l, '/root/a', '/root');
    const hold = l.beginRequest('/root/a', { inputTokens: 500, outputTokens: 300 });
    expect(hold).not.toBeInstanceOf(BudgetError);
    // A sibling sampling at the same time cannot take what the first request holds.
    const refused = l.beginRequest('/root', { inputTokens: 100, outputTokens: 200 });
    expect(refused).toBeInstanceOf(BudgetError);
    expect((refused as BudgetError).message).toMatch(/300 tokens \(input estimate 100 \+ output limit 200\), more than its tokens budget has left \(200 tokens/);
    if (hold instanceof BudgetError) throw hold;
    l.endRequest(hold, used(450, 100));
    // Charged once, though the agent's usage then grows by the same amount.
    l.sync('/root/a', used(450, 100));
    expect(l.remaining('/root')).toEqual({ tokens: 450 });
  });

  it('caps steps and spawns, and a spawn under a spent spawn budget is refused', () => {
    const { l } = ledger();
    open(l, '/root', null, { steps: 1, spawns: 1 });
    open(l, '/root/a', '/root');
    expect(() => open(l, '/root/b', '/root')).toThrow(BudgetError);
    const hold = l.beginRequest('/root/a', { inputTokens: 1, outputTokens: 1 });
    expect(hold).not.toBeInstanceOf(BudgetError);
    expect(l.beginRequest('/root', { inputTokens: 1, outputTokens: 1 })).toBeInstanceOf(BudgetError);
  });

  it('stops requests after the wall-time budget and refuses a longer one for a subagent', () => {
    let now = 0;
    const { l } = ledger(() => now);
    open(l, '/root', null, { wallMs: 1000 });
    now = 600;
    expect(() => open(l, '/root/a', '/root', { wallMs: 500 })).toThrow(/400 ms left/);
    open(l, '/root/a', '/root', { wallMs: 300 });
    now = 1000;
    expect(l.beginRequest('/root', { inputTokens: 1, outputTokens: 1 })).toBeInstanceOf(BudgetError);
  });

  it("a spawn's early check is carved from only while nothing changed since: a sibling's carve in between refuses it", () => {
    const { l } = ledger();
    open(l, '/root', null, { tokens: 1000 });
    const ask = (path: string) => ({ path, parentPath: '/root', budget: checkBudget({ tokens: 600 }, 'test'), price: undefined, model: 'm', startedAt: 0 });
    const a = ask('/root/a');
    const checked = l.check(a);
    // Between the check and the carve (the host confirming, say) a sibling takes 600.
    l.open(ask('/root/b'));
    expect(() => l.open(a, checked)).toThrow(/cannot get a budget of 600 tokens: \/root's budget has 400 tokens left/);
    expect(l.remaining('/root')).toEqual({ tokens: 400 });
    // With nothing in between, the checked plan is carved as it was.
    const c = { ...ask('/root/c'), budget: checkBudget({ tokens: 300 }, 'test') };
    l.open(c, l.check(c));
    expect(l.remaining('/root')).toEqual({ tokens: 100 });
    expect(l.remaining('/root/c')).toEqual({ tokens: 300 });
  });

  it("checks a subagent's time budget again at the carve, though its early check found it fitting", () => {
    let now = 0;
    const { l } = ledger(() => now);
    open(l, '/root', null, { wallMs: 1000 });
    const a = { path: '/root/a', parentPath: '/root', budget: checkBudget({ wallMs: 500 }, 'test'), price: undefined, model: 'm', startedAt: 0 };
    const checked = l.check(a);
    now = 600;
    expect(() => l.open(a, checked)).toThrow(/400 ms left/);
  });

  it('refuses a cost budget for a model without a price', () => {
    const { l } = ledger();
    expect(() => open(l, '/root', null, { costUsd: 1 })).toThrow(/no price/);
  });

  it('warns once when the soft limit is reached', () => {
    const { l, warnings } = ledger();
    open(l, '/root', null, { tokens: 1000 });
    open(l, '/root/a', '/root');
    l.sync('/root/a', used(700, 50));
    l.sync('/root/a', used(800, 60));
    l.sync('/root/a', used(900, 60));
    expect(warnings).toEqual([{ path: '/root', by: '/root/a', dimension: 'tokens', limit: 1000, used: 860, remaining: 140 }]);
  });
});
