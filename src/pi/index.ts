/**
 * `subagent-actors/pi`: this library's subagents inside a Pi coding-agent session.
 *
 * Supported Pi versions: `@earendil-works/pi-coding-agent` 0.74.x (with pi-ai, pi-agent-core
 * and pi-tui 0.74.x), the newest line whose `engines` allow Node 20.
 * @packageDocumentation
 */
export { piSubagents, type PiSubagentsOptions, type PiRuntimeOptions } from './extension.js';
export { piModelAdapter, piContext, type PiModelSource } from './model.js';
export { piBranchDialogue, piMessageOf } from './branch.js';
export { piBuiltinTools, piHostTools, type AnyPiToolDefinition, type PiHostToolsInput } from './tools.js';
