/**
 * Watching sessions: the Stately inspector (served locally or any `@statelyai/inspect`
 * inspector with sanitizing options), JSON Lines traces, and Mermaid pictures of machines.
 */
export { serveInspector, type ServeInspectorOptions, type ServedInspector } from './serve.js';
export { startBridge, bridgePage, type Bridge, type BridgeOptions } from './bridge.js';
export { sanitizingInspectorOptions, type SanitizingInspectorOptions } from './stately.js';
export { sanitizeContextOnce } from './sanitize-once.js';
export { createRecorder, recordToFile, traceRecord, actorAddress, type Recorder, type RecorderOptions, type TraceRecord, type TraceTarget } from './recorder.js';
export { machineToMermaid, machineMarkdown, mermaidId, transitionLabel } from './mermaid.js';
export { loadMachines, isStateMachine, type MachineModule } from './machine-modules.js';
export { stateValueString } from './state-value.js';
