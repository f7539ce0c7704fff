/**
 * Attribute, span and event names. The `gen_ai.*` names are OpenTelemetry's GenAI semantic
 * conventions (development status); the `subagent_actors.*` names are this library's own, for
 * what the conventions have no name for (context mode, delivery, lifetime, the tree's facts).
 */

/** `gen_ai.*` attribute names used on the spans. */
export const GenAi = Object.freeze({
  operationName: 'gen_ai.operation.name',
  providerName: 'gen_ai.provider.name',
  agentId: 'gen_ai.agent.id',
  agentName: 'gen_ai.agent.name',
  conversationId: 'gen_ai.conversation.id',
  requestModel: 'gen_ai.request.model',
  responseModel: 'gen_ai.response.model',
  responseFinishReasons: 'gen_ai.response.finish_reasons',
  inputTokens: 'gen_ai.usage.input_tokens',
  outputTokens: 'gen_ai.usage.output_tokens',
  cacheReadInputTokens: 'gen_ai.usage.cache_read.input_tokens',
  cacheCreationInputTokens: 'gen_ai.usage.cache_creation.input_tokens',
  toolName: 'gen_ai.tool.name',
  toolType: 'gen_ai.tool.type',
  toolCallId: 'gen_ai.tool.call.id',
  toolCallArguments: 'gen_ai.tool.call.arguments',
  toolCallResult: 'gen_ai.tool.call.result',
  inputMessages: 'gen_ai.input.messages',
  outputMessages: 'gen_ai.output.messages',
  systemInstructions: 'gen_ai.system_instructions',
  errorType: 'error.type',
});

/** This library's attribute names. */
export const Sa = Object.freeze({
  parentAgentId: 'subagent_actors.parent_agent.id',
  treeId: 'subagent_actors.tree.id',
  role: 'subagent_actors.agent.role',
  contextMode: 'subagent_actors.context.mode',
  context: 'subagent_actors.context',
  delivery: 'subagent_actors.delivery',
  lifetime: 'subagent_actors.lifetime',
  turn: 'subagent_actors.turn',
  step: 'subagent_actors.step',
  status: 'subagent_actors.status',
  stopReason: 'subagent_actors.stop_reason',
  resumed: 'subagent_actors.resumed',
  cancelled: 'subagent_actors.cancelled',
});

/** Span event names. */
export const SaEvents = Object.freeze({
  retry: 'subagent_actors.retry',
  summary: 'subagent_actors.summary',
  compaction: 'subagent_actors.compaction',
  hook: 'subagent_actors.hook',
  confirmation: 'subagent_actors.confirmation',
  approval: 'subagent_actors.approval',
  cancelled: 'subagent_actors.cancelled',
  cancelReport: 'subagent_actors.cancel_report',
  notice: 'subagent_actors.notice',
  resumed: 'subagent_actors.resumed',
});
