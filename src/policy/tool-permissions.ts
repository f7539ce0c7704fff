/**
 * Checking one tool call against every tool list that governs the calling agent.
 *
 * An agent's tools are narrowed by layers: each role along its chain of delegation and each
 * spawn policy of the host adds one, and a subagent keeps its parent's layers, so a worker
 * started by a restricted reviewer is just as restricted. A call runs only when every layer
 * allows it. Entries with a permission pattern are checked here, against what the call does
 * (see `permission-pattern.ts`); entries without one were already applied to the schemas the
 * agent sees, and are checked again here so a call to a tool never shown is refused too.
 */
import { commandMatchesAll, commandMatchesAny, pathMatches, type PathAnchors, type PermissionMatcher } from './permission-pattern.js';
import { parseToolEntry, toolNameMatches } from './tool-name.js';

/** One set of tool lists and who set them. */
export interface PermissionLayer {
  /** Names the source in refusals, e.g. `role "reviewer" (.claude/agents/reviewer.md)`. */
  readonly label: string;
  /** Allowed entries; absent means every tool. */
  readonly allow?: readonly string[];
  /** Denied entries, applied after `allow`. */
  readonly deny?: readonly string[];
}

/** The verdict on one call: allowed, or refused with a sentence the model can read. */
export type CallVerdict = { readonly ok: true } | { readonly ok: false; readonly reason: string };

/** What a check needs besides the layers. */
export interface CallCheckInput {
  readonly tool: string;
  /** The call's validated arguments. */
  readonly args: unknown;
  /** The tool's matcher, when it declares one. */
  readonly matcher: PermissionMatcher | undefined;
  readonly anchors: PathAnchors;
}

const ALLOWED: CallVerdict = Object.freeze({ ok: true });

/**
 * Checks a call against each layer in order; the first refusal wins.
 *
 * @example
 * ```ts
 * const layers = [{ label: 'role "reviewer"', allow: ['Read', 'Bash(git diff *)'] }];
 * checkToolCall(layers, { tool: 'bash', args: { command: 'rm -rf /' }, matcher: bashMatcher, anchors });
 * // { ok: false, reason: 'role "reviewer" allows bash only for "git diff *"; …' }
 * ```
 */
export function checkToolCall(layers: readonly PermissionLayer[], input: CallCheckInput): CallVerdict {
  let subjects: readonly string[] | undefined;
  const subjectsOf = (): readonly string[] | string => {
    if (subjects !== undefined) return subjects;
    if (input.matcher === undefined) return 'declares no matcher to check patterns against';
    try {
      const value = input.matcher.subject(input.args);
      subjects = typeof value === 'string' ? [value] : [...value];
      return subjects;
    } catch (error) {
      return `could not say what the call acts on (${error instanceof Error ? error.message : 'its matcher failed'})`;
    }
  };
  for (const layer of layers) {
    const verdict = checkLayer(layer, input, subjectsOf);
    if (!verdict.ok) return verdict;
  }
  return ALLOWED;
}

function checkLayer(layer: PermissionLayer, input: CallCheckInput, subjectsOf: () => readonly string[] | string): CallVerdict {
  const { tool, matcher } = input;
  const refers = (text: string) => toolNameMatches(text, tool);
  if (layer.allow !== undefined) {
    const entries = layer.allow.filter(refers).map(parseToolEntry);
    if (entries.length === 0) return refuse(`${layer.label} does not allow the tool ${tool}`);
    if (!entries.some((entry) => entry.pattern === undefined)) {
      const patterns = entries.map((entry) => entry.pattern as string);
      const subjects = subjectsOf();
      const shown = `${layer.label} allows ${tool} only for ${quoteAll(patterns)}`;
      if (typeof subjects === 'string') return refuse(`${shown}, and the tool ${subjects}`);
      if (matcher === undefined || !allowedBy(patterns, subjects, matcher, input.anchors)) {
        return refuse(`${shown}; this call (${describeSubjects(subjects)}) is outside them`);
      }
    }
  }
  for (const entry of (layer.deny ?? []).filter(refers).map(parseToolEntry)) {
    if (entry.pattern === undefined) return refuse(`${layer.label} denies the tool ${tool}`);
    const subjects = subjectsOf();
    if (typeof subjects === 'string') return refuse(`${layer.label} denies ${tool} for ${quoteAll([entry.pattern])}, and the tool ${subjects}`);
    if (matcher === undefined || deniedBy(entry.pattern, subjects, matcher, input.anchors)) {
      return refuse(`${layer.label} denies ${tool} for ${quoteAll([entry.pattern])}; this call (${describeSubjects(subjects)}) matches it`);
    }
  }
  return ALLOWED;
}

function allowedBy(patterns: readonly string[], subjects: readonly string[], matcher: PermissionMatcher, anchors: PathAnchors): boolean {
  if (subjects.length === 0) return false;
  return subjects.every((subject) =>
    matcher.kind === 'command' ? commandMatchesAll(patterns, subject) : patterns.some((pattern) => pathMatches(pattern, subject, anchors)),
  );
}

function deniedBy(pattern: string, subjects: readonly string[], matcher: PermissionMatcher, anchors: PathAnchors): boolean {
  return subjects.some((subject) => (matcher.kind === 'command' ? commandMatchesAny([pattern], subject) : pathMatches(pattern, subject, anchors)));
}

function refuse(reason: string): CallVerdict {
  return { ok: false, reason };
}

function quoteAll(patterns: readonly string[]): string {
  return patterns.map((pattern) => JSON.stringify(pattern)).join(', ');
}

function describeSubjects(subjects: readonly string[]): string {
  const shown = subjects.map((subject) => JSON.stringify(subject.length > 120 ? `${subject.slice(0, 117)}...` : subject));
  return shown.length === 0 ? 'nothing to check' : shown.join(', ');
}
