/**
 * `subagent-actors/inspect`: watching a session. Sanitized inspection events (no dialogues),
 * a local Stately inspector server, options for your own `@statelyai/inspect` inspector,
 * JSON Lines trace recording and Mermaid diagrams of machines.
 * @packageDocumentation
 */
export { describeEntry, sanitizeContext, sanitizeInspectionEvent, sanitizeSnapshot } from './sanitize.js';
export { serveInspector, type ServeInspectorOptions, type ServedInspector } from './serve.js';
export { sanitizingInspectorOptions, type SanitizingInspectorOptions } from './stately.js';
export { createRecorder, recordToFile, type Recorder, type RecorderOptions, type TraceRecord, type TraceTarget } from './recorder.js';
export { machineToMermaid, machineMarkdown } from './mermaid.js';
