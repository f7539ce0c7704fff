/**
 * A settling agent's result as the runtime completes it, when the agent takes it: what only
 * the runtime knows (the usage accounts, its clock, the provider's bodies) added to what the
 * machine made.
 */
import type { AgentResult } from '../../machines/agent.types.js';
import { wirePrefixReuse } from '../request/wire-reuse.js';
import type { AgentRecord } from './registry.js';
import type { UsageAccount } from './usage-ledger.js';

/**
 * `made` with the agent's usage from its account (with its subtree's), the time since its
 * reservation, and its prefix measured on the provider's bodies when the adapter reported them
 * (the canonical figure stays as `prefix.canonical`).
 */
export function completeResult(made: AgentResult, record: AgentRecord, account: UsageAccount | undefined, now: number): AgentResult {
  account?.set(made.usage);
  return {
    ...made,
    ...(record.parentPath !== null && record.firstWire ? { prefix: wirePrefixReuse(made.prefix, record.parentWire, record.firstWire) } : {}),
    elapsedMs: Math.max(0, now - record.reservedAt),
    ...(account ? { usage: account.own, subtreeUsage: account.subtree } : {}),
  };
}
