/**
 * subagent-actors: a runtime for LLM agents that delegate work to subagents.
 *
 * Every agent is an XState v5 actor with an explicit lifecycle (reserved → preparingSummary →
 * running → settled | cancelled). A parent spawns subagents with an immutable snapshot of
 * exactly the context it chose (none, all, the last N turns, or a generated summary), agents
 * talk through one typed `send_message` tool, and every subagent reports back exactly once.
 *
 * This file is the whole public API; everything else is internal.
 * @packageDocumentation
 */

// Runtime: the agent tree of one session.
export { createRuntime, defineRuntimeTool } from './runtime/runtime.js';
export { RuntimeError, type RuntimeErrorCode } from './runtime/errors.js';
export { ROOT_PATH } from './runtime/paths.js';
export { DEFAULT_RESULT_METADATA, resultMetadata, resultToolContent, type ResultMetadata, type ResultMetadataField } from './runtime/reports.js';
export { DEFAULT_MAX_STEPS, type TurnOutcome, type TurnUsage } from './runtime/turns.js';
export { DEFAULT_SYSTEM_PROMPT } from './runtime/heads.js';
export type { RoleDefinition } from './runtime/roles.js';
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
  Runtime,
  RuntimeEvents,
  RuntimeOptions,
  RetentionPolicy,
  RuntimeTool,
  SpawnHandle,
  SpawnPolicyDecision,
  SpawnPolicyInput,
  SpawnRequest,
  TaskHook,
  TaskHookDecision,
  TaskHookInput,
  ToolExecutionContext,
  ToolCallOutcome,
  ToolOutput,
  TurnReport,
} from './runtime/types.js';

// Durable sessions: the journal's storage (Postgres is the `subagent-actors/postgres` entry).
export { StoreError, type JournalRecord, type SessionStore, type StoreErrorCode } from './store/types.js';
export { createJsonlStore, openJsonlStore, JsonlSessionStore, type FsyncPolicy, type JsonlStoreOptions } from './store/jsonl.js';
export { JOURNAL_FORMAT } from './store/format.js';

// The agent statechart, for harnesses that embed it and for inspection.
export { agentMachine, resultOf } from '../machines/agent.machine.js';
export { toolStepLogic, type ToolExecutor } from '../machines/tool-step.js';
export type {
  AgentContext,
  AgentEvent,
  AgentInput,
  AgentStatus,
  HookInput,
  HookOutcome,
  InboxItem,
  SampleInput,
  SampleOutput,
  StopReason,
  SummaryInput as SummaryActorInput,
  SummaryOutput,
  ToolInput,
  ToolOutcome,
  ToolStepInput,
  TurnStatus,
} from '../machines/agent.types.js';

// Dialogue: frozen entries, append-only logs, effective views.
export {
  assistantEntry,
  compactionEntry,
  toolResultEntry,
  userEntry,
  type AssistantEntry,
  type Attachment,
  type CompactionEntry,
  type Entry,
  type JsonValue,
  type ToolCall,
  type ToolResultEntry,
  type UserEntry,
  type UserOrigin,
} from './dialogue/entry.js';
export { Dialogue } from './dialogue/dialogue.js';
export { DialogueError, type DialogueErrorCode } from './dialogue/errors.js';
export type { DialogueView, EntrySeq, TurnInfo } from './dialogue/types.js';

// Context selection.
export { ContextNotAllowedError, ContextSpecError, SnapshotError } from './context/errors.js';
export { ACCEPTED_CONTEXT_VALUES, contextLabel, contextModeOf, isContextSpec, parseContextSpec } from './context/parse.js';
export { resolveContextSpec, type ResolveContextInput } from './context/resolve.js';
export { selectSnapshot, type SelectOptions } from './context/select.js';
export type { ContextMode, ContextSnapshot, ContextSpec, SnapshotSource } from './context/types.js';

// Requests: heads, tools, canonical bytes, prefix metrics.
export type { Effort, JsonObject, ModelRequest, SystemConfiguration, ToolSchema } from './request/types.js';
export { canonicalJson, CanonicalJsonError } from './request/canonical.js';
export {
  requestHeadHash,
  requestPrefixBytes,
  serializeHead,
  serializeMessage,
  serializeRequest,
  sharedPrefixBytes,
  sharedRequestPrefix,
} from './request/serialize.js';
export { BUILTIN_TOOL_NAMES, type BuiltinToolName } from './request/tool-names.js';
export { BUILTIN_TOOL_SCHEMAS, parseToolArguments, type AgentArgs, type ParsedToolArguments } from './request/tools.js';
export type { ToolArgumentError, ToolArgumentIssue } from './request/tool-args.js';
export { defineHostTool, type HostTool } from './request/host-tool.js';
export { PresetError, resolvePreset, type Preset, type PresetCatalog, type PresetDefinition } from './request/preset.js';
export { buildSystemConfiguration, hasTool, type ToolFilter } from './request/system.js';
export { forkTaskWrapper, independentTaskText } from './request/wrapper.js';
export { agentToolSchema, DEFAULT_ROLE_CATALOG_LIMITS, roleCatalogText, type CatalogRole, type RoleCatalogLimits } from './request/role-catalog.js';
export { assembleRequest, comparePrefix, type PrefixComparison, type PrefixMismatch } from './request/prefix.js';

// Models.
export {
  addUsage,
  requestUsage,
  ZERO_USAGE,
  type ModelAdapter,
  type ModelResponse,
  type ReplyUsage,
  type SampleContext,
  type Usage,
} from './model/adapter.js';
export { checkPriceTable, costOf, type ModelPrice, type PriceTable } from './model/prices.js';
export { scriptedModel, type ScriptedCall, type ScriptedModel, type ScriptedModelOptions } from './model/scripted.js';
export type { PathScript, Script, ScriptFn, ScriptReply, ScriptRule, ScriptToolCall, SummaryScript, TurnScript } from './model/script.js';
export { manualClock, systemClock, type Clock, type ManualClock } from './model/clock.js';
export { PrefixCache, type PrefixUsage } from './model/prefix-cache.js';
export { modelSummarizer, SUMMARY_SYSTEM_PROMPT, type Summarizer, type SummaryInput, type SummaryResult } from './model/summarizer.js';

// Policy: agent definitions, capabilities, confirmation, limits, project context.
export type { AgentDefinition } from './policy/definition.js';
export { DefinitionError, type DefinitionErrorCode } from './policy/definition-error.js';
export { parseDefinition } from './policy/parse-definition.js';
export { loadDefinitions, type DefinitionDirectory, type LoadedDefinitions } from './policy/load.js';
export { RoleRegistry, UnknownRoleError } from './policy/registry.js';
export {
  CAPABILITY_TAGS,
  COMMON_TOOL_CAPABILITIES,
  createCapabilityCatalog,
  requiredConfirmations,
  type AccessCapability,
  type CapabilityCatalog,
  type CapabilityCatalogInput,
  type CapabilityTag,
  type RequiredCapability,
} from './policy/capabilities.js';
export { describeConfirmation, type ConfirmCallback, type ConfirmationDecision, type ConfirmationRequest } from './policy/confirmation.js';
export { effectiveToolNames, isToolAllowed } from './policy/tool-filter.js';
export { DEFAULT_LIMITS, resolveLimits, LimitError, type Limits } from './policy/limits.js';
export { loadProjectContext, type ProjectContext, type ProjectContextOptions } from './policy/project-context.js';

// Inspection.
export { describeEntry, sanitizeContext, sanitizeInspectionEvent } from './inspect/sanitize.js';
export { sanitizeSnapshot } from './inspect/sanitize.js';
export { serveInspector, type ServeInspectorOptions, type ServedInspector } from './inspect/serve.js';
export { sanitizingInspectorOptions, type SanitizingInspectorOptions } from './inspect/stately.js';
export { createRecorder, recordToFile, type Recorder, type RecorderOptions, type TraceRecord, type TraceTarget } from './inspect/recorder.js';
export { machineToMermaid, machineMarkdown } from './inspect/mermaid.js';

// Path-coverage tests generated from the machines (no test-runner dependency).
export {
  agentPaths,
  agentScenarios,
  DEFAULT_PAYLOADS,
  agentStateKey,
  runAgentPath,
  testAgentPaths,
  agentTransitionCoverage,
  PathMismatchError,
  TransitionCoverage,
  TransitionCoverageError,
  machineTransitions,
  machinePaths,
  deferred,
  afterMicrotasks,
  type AgentPath,
  type AgentPathStep,
  type AgentPathsOptions,
  type AgentScenario,
  type AgentScenarioOptions,
  type AgentPathEvent,
  type AgentPayloads,
  type ReplyTemplate,
  type ToolOutcomeTemplate,
  type AgentImplementations,
  type AgentPathRun,
  type RunAgentPathOptions,
  type RegisterTest,
  type PathMismatch,
  type CoverageTarget,
  type MachineCoverage,
  type MachineTransition,
  type MachinePath,
  type MachinePathStep,
  type MachinePathsOptions,
  type PathStrategy,
  type Deferred,
} from './testing/index.js';
