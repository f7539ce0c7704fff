/**
 * `subagent-actors/testing`: test doubles and model-based tests. A scripted model and a
 * simulated prompt cache, a manual clock, paths generated from the agent machine (this entry
 * needs the optional peer `@xstate/graph`), a runner that drives the real machine along them,
 * and a transition coverage check. Independent of any test framework.
 * @packageDocumentation
 */

// Test doubles: a model that replays a script, a simulated prompt cache, clocks.
export { scriptedModel, type ScriptedCall, type ScriptedModel, type ScriptedModelOptions } from '../model/scripted.js';
export type { PathScript, Script, ScriptFn, ScriptReply, ScriptRule, ScriptToolCall, SummaryScript, TurnScript } from '../model/script.js';
export { PrefixCache, type PrefixUsage } from '../model/prefix-cache.js';
export { manualClock, systemClock, type Clock, type ManualClock } from '../model/clock.js';

// Path tests generated from the machines.
export { agentPaths, type AgentPath, type AgentPathStep, type AgentPathsOptions } from './agent-paths.js';
export { agentScenarios, type AgentScenario, type AgentScenarioOptions } from './agent-scenarios.js';
export { DEFAULT_PAYLOADS, type AgentPathEvent, type AgentPayloads, type ReplyTemplate, type ToolOutcomeTemplate } from './agent-events.js';
export { agentStateKey, type AgentSnapshotLike } from './agent-state.js';
export {
  runAgentPath,
  type AgentImplementations,
  type AgentPathObserver,
  type AgentPathRun,
  type AgentStepSeen,
  type RunAgentPathOptions,
} from './run-agent-path.js';
export type { Invocation, SpawnedChild } from './stand-ins.js';
export { agentOracle, agentStateMeta, undescribedStates, AgentOracleError, type AgentOracleHost } from './agent-oracle.js';
export { testAgentPaths, agentTransitionCoverage, type RegisterTest } from './register.js';
export { PathMismatchError, type PathMismatch } from './path-error.js';
export { TransitionCoverage, TransitionCoverageError, type CoverageTarget, type MachineCoverage } from './coverage.js';
export { machineTransitions, describeGuard, type MachineTransition } from '../inspect/transitions.js';
export { machinePaths, type MachinePath, type MachinePathStep, type MachinePathsOptions, type PathStrategy } from './machine-paths.js';
export { deferred, afterMicrotasks, type Deferred } from './deferred.js';
