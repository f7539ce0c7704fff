/**
 * `subagent-actors/machine`: the agent statechart, for harnesses that embed it with their own
 * actors and for inspection. Hosts that only run agents use `createRuntime` from the main entry.
 * @packageDocumentation
 */
export { agentMachine, resultOf } from './agent.machine.js';
export { toolStepLogic, type ToolExecutor, type ToolStepScope } from './tool-step.js';
export {
  delegatingAgent,
  DelegatingAgentError,
  type DelegatingAgent,
  type DelegatingAgentOptions,
  type HarnessTool,
  type HarnessToolContext,
  type ModelFunction,
} from './delegation.js';
export type { DelegatingTelemetryOptions } from '../src/otel/types.js';
export { configureReports, reportPresenter, type ReportPresenter, type ReportSettings } from './subagent-reports.js';
export { createAgentInput, AgentInputError, type AgentInputOptions } from './agent.input.js';
export { AGENT_PHASES, mergeStateMeta, REQUIRED_STATE_META, type AgentPhase, type AgentStateMeta, type AgentWork, type CloseMeaning, type InboxMeaning } from './agent.meta.js';
export { subagentOf, subagentsOf } from './subagents.js';
export { ZERO_USAGE, type ReplyUsage, type Usage } from '../src/request/usage.js';
export type { ModelResponse } from '../src/request/reply.js';
export { AGENT_IMAGE_VERSION, agentPhaseOf, restoreAgent, RestoreError, type AgentCounters, type AgentImage, type RestoreErrorCode, type RestoreOptions } from './agent.image.js';
export type {
  AgentContext,
  AgentEvent,
  AgentInput,
  AgentStatus,
  TaskHookInput,
  InboxItem,
  SendMessageEvent,
  SubagentReport,
  SubagentReportEvent,
  AnsweredBySubagent,
  ToolStepOutcome,
  SampleInput,
  SampleOutput,
  StopReason,
  SummaryActorInput,
  SummaryResult,
  TaskHookDecision,
  ToolInput,
  ToolOutcome,
  ToolStepInput,
} from './agent.types.js';
