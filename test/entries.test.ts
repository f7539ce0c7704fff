/**
 * Pins what each package entry exports, values and types, so a name leaves or joins the
 * public surface only on purpose. The names come from the entry files' own export statements
 * (read with the TypeScript parser, no type checking), and the value names are compared with
 * what the module really exports at run time.
 */
import { readFileSync } from 'node:fs';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

interface PackageJson {
  readonly exports: Record<string, string | { readonly types: string; readonly import: string }>;
}

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as PackageJson;

/** Source file of an export target: `./dist/src/x.js` is built from `src/x.ts`. */
const sourceOf = (target: string): string => target.replace(/^\.\/dist\//, '').replace(/\.js$/, '.ts');

const isExported = (node: ts.Node): boolean =>
  ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);

/** Names an entry file exports, split into values and type-only names. */
function declaredExports(file: string): { values: string[]; types: string[]; star: boolean } {
  const source = ts.createSourceFile(file, readFileSync(new URL(`../${file}`, import.meta.url), 'utf8'), ts.ScriptTarget.ES2022);
  const values: string[] = [];
  const types: string[] = [];
  let star = false;
  for (const st of source.statements) {
    if (ts.isExportDeclaration(st)) {
      if (!st.exportClause || !ts.isNamedExports(st.exportClause)) star = true;
      else for (const e of st.exportClause.elements) (st.isTypeOnly || e.isTypeOnly ? types : values).push(e.name.text);
    } else if (isExported(st)) {
      if (ts.isInterfaceDeclaration(st) || ts.isTypeAliasDeclaration(st)) types.push(st.name.text);
      else if (ts.isVariableStatement(st)) for (const d of st.declarationList.declarations) values.push((d.name as ts.Identifier).text);
      // An overloaded function is one export: its overload signatures (no body) are skipped.
      else if (ts.isFunctionDeclaration(st) && st.name && st.body !== undefined) values.push(st.name.text);
      else if (ts.isClassDeclaration(st) && st.name) values.push(st.name.text);
    }
  }
  return { values: values.sort(), types: types.sort(), star };
}

/** The pinned surface of every entry. Change it only together with the docs. */
const PINNED: Record<string, { readonly values: readonly string[]; readonly types: readonly string[] }> = {
  '.': {
    values: [
      'CAPABILITY_TAGS', 'COMMON_TOOL_CAPABILITIES', 'DEFAULT_EVENT_BUFFER', 'DEFAULT_LIMITS', 'DEFAULT_INPUT_LIMITS', 'MAX_NESTING_LIMIT', 'DEFAULT_MAX_STEPS', 'DEFAULT_MAX_SETTLED', 'DEFAULT_REQUEST_TIMEOUT_MS', 'DEFAULT_RETRY_POLICY', 'RequestTimeoutError', 'DEFAULT_RESULT_METADATA', 'DEFAULT_SYSTEM_PROMPT', 'DefinitionError', 'JOURNAL_FORMAT', 'JsonlSessionStore',
      'LimitError', 'OutputSchemaError', 'ROOT_PATH', 'RuntimeError', 'StoreError', 'checkPriceTable', 'costOf', 'createJsonlStore', 'openJsonlStore', 'resumeRuntime', 'requestUsage', 'resultMetadata', 'resultToolContent', 'SUMMARY_SYSTEM_PROMPT', 'UnknownRoleError', 'ZERO_USAGE', 'addUsage', 'createCapabilityCatalog', 'createRuntime',
      'defineRuntimeTool', 'describeConfirmation', 'loadDefinitions', 'loadProjectContext', 'modelSummarizer', 'DEFAULT_MESSAGING_SCOPE', 'mayMessage',
      'BudgetError', 'checkBudget', 'DEFAULT_SOFT_LIMIT', 'DEFAULT_MAX_OUTPUT_TOKENS',
    ],
    types: [
      'AccessCapability', 'AgentDefinition', 'AiSdkSchema', 'AiSdkValidationResult', 'ApprovalAnswer', 'ApprovalAnsweredEvent', 'ApprovalCallback', 'ApprovalDecision', 'ApprovalRequest', 'ApprovalRequestedEvent', 'ApprovalRule', 'ApprovalRules', 'AgentInfo', 'AgentResult', 'AgentStatus', 'AssistantEntry', 'Attachment', 'CancelReport',
      'Budget', 'BudgetDimension', 'BudgetRemaining', 'BudgetWarning',
      'CancelledAgent', 'CapabilityCatalog', 'CapabilityCatalogInput', 'CapabilityTag', 'CompactionEntry', 'CompactionPolicy', 'ConfirmCallback',
      'ConfirmationDecision', 'ConfirmationRequest', 'ContextMode', 'ContextSpec', 'DefinitionDirectory', 'DefinitionErrorCode', 'Delivery',
      'DialogueView', 'Effort', 'Entry', 'EntrySeq', 'FirstReportValue', 'FsyncPolicy', 'HostRoot', 'HostToolDefinition', 'InboxItem', 'JournalRecord', 'JsonObject', 'JsonSchemaObject', 'JsonValue',
      'JsonlStoreOptions', 'InputLimits', 'Lifetime', 'Limits', 'LoadDefinitionsOptions',
      'LoadedDefinitions', 'MessagingPair', 'MessagingPolicy', 'MessagingScope', 'TaskTextInput', 'ModelAdapter', 'ModelDelta', 'ModelTable', 'PermissionMatcher', 'PermissionMatcherKind', 'PermissionMode', 'RoleWarning', 'ToolNameMap', 'ModelPrice', 'ModelRequest', 'ModelResponse', 'NeedsApproval', 'Preset', 'PresetCatalog', 'PresetDefinition', 'PrefixReuse', 'PrefixShortfall', 'PriceTable', 'PromptOptions', 'ProjectContext', 'ProviderMetadata', 'ReasoningPart',
      'ProjectContextOptions', 'RequiredCapability', 'RetentionPolicy', 'RetryEvent', 'RetryPolicy', 'RoleCatalogLimits', 'ReplyUsage', 'ResultMetadata', 'ResultMetadataField', 'RoleDefinition', 'Runtime', 'RuntimeErrorCode', 'RuntimeEvents', 'RuntimeOptions',
      'ResumeOptions', 'RuntimeTool', 'SampleContext', 'SessionStore', 'SpawnHandle', 'SpawnPolicyDecision', 'SpawnPolicyInput', 'SpawnRequest', 'StopReason', 'StoreErrorCode', 'Summarizer',
      'SummaryInput', 'SummaryResult', 'SystemConfiguration', 'TaskHook', 'TaskHookDecision', 'TaskHookInput', 'ToolCall', 'ToolOutcome', 'ToolExecutionContext',
      'ToolArgsOf', 'ToolInputSchema', 'ToolOutput', 'ToolResultEntry', 'ToolSchema', 'TurnInfo', 'TurnOutcome', 'TurnReport', 'TurnStatus', 'TurnUsage', 'Usage', 'UserEntry', 'UserOrigin',
      'EventsOptions', 'HaltedEvent', 'LaggedEvent', 'ReasoningDeltaEvent', 'RetryStreamEvent', 'RuntimeStreamEvent', 'RuntimeStreamEventType', 'SessionEndedEvent',
      'StateChangedEvent', 'SubagentSettledEvent', 'SubagentSpawnedEvent', 'TextDeltaEvent', 'ToolCallFinishedEvent', 'ToolCallStartedEvent', 'TurnEndedEvent', 'UsageUpdatedEvent',
    ],
  },
  './machine': {
    values: [
      'AGENT_IMAGE_VERSION', 'AGENT_PHASES', 'AgentInputError', 'DelegatingAgentError', 'REQUIRED_STATE_META', 'RestoreError', 'agentMachine', 'agentPhaseOf', 'configureReports', 'createAgentInput', 'delegatingAgent', 'mergeStateMeta', 'reportPresenter', 'restoreAgent', 'resultOf', 'subagentOf',
      'subagentsOf', 'toolStepLogic', 'ZERO_USAGE',
    ],
    types: [
      'AgentContext', 'AgentCounters', 'AgentEvent', 'AgentImage', 'AgentInput', 'AgentInputOptions', 'AgentPhase', 'AgentStateMeta', 'AgentStatus', 'AgentWork', 'AnsweredBySubagent', 'CloseMeaning', 'DelegatingAgent', 'DelegatingAgentOptions', 'DelegatingTelemetryOptions', 'HarnessTool',
      'HarnessToolContext', 'InboxMeaning', 'TaskHookInput', 'InboxItem', 'ModelFunction', 'ModelResponse', 'ReplyUsage', 'Usage', 'ReportPresenter', 'ReportSettings', 'RestoreErrorCode', 'RestoreOptions', 'SampleInput', 'SampleOutput', 'SendMessageEvent', 'StopReason', 'SubagentReport',
      'SubagentReportEvent', 'SummaryActorInput', 'SummaryResult', 'TaskHookDecision', 'ToolExecutor', 'ToolInput', 'ToolOutcome', 'ToolStepInput', 'ToolStepOutcome', 'ToolStepScope',
    ],
  },
  './testing': {
    values: [
      'AgentOracleError', 'DEFAULT_PAYLOADS', 'PathMismatchError', 'agentOracle', 'agentStateMeta', 'undescribedStates', 'PrefixCache', 'TransitionCoverage', 'TransitionCoverageError', 'afterMicrotasks', 'agentPaths',
      'agentScenarios', 'agentStateKey', 'agentTransitionCoverage', 'deferred', 'describeGuard', 'machinePaths', 'machineTransitions',
      'manualClock', 'runAgentPath', 'scriptedModel', 'systemClock', 'testAgentPaths',
    ],
    types: [
      'AgentImplementations', 'AgentOracleHost', 'AgentPath', 'AgentPathEvent', 'AgentPathObserver', 'AgentPathRun', 'AgentStepSeen', 'Invocation', 'SpawnedChild', 'AgentPathStep', 'AgentPathsOptions', 'AgentPayloads', 'AgentScenario',
      'AgentScenarioOptions', 'AgentSnapshotLike', 'Clock', 'CoverageTarget', 'Deferred', 'MachineCoverage', 'MachinePath', 'MachinePathStep',
      'MachinePathsOptions', 'MachineTransition', 'ManualClock', 'PathMismatch', 'PathScript', 'PathStrategy', 'PrefixUsage', 'RegisterTest',
      'ReplyTemplate', 'RunAgentPathOptions', 'Script', 'ScriptFn', 'ScriptReply', 'ScriptRule', 'ScriptToolCall', 'ScriptedCall', 'ScriptedModel',
      'ScriptedModelOptions', 'SummaryScript', 'ToolOutcomeTemplate', 'TurnScript',
    ],
  },
  './inspect': {
    values: [
      'createRecorder', 'describeEntry', 'machineMarkdown', 'machineToMermaid', 'recordToFile', 'sanitizeContext', 'sanitizeInspectionEvent',
      'sanitizeSnapshot', 'sanitizingInspectorOptions', 'serveInspector',
    ],
    types: ['Recorder', 'RecorderOptions', 'SanitizingInspectorOptions', 'ServeInspectorOptions', 'ServedInspector', 'TraceRecord', 'TraceTarget'],
  },
  './request': {
    values: [
      'BUILTIN_TOOL_NAMES', 'BUILTIN_TOOL_SCHEMAS', 'CanonicalJsonError', 'DEFAULT_ROLE_CATALOG_LIMITS', 'PresetError', 'agentToolSchema', 'assembleRequest', 'buildSystemConfiguration',
      'canonicalJson', 'checkOutput', 'checkOutputSchema', 'comparePrefix', 'estimateTokens', 'measureInheritedPrefix', 'measurePrefixReuse', 'OutputSchemaError', 'outputInstruction', 'repairInstruction', 'defineHostTool', 'forkTaskWrapper', 'hasTool', 'independentTaskText', 'parseToolArguments',
      'requestHeadHash', 'requestPrefixBytes', 'resolvePreset', 'roleCatalog', 'searchRoles', 'FIND_ROLES_SCHEMA', 'FIND_ROLES_TOOL', 'serializeHead', 'serializeMessage', 'serializeRequest', 'sharedPrefixBytes',
      'sharedRequestPrefix', 'ANTHROPIC_LOOKBACK_BLOCKS', 'blockBytes', 'readableBytes', 'sharedBlocks', 'wireApiOf', 'wireRequestOf', 'wirePrefixReuse',
    ],
    types: ['WireApi', 'WireBlock', 'WireBody', 'WireRequest', 'AgentArgs', 'BuiltinToolName', 'CatalogRole', 'RoleCatalog', 'RoleCatalogMode', 'RoleMatch', 'InheritedPrefix', 'InheritedPrefixInput', 'OutputCheck', 'ParsedToolArguments', 'PrefixComparison', 'PrefixMismatch', 'PrefixReuse', 'PrefixReuseInput', 'PrefixShortfall', 'PrefixSide', 'ToolArgumentError', 'ToolArgumentIssue', 'ToolFilter'],
  },
  './dialogue': {
    values: ['Dialogue', 'DialogueError', 'assistantEntry', 'compactionEntry', 'toolResultEntry', 'userEntry'],
    types: ['DialogueErrorCode'],
  },
  './context': {
    values: [
      'ACCEPTED_CONTEXT_VALUES', 'ContextNotAllowedError', 'ContextSpecError', 'SnapshotError', 'contextLabel', 'contextModeOf', 'isContextSpec',
      'parseContextSpec', 'resolveContextSpec', 'selectSnapshot',
    ],
    types: ['ContextSnapshot', 'ResolveContextInput', 'SelectOptions', 'SnapshotSource'],
  },
  './policy': {
    values: [
      'AGENT_TOOL', 'CLAUDE_MODEL_ALIASES', 'INHERIT_MODEL', 'LEGACY_AGENT_TOOL', 'PERMISSION_MODES', 'PERMISSION_MODE_RULES', 'RoleRegistry', 'checkSpawnRole',
      'checkToolCall', 'effectiveToolNames', 'isToolAllowed', 'mapToolEntry', 'normalizeAgentEntry', 'parseDefinition', 'requiredConfirmations', 'resolveLimits', 'resolveModelName',
    ],
    types: ['CallCheckInput', 'CallVerdict', 'EffectiveTools', 'ModelResolution', 'PathAnchors', 'PermissionLayer', 'PermissionModeRules'],
  },
  './postgres': {
    values: ['PostgresSessionStore', 'createPostgresStore', 'openPostgresStore'],
    types: ['PostgresStoreOptions'],
  },
  './pi': {
    values: ['PI_SESSION_MODEL', 'piBranchDialogue', 'piBuiltinTools', 'piContext', 'piHostTools', 'piMessageOf', 'piModelAdapter', 'piSessionHead', 'piSubagents'],
    types: ['AnyPiToolDefinition', 'PiHostToolsInput', 'PiModelSource', 'PiRuntimeOptions', 'PiSessionHead', 'PiSubagentsOptions'],
  },
  './otel': {
    values: ['GenAi', 'Sa', 'SaEvents', 'TRACER_NAME', 'TraceBuilder'],
    types: ['AgentEnd', 'AgentStart', 'ChatEnd', 'ChatRetry', 'ChatStart', 'ChatUsage', 'DelegatingTelemetryOptions', 'EventAttributes', 'OtelApi', 'SpanRef', 'TelemetryOptions', 'ToolEnd', 'ToolStart', 'TracerLike'],
  },
  './ai-sdk': {
    values: ['ANTHROPIC_THINKING_BUDGETS', 'UnknownModelError', 'aiSdkModel', 'effortOptions', 'effortSupport', 'isOpenAiReasoningModel', 'passThroughEffort', 'providerKey'],
    types: ['AiSdkModelOptions', 'AiSdkModelTableOptions', 'AiSdkWarning', 'EffortMapper', 'EffortSupport'],
  },
};

const entries = Object.entries(pkg.exports).flatMap(([subpath, target]) => (typeof target === 'string' ? [] : [{ subpath, target }]));

describe('package entries', () => {
  it('are exactly the pinned ones, each with types beside its module', () => {
    expect(entries.map((e) => e.subpath).sort()).toEqual(Object.keys(PINNED).sort());
    for (const { target } of entries) expect(target.types).toBe(target.import.replace(/\.js$/, '.d.ts'));
  });

  for (const { subpath, target } of entries) {
    it(`${subpath} exports exactly its pinned names`, async () => {
      const file = sourceOf(target.import);
      const declared = declaredExports(file);
      expect(declared.star, 'no export * (the list must be explicit)').toBe(false);
      expect({ values: declared.values, types: declared.types }).toEqual({ values: [...PINNED[subpath]!.values].sort(), types: [...PINNED[subpath]!.types].sort() });
      const loaded = (await import(/* @vite-ignore */ new URL(`../${file.replace(/\.ts$/, '.js')}`, import.meta.url).href)) as Record<string, unknown>;
      expect(Object.keys(loaded).sort()).toEqual(declared.values);
    });
  }

  it('keeps the test doubles, the machine and the inspector out of the main entry', async () => {
    const main = (await import('../src/index.js')) as Record<string, unknown>;
    for (const name of ['scriptedModel', 'manualClock', 'agentMachine', 'agentPaths', 'serveInspector', 'serializeRequest', 'Dialogue']) {
      expect(main[name], name).toBeUndefined();
    }
  });
});
