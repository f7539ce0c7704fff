/**
 * The provider stand-in for wire tests and benchmarks: `startStandIn()` answers the Anthropic
 * Messages API and OpenAI's Chat Completions and Responses APIs (JSON and SSE) with scripted
 * replies and records every request. See docs/wire-tests.md.
 */
export { startStandIn, type StandIn, type StandInOptions } from './server.js';
export { userTexts, systemText } from './inspect.js';
export type { RecordedRequest, WireApi, WireError, WireReasoning, WireReply, WireResponder, WireToolCall, WireUsage } from './types.js';
