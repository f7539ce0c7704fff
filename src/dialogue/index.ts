/**
 * `subagent-actors/dialogue`: frozen entries, append-only logs and effective views, for hosts
 * that build or read dialogues themselves. The main entry exports the entry types only.
 * @packageDocumentation
 */
export { assistantEntry, compactionEntry, toolResultEntry, userEntry } from './entry.js';
export { Dialogue } from './dialogue.js';
export { DialogueError, type DialogueErrorCode } from './errors.js';
