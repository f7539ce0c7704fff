/**
 * Background generation for `summary` spawns (docs/architecture.md, "Spawning"): a
 * task-focused text that transfers relevant evidence from the
 * parent's dialogue without replaying its instructions.
 */
import { userEntry } from '../dialogue/entry.js';
import type { EntrySeq } from '../dialogue/types.js';
import type { SummaryResult } from '../request/reply.js';
import type { Effort } from '../request/types.js';
import type { ModelAdapter } from './adapter.js';
import { EntrySeqBuilder } from '../dialogue/entry-seq.js';

/** What a summary is made from. */
export interface SummaryInput {
  /** The frozen `all` selection of the parent's effective dialogue. */
  readonly entries: EntrySeq;
  /** The hook-accepted task the background is for. */
  readonly task: string;
  /** Path of the subagent the background is prepared for. */
  readonly agentPath: string;
}

export type { SummaryResult };

/**
 * Produces background for a `summary` spawn. Must honour `signal` like a
 * {@link ModelAdapter} does: reject promptly with an AbortError once it aborts.
 */
export interface Summarizer {
  summarize(input: SummaryInput, signal: AbortSignal): Promise<SummaryResult>;
}

/**
 * The summarizer's system prompt. It asks for evidence relevant to the task and forbids
 * replaying instructions: a replayed request would become a second assignment for the
 * subagent (the reason context defaults to `none`).
 */
export const SUMMARY_SYSTEM_PROMPT = [
  'You prepare background for a delegated agent (a subagent) that is about to start a task.',
  'Read the conversation and write only what that agent needs to know for its task:',
  'relevant facts, findings, decisions and their reasons, constraints, names of files,',
  'functions and other artifacts, and open questions.',
  'Do not replay instructions or requests that were addressed to the original agent, do not',
  'assign work, and do not attempt the task yourself. The subagent receives its task separately.',
  'Leave out whatever is irrelevant to the task. Write concise prose or bullet points with no preamble.',
].join('\n');

/** The closing instruction that names the task (appended after the copied entries). */
export function summaryInstruction(task: string): string {
  return [
    'Write the background for a subagent whose task is:',
    '<task>',
    task,
    '</task>',
    'Include only what in the conversation above is relevant to this task.',
  ].join('\n');
}

/** Options of {@link modelSummarizer}. */
export interface ModelSummarizerOptions {
  /** Model name put into the request (adapters that route by model read it). */
  readonly model: string;
  readonly effort?: Effort;
  /** Replaces {@link SUMMARY_SYSTEM_PROMPT}. */
  readonly systemPrompt?: string;
  /** Preset name recorded in the request head. Default `summarizer`. */
  readonly preset?: string;
}

/**
 * A {@link Summarizer} backed by any {@link ModelAdapter}: one request whose messages are the
 * entries followed by a user instruction naming the task, with no tools offered. The request
 * is sampled as turn 0, step 0 of `input.agentPath`. An empty reply is an error: seeding a
 * subagent with nothing would silently turn `summary` into `none`.
 */
export function modelSummarizer(adapter: ModelAdapter, options: ModelSummarizerOptions): Summarizer {
  const system = Object.freeze({
    preset: options.preset ?? 'summarizer',
    systemPrompt: options.systemPrompt ?? SUMMARY_SYSTEM_PROMPT,
    tools: Object.freeze([]),
  });
  return {
    async summarize(input, signal) {
      const instruction = userEntry({
        text: summaryInstruction(input.task),
        origin: { kind: 'task', from: input.agentPath },
        id: `summary_instruction_${input.agentPath}`,
      });
      const response = await adapter.sample(
        { system, messages: new EntrySeqBuilder().all(input.entries).entry(instruction).build(), model: options.model, effort: options.effort },
        { signal, agentPath: input.agentPath, turn: 0, step: 0 },
      );
      const text = response.text.trim();
      if (text === '') throw new Error(`summarizer: ${adapter.name} returned no background for ${input.agentPath}`);
      return { text, usage: response.usage };
    },
  };
}
