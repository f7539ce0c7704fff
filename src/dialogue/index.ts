/**
 * The dialogue folder's API: entries, the persistent dialogue, and entry views.
 */
export * from './entry.js';
export { Dialogue } from './dialogue.js';
export { DialogueError, type DialogueErrorCode } from './errors.js';
export { EntrySeqBuilder, EntryView } from './entry-seq.js';
export { deepFreeze } from './freeze.js';
export type { DialogueView, EntrySeq, TurnInfo } from './types.js';
