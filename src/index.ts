/**
 * subagent-actors: a runtime for LLM agents that delegate work to subagents.
 *
 * Every agent is an XState v5 actor with an explicit lifecycle (reserved → preparingSummary →
 * running → settled | cancelled). A parent spawns subagents with an immutable snapshot of
 * exactly the context it chose (none, all, the last N turns, or a generated summary), agents
 * talk through one typed `send_message` tool, and every subagent reports back exactly once.
 *
 * This entry is the runtime and the types of its surface. The rest is in subpath entries:
 * `subagent-actors/machine` (the agent statechart), `/testing` (scripted model, clocks, path
 * tests), `/inspect` (inspector, traces, diagrams), `/request` (request building and
 * serialization), `/dialogue`, `/context`, `/policy` (the pure layers) and `/ai-sdk`.
 * @packageDocumentation
 */

// Runtime: the agent tree of one session.
export { createRuntime, defineRuntimeTool } from './runtime/runtime.js';
export { RuntimeError, type RuntimeErrorCode } from './runtime/errors.js';
export { OutputSchemaError } from './request/output-schema.js';
export { ROOT_PATH } from './runtime/paths.js';
export { DEFAULT_RESULT_METADATA, resultMetadata, resultToolContent, type ResultMetadata, type ResultMetadataField } from '../machines/subagent-reports.js';
export { DEFAULT_MAX_STEPS } from './runtime/turns.js';
export {
  DEFAULT_EVENT_BUFFER,
  type ApprovalAnsweredEvent,
  type ApprovalRequestedEvent,
  type EventsOptions,
  type HaltedEvent,
  type LaggedEvent,
  type ReasoningDeltaEvent,
  type RetryStreamEvent,
  type RuntimeStreamEvent,
  type RuntimeStreamEventType,
  type SessionEndedEvent,
  type StateChangedEvent,
  type SubagentSettledEvent,
  type SubagentSpawnedEvent,
  type TextDeltaEvent,
  type ToolCallFinishedEvent,
  type ToolCallStartedEvent,
  type TurnEndedEvent,
  type UsageUpdatedEvent,
} from './runtime/stream-events.js';
export { DEFAULT_SYSTEM_PROMPT } from './runtime/heads.js';
export { DEFAULT_MAX_SETTLED } from './runtime/retention.js';
export { DEFAULT_REQUEST_TIMEOUT_MS, DEFAULT_RETRY_POLICY, type RetryPolicy } from './policy/retry-policy.js';
export { RequestTimeoutError } from './model/transient.js';
export type { RoleDefinition, RoleWarning } from './runtime/roles.js';
export type {
  AgentInfo,
  AgentResult,
  CancelReport,
  CancelledAgent,
  CompactionPolicy,
  Delivery,
  FirstReportValue,
  HostRoot,
  Lifetime,
  PromptOptions,
  ApprovalAnswer,
  ApprovalCallback,
  ApprovalDecision,
  ApprovalRequest,
  ApprovalRule,
  ApprovalRules,
  NeedsApproval,
  Runtime,
  RuntimeEvents,
  RuntimeOptions,
  RetentionPolicy,
  RetryEvent,
  RuntimeTool,
  SpawnHandle,
  SpawnPolicyDecision,
  SpawnPolicyInput,
  SpawnRequest,
  TaskHook,
  TaskHookDecision,
  TaskHookInput,
  ToolExecutionContext,
  ToolOutput,
  TurnOutcome,
  TurnReport,
  TurnUsage,
} from './runtime/types.js';
export type { AgentStatus, InboxItem, StopReason, ToolOutcome, TurnStatus } from '../machines/agent.types.js';

// Durable sessions: the journal's storage (Postgres is the `subagent-actors/postgres` entry).
export { StoreError, type JournalRecord, type SessionStore, type StoreErrorCode } from './store/types.js';
export { createJsonlStore, openJsonlStore, JsonlSessionStore, type FsyncPolicy, type JsonlStoreOptions } from './store/jsonl.js';
export { JOURNAL_FORMAT } from './store/format.js';
export { resumeRuntime, type ResumeOptions } from './runtime/resume.js';

// Models: the adapter interface a host implements, and summaries.
export {
  addUsage,
  requestUsage,
  ZERO_USAGE,
  type ModelAdapter,
  type ModelDelta,
  type ModelResponse,
  type ReplyUsage,
  type SampleContext,
  type Usage,
} from './model/adapter.js';
export { checkPriceTable, costOf, type ModelPrice, type PriceTable } from './model/prices.js';
export { modelSummarizer, SUMMARY_SYSTEM_PROMPT, type Summarizer, type SummaryInput, type SummaryResult } from './model/summarizer.js';

// Types of what the runtime takes and gives: entries, dialogues, context values, requests.
export type {
  AssistantEntry,
  Attachment,
  CompactionEntry,
  Entry,
  JsonValue,
  ProviderMetadata,
  ReasoningPart,
  ToolCall,
  ToolResultEntry,
  UserEntry,
  UserOrigin,
} from './dialogue/entry.js';
export type { DialogueView, EntrySeq, TurnInfo } from './dialogue/types.js';
export type { ContextMode, ContextSpec } from './context/types.js';
export type { Effort, JsonObject, ModelRequest, SystemConfiguration, ToolSchema } from './request/types.js';
export type { HostToolDefinition } from './request/host-tool.js';
export type { AiSdkSchema, AiSdkValidationResult, JsonSchemaObject, ToolArgsOf, ToolInputSchema } from './request/tool-input.js';
export type { Preset, PresetCatalog, PresetDefinition } from './request/preset.js';
export type { RoleCatalogLimits } from './request/role-catalog.js';
export type { PrefixReuse, PrefixShortfall } from './request/prefix-reuse.js';

// Configuration from disk and for policy: agent definitions, capabilities, limits, project context.
export type { AgentDefinition } from './policy/definition.js';
export { DefinitionError, type DefinitionErrorCode } from './policy/definition-error.js';
export { loadDefinitions, type DefinitionDirectory, type LoadDefinitionsOptions, type LoadedDefinitions } from './load/definitions.js';
export type { PermissionMode } from './policy/permission-mode.js';
export type { PermissionMatcher, PermissionMatcherKind } from './policy/permission-pattern.js';
export type { ModelTable } from './policy/model-alias.js';
export type { ToolNameMap } from './policy/tool-mapping.js';
export { UnknownRoleError } from './policy/registry.js';
export {
  CAPABILITY_TAGS,
  COMMON_TOOL_CAPABILITIES,
  createCapabilityCatalog,
  type AccessCapability,
  type CapabilityCatalog,
  type CapabilityCatalogInput,
  type CapabilityTag,
  type RequiredCapability,
} from './policy/capabilities.js';
export {
  DEFAULT_MESSAGING_SCOPE,
  mayMessage,
  type MessagingPair,
  type MessagingPolicy,
  type MessagingScope,
  type TaskTextInput,
} from './policy/messaging.js';
export { describeConfirmation, type ConfirmCallback, type ConfirmationDecision, type ConfirmationRequest } from './policy/confirmation.js';
export { DEFAULT_LIMITS, LimitError, type Limits } from './policy/limits.js';
export { BudgetError, checkBudget, DEFAULT_SOFT_LIMIT, type Budget, type BudgetDimension } from './policy/budget.js';
export type { BudgetRemaining, BudgetWarning } from './runtime/budget-ledger.js';
export { DEFAULT_MAX_OUTPUT_TOKENS } from './runtime/budgets.js';
export { DEFAULT_INPUT_LIMITS, MAX_NESTING_LIMIT, type InputLimits } from './request/input-limits.js';
export { loadProjectContext, type ProjectContext, type ProjectContextOptions } from './load/project-context.js';
