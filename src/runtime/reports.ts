/**
 * What parents read about their subagents: results, receipts, notices and turn reports.
 * Canonical JSON, so the same outcome always costs the same bytes in the parent's dialogue,
 * and never a transcript: final text plus compact metadata (DESIGN section 6).
 */
import type { AgentResult, TurnReport } from '../../machines/agent.types.js';
import { canonicalJson } from '../request/canonical.js';

function metadata(result: AgentResult): Record<string, string | number | boolean | null> {
  return {
    agent_id: result.path,
    role: result.role ?? null,
    context: result.context,
    status: result.status,
    stop_reason: result.stopReason,
    elapsed_ms: Math.round(result.elapsedMs),
    session_id: result.sessionId,
    input_tokens: result.usage.inputTokens,
    output_tokens: result.usage.outputTokens,
    cache_read_tokens: result.usage.cacheReadTokens,
    cache_write_tokens: result.usage.cacheWriteTokens,
    prefix_shared: result.prefixShared,
  };
}

/** The Agent tool's result for caller delivery. */
export function resultToolContent(result: AgentResult): string {
  return canonicalJson({ ...metadata(result), ...(result.error ? { error: result.error } : {}), result: result.text });
}

/** The Agent tool's immediate receipt for parent delivery. */
export function receiptToolContent(input: { path: string; context: string; lifetime: string }): string {
  return canonicalJson({
    agent_id: input.path,
    status: 'started',
    context: input.context,
    lifetime: input.lifetime,
    note: 'The result will arrive later as a message from the runtime; you can continue meanwhile.',
  });
}

/** The Agent tool's result when a continuable subagent finished its first turn (caller delivery). */
export function firstTurnToolContent(input: { path: string; text: string; turn: number }): string {
  return canonicalJson({
    agent_id: input.path,
    status: 'idle',
    turn: input.turn,
    result: input.text,
    note: 'The subagent stays available: send follow-ups with send_message, end it with close_agent.',
  });
}

/** A settlement notice that enters the parent's inbox (parent delivery, or late settlement). */
export function settlementNotice(result: AgentResult): string {
  return `<subagent_result>\n${resultToolContent(result)}\n</subagent_result>`;
}

/** A continuable subagent's turn report for its parent's inbox. */
export function turnNotice(report: TurnReport): string {
  return `<subagent_turn>\n${canonicalJson({ agent_id: report.path, status: 'idle', turn: report.turn, result: report.text })}\n</subagent_turn>`;
}
