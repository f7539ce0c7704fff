/**
 * The runtime's public shapes, gathered from the files that hold one concept each: options
 * (`runtime-options.ts`), the session handle (`runtime-handle.ts`), events (`runtime-events.ts`),
 * spawns (`spawn-types.ts`), host tools and approvals (`tool-types.ts`), task hooks
 * (`task-hooks.ts`).
 */
import type { Budget } from '../policy/budget.js';
import type { BudgetRemaining, BudgetWarning } from './budget-ledger.js';
import type { AgentResult, Delivery, Lifetime, TaskHookDecision, TurnReport } from '../../machines/agent.types.js';
import type { RetentionPolicy } from './retention.js';

export type { Budget, BudgetRemaining, BudgetWarning };
export type { AgentResult, Delivery, Lifetime, TaskHookDecision, TurnReport };
export type { RetentionPolicy };
export type { TaskHook, TaskHookInput } from './task-hooks.js';
export type { ApprovalAnswer, ApprovalCallback, ApprovalDecision, ApprovalRequest, ApprovalRule, ApprovalRules, NeedsApproval, RuntimeTool, ToolExecutionContext, ToolOutput } from './tool-types.js';
export type { FirstReportValue, SpawnHandle, SpawnPolicyDecision, SpawnPolicyInput, SpawnRequest } from './spawn-types.js';
export type { CompactionPolicy, HostRoot, RuntimeOptions } from './runtime-options.js';
export type { RetryEvent, RuntimeEvents } from './runtime-events.js';
export type { AgentInfo, CancelledAgent, CancelReport, PromptOptions, Runtime, TurnOutcome, TurnUsage } from './runtime-handle.js';
