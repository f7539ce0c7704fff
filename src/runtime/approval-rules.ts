/**
 * Which rule, if any, makes a call ask for the host's approval: the tool's own
 * `needsApproval`, then the host's `approvalRules` (a permission pattern the call matches, a
 * capability the tool exercises), and for `Agent` calls a budget above the host's threshold.
 * The first that matches asks; a call asks at most once.
 */
import { BUDGET_DIMENSIONS, checkBudget, formatAmount, type Budget } from '../policy/budget.js';
import { CAPABILITY_TAGS } from '../policy/capabilities.js';
import { checkToolCall } from '../policy/tool-permissions.js';
import type { PathAnchors } from '../policy/permission-pattern.js';
import { raceAbort } from '../model/abort.js';
import type { ApprovalRule, ApprovalRules, RuntimeTool } from './types.js';

/** A rule in words, for denials and host prompts. */
export function describeRule(rule: ApprovalRule): string {
  switch (rule.kind) {
    case 'needsApproval':
      return 'the tool needs approval';
    case 'permission':
      return `it matches the approval pattern ${JSON.stringify(rule.pattern)}`;
    case 'capability':
      return `the tool has the risky capability ${rule.capability}`;
    case 'budget':
      return `it asks for a budget of ${formatAmount(rule.dimension, rule.asked)}, above the host's threshold of ${formatAmount(rule.dimension, rule.threshold)}`;
  }
}

/** What deciding a host tool call's rule needs. */
export interface HostCallRuleInput {
  readonly tool: RuntimeTool;
  readonly name: string;
  readonly args: unknown;
  readonly path: string;
  readonly rules: ApprovalRules | undefined;
  /** The capabilities calling the tool exercises (catalog and its own). */
  readonly grants: ReadonlySet<string>;
  readonly anchors: PathAnchors;
  readonly signal: AbortSignal;
}

/** The rule that makes this host tool call ask, or undefined when none does. */
export async function hostCallRule(input: HostCallRuleInput): Promise<ApprovalRule | undefined> {
  const needs = input.tool.needsApproval;
  if (needs === true) return { kind: 'needsApproval' };
  if (typeof needs === 'function' && (await raceAbort(Promise.resolve(needs(input.args, { path: input.path })), input.signal))) return { kind: 'needsApproval' };
  for (const pattern of input.rules?.patterns ?? []) {
    const verdict = checkToolCall([{ label: 'approval pattern', allow: [pattern] }], { tool: input.name, args: input.args, matcher: input.tool.permission, anchors: input.anchors });
    if (verdict.ok) return { kind: 'permission', pattern };
  }
  for (const capability of input.rules?.capabilities ?? []) if (input.grants.has(capability)) return { kind: 'capability', capability };
  return undefined;
}

/**
 * The rule that makes an `Agent` call ask: the subagent's budget above the host's threshold
 * in some dimension. A subagent without its own cap there may spend what its parent has left
 * (`inherited`), so that is what it asks for; with neither, the dimension is uncapped and asks.
 */
export function spawnBudgetRule(budget: Budget | undefined, inherited: Partial<Record<string, number>> | undefined, rules: ApprovalRules | undefined): ApprovalRule | undefined {
  const threshold = rules?.budgetAbove;
  if (!threshold) return undefined;
  for (const dimension of BUDGET_DIMENSIONS) {
    const limit = threshold[dimension];
    if (limit === undefined) continue;
    const asked = budget?.[dimension] ?? inherited?.[dimension] ?? Number.MAX_SAFE_INTEGER;
    if (asked > limit) return { kind: 'budget', dimension, asked, threshold: limit };
  }
  return undefined;
}

/** The capabilities a rule may name (those tools grant). */
const RULE_CAPABILITIES: ReadonlySet<string> = new Set(CAPABILITY_TAGS.filter((c) => c !== 'cost_tier' && c !== 'bypass_permissions'));

/**
 * Checks `approve` and `approvalRules` when the runtime starts; throws a `TypeError` naming
 * the option at fault, so a typo never leaves a call unasked.
 */
export function checkApprovalOptions(approve: unknown, rules: unknown): ApprovalRules | undefined {
  if (approve !== undefined && approve !== 'queue' && typeof approve !== 'function') {
    throw new TypeError(`RuntimeOptions.approve must be a function or 'queue'; got ${JSON.stringify(approve) ?? typeof approve}`);
  }
  if (rules === undefined) return undefined;
  if (rules === null || typeof rules !== 'object' || Array.isArray(rules)) throw new TypeError('RuntimeOptions.approvalRules must be an object { patterns?, capabilities?, budgetAbove? }');
  const { patterns, capabilities, budgetAbove, ...rest } = rules as Record<string, unknown>;
  const unknown = Object.keys(rest)[0];
  if (unknown !== undefined) throw new TypeError(`RuntimeOptions.approvalRules: "${unknown}" is not a rule; known: patterns, capabilities, budgetAbove`);
  const strings = (value: unknown): value is readonly string[] => Array.isArray(value) && value.every((v) => typeof v === 'string' && v.trim() !== '');
  if (patterns !== undefined && !strings(patterns)) throw new TypeError('RuntimeOptions.approvalRules.patterns must be an array of tool entries such as "Bash(git push *)"');
  if (capabilities !== undefined && !(strings(capabilities) && capabilities.every((c) => RULE_CAPABILITIES.has(c)))) {
    throw new TypeError(`RuntimeOptions.approvalRules.capabilities must be an array of ${[...RULE_CAPABILITIES].join(', ')}; got ${JSON.stringify(capabilities)}`);
  }
  return Object.freeze({
    ...(patterns !== undefined ? { patterns: Object.freeze([...patterns]) } : {}),
    ...(capabilities !== undefined ? { capabilities: Object.freeze([...(capabilities as ApprovalRules['capabilities'] & string[])]) } : {}),
    ...(budgetAbove !== undefined ? { budgetAbove: checkBudget(budgetAbove, 'RuntimeOptions.approvalRules.budgetAbove') } : {}),
  });
}
