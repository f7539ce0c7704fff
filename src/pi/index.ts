/**
 * `subagent-actors/pi`: this library's subagents inside a Pi coding-agent session.
 *
 * Supported Pi versions: `@earendil-works/pi-coding-agent` 1.x from 1.3.0 (with the pi-ai,
 * pi-agent-core and pi-tui it brings), tested with 1.6; Pi 1.x needs Node 22.19 or later.
 * @packageDocumentation
 */
export { piSubagents, PI_SESSION_MODEL, type PiSubagentsOptions, type PiRuntimeOptions } from './extension.js';
export { piModelAdapter, piContext, type PiModelSource } from './model.js';
export { piBranchDialogue, piMessageOf, piSessionHead, type PiSessionHead } from './branch.js';
export { piBuiltinTools, piHostTools, type AnyPiToolDefinition, type PiHostToolsInput } from './tools.js';
