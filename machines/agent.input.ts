/**
 * Building, checking and freezing the agent machine's input. `createAgentInput` is how a
 * harness that embeds the machine gets a valid {@link AgentInput} from a few named options;
 * the machine itself checks and deeply freezes every input it starts with, so a hand-built
 * partial input fails with a clear {@link AgentInputError}, and nothing can change a running
 * agent's input afterwards.
 */
import type { ContextMode, ContextSnapshot } from '../src/context/types.js';
import { NO_ATTACHMENTS, type Attachment } from '../src/dialogue/entry.js';
import type { DelegatedRole } from '../src/request/wrapper.js';
import type { InheritedPrefix } from '../src/request/prefix-reuse.js';
import type { JsonObject } from '../src/request/types.js';
import { deepFreeze } from '../src/dialogue/freeze.js';
import { NOTHING_INHERITED } from '../src/request/prefix-reuse.js';
import type { Effort, SystemConfiguration, ToolSchema } from '../src/request/types.js';
import { TASK_NAME_PATTERN } from '../src/request/tool-schemas.js';
import type { Budget } from '../src/policy/budget.js';
import type { AgentInput, Delivery, Lifetime, TaskFraming } from './agent.types.js';

/** Thrown for an input the agent machine cannot run; `field` names the offending option. */
export class AgentInputError extends Error {
  override readonly name = 'AgentInputError';
  readonly code = 'invalid_agent_input' as const;
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(`invalid agent input: ${field} ${message}`);
  }
}

/** The named options of {@link createAgentInput}; only `model` is required. */
export interface AgentInputOptions {
  /** The model id every request of the agent names. */
  readonly model: string;
  /** The task the agent starts with. Omit it for an agent that starts idle and waits for its inbox (a root). */
  readonly task?: string;
  /** The system prompt (default empty). */
  readonly systemPrompt?: string;
  /** Model-facing tool schemas, in request order (default none). Names must be unique. */
  readonly tools?: readonly ToolSchema[];
  /** Names the system configuration (default `custom`). */
  readonly preset?: string;
  /** The agent's path (default `/root`); its parent is the path without the last segment. */
  readonly path?: string;
  /** The agent's own session id, which its result carries (default `session`). */
  readonly sessionId?: string;
  /** The session id of the whole tree (default: `sessionId`). */
  readonly treeId?: string;
  /** Default `one-shot` with a task, `continuable` without one (an idle root must stay open). */
  readonly lifetime?: Lifetime;
  /** Default `caller`. */
  readonly delivery?: Delivery;
  /** Model requests allowed per turn (a positive integer; default unlimited). */
  readonly maxSteps?: number;
  /** The agent definition's name, reported in the result. */
  readonly role?: string;
  readonly effort?: Effort;
  /** Whether the harness provides `runTaskHooks` to vet the task (default false: skipped). */
  readonly taskHooks?: boolean;
  /** A frozen slice of a parent's dialogue to seed the agent with (default none). */
  readonly snapshot?: ContextSnapshot;
  /** Start time in ms since the epoch (default `Date.now()`). */
  readonly startedAt?: number;
}

const OPTION_NAMES: ReadonlySet<string> = new Set([
  'model',
  'task',
  'systemPrompt',
  'tools',
  'preset',
  'path',
  'sessionId',
  'treeId',
  'lifetime',
  'delivery',
  'maxSteps',
  'role',
  'effort',
  'taskHooks',
  'snapshot',
  'startedAt',
]);
const LIFETIMES: readonly Lifetime[] = ['one-shot', 'continuable'];
const DELIVERIES: readonly Delivery[] = ['caller', 'parent'];
const EFFORTS: readonly Effort[] = ['low', 'medium', 'high'];

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const nonEmpty = (value: unknown): value is string => typeof value === 'string' && value.trim() !== '';

/**
 * Builds a valid, deeply frozen {@link AgentInput} from a few named options, for a harness
 * that runs the agent machine itself. Throws an {@link AgentInputError} naming the first
 * bad or unknown option.
 *
 * @example
 * ```ts
 * const input = createAgentInput({ task: 'summarize the changelog', model: 'my-model', systemPrompt: 'You are a worker.' });
 * const agent = createActor(logic, { input }).start();
 * ```
 */
export function createAgentInput(options: AgentInputOptions): AgentInput {
  if (!isObject(options)) throw new AgentInputError('options', 'must be an object such as { model: "my-model", task: "..." }');
  for (const key of Object.keys(options)) {
    if (!OPTION_NAMES.has(key)) throw new AgentInputError(key, `is not an option; known options: ${[...OPTION_NAMES].join(', ')}`);
  }
  const o = options;
  if (!nonEmpty(o.model)) throw new AgentInputError('model', 'must be a non-empty string');
  if (o.task !== undefined && !nonEmpty(o.task)) throw new AgentInputError('task', 'must be a non-empty string (omit it for an agent that starts idle)');
  const path = o.path ?? '/root';
  // Checked here, named in the error; agentInput derives the parent from it.
  parentOf(path);
  const system = systemOf(o);
  const lifetime = o.lifetime ?? (o.task === undefined ? 'continuable' : 'one-shot');
  if (!LIFETIMES.includes(lifetime)) throw new AgentInputError('lifetime', `must be one of ${LIFETIMES.join(', ')}`);
  if (o.task === undefined && lifetime !== 'continuable') throw new AgentInputError('lifetime', 'must be continuable for an agent without a task (it starts idle)');
  const delivery = o.delivery ?? 'caller';
  if (!DELIVERIES.includes(delivery)) throw new AgentInputError('delivery', `must be one of ${DELIVERIES.join(', ')}`);
  if (o.maxSteps !== undefined && !(Number.isInteger(o.maxSteps) && o.maxSteps > 0)) throw new AgentInputError('maxSteps', 'must be a positive integer');
  if (o.effort !== undefined && !EFFORTS.includes(o.effort)) throw new AgentInputError('effort', `must be one of ${EFFORTS.join(', ')}`);
  if (o.role !== undefined && !nonEmpty(o.role)) throw new AgentInputError('role', 'must be a non-empty string');
  if (o.sessionId !== undefined && !nonEmpty(o.sessionId)) throw new AgentInputError('sessionId', 'must be a non-empty string');
  if (o.treeId !== undefined && !nonEmpty(o.treeId)) throw new AgentInputError('treeId', 'must be a non-empty string');
  if (o.taskHooks !== undefined && typeof o.taskHooks !== 'boolean') throw new AgentInputError('taskHooks', 'must be a boolean');
  if (o.startedAt !== undefined && !Number.isFinite(o.startedAt)) throw new AgentInputError('startedAt', 'must be a finite number (ms since the epoch)');
  if (o.snapshot !== undefined && !(isObject(o.snapshot) && typeof o.snapshot.mode === 'string' && isObject(o.snapshot.entries))) {
    throw new AgentInputError('snapshot', 'must be a context snapshot (from selectSnapshot)');
  }
  if (o.snapshot !== undefined && o.task === undefined) throw new AgentInputError('snapshot', 'needs a task: an agent without one starts idle and is never seeded');
  return agentInput({
    path,
    sessionId: o.sessionId ?? 'session',
    treeId: o.treeId ?? o.sessionId ?? 'session',
    role: o.role,
    task: o.task ?? null,
    snapshot: o.snapshot,
    system,
    model: o.model,
    effort: o.effort,
    lifetime,
    delivery,
    maxSteps: o.maxSteps,
    hasTaskHooks: o.taskHooks ?? false,
    startedAt: o.startedAt ?? Date.now(),
  });
}

/**
 * What an agent's input is made of. The parent path, the context label and mode follow from
 * the path and the snapshot; what is left out is the root's (nothing inherited, no framing).
 */
export interface AgentInputFields {
  readonly path: string;
  readonly sessionId: string;
  readonly treeId: string;
  readonly role?: string | undefined;
  /** The task it starts with; null for an agent that starts idle (a root). */
  readonly task: string | null;
  /** The frozen slice of its parent's dialogue it was started with (absent: context `none`, nothing copied). */
  readonly snapshot?: ContextSnapshot | undefined;
  /** How its initial task is framed for a subagent ({@link taskFraming}); absent: the task as is. */
  readonly framing?: TaskFraming | undefined;
  readonly system: AgentInput['system'];
  readonly model: string;
  readonly effort?: AgentInput['effort'];
  readonly lifetime: Lifetime;
  readonly delivery: Delivery;
  readonly maxSteps?: number | undefined;
  readonly output?: JsonObject | undefined;
  readonly prefix?: InheritedPrefix;
  readonly hasTaskHooks?: boolean;
  /** Its own budget caps (absent: none but its ancestors'). */
  readonly budget?: Budget | undefined;
  readonly startedAt: number;
}

/**
 * Builds an agent's input, deeply frozen: the one function every host uses, for a root, a
 * spawn, an embedding harness and a resumed agent alike.
 *
 * @example
 * ```ts
 * const input = agentInput({ path: '/root', sessionId: 's', treeId: 's', task: null, system, model: 'm', lifetime: 'continuable', delivery: 'caller', startedAt: Date.now() });
 * ```
 */
export function agentInput(fields: AgentInputFields): AgentInput {
  const { snapshot } = fields;
  return freezeAgentInput({
    path: fields.path,
    parentPath: parentPathOf(fields.path),
    sessionId: fields.sessionId,
    treeId: fields.treeId,
    role: fields.role,
    task: fields.task,
    snapshot,
    contextLabel: snapshot ? labelOf(snapshot) : 'none',
    contextMode: snapshot?.mode ?? 'none',
    framing: fields.framing,
    system: fields.system,
    model: fields.model,
    effort: fields.effort,
    lifetime: fields.lifetime,
    delivery: fields.delivery,
    maxSteps: fields.maxSteps,
    ...(fields.output !== undefined ? { output: fields.output } : {}),
    prefix: fields.prefix ?? NOTHING_INHERITED,
    hasTaskHooks: fields.hasTaskHooks ?? false,
    ...(fields.budget !== undefined ? { budget: fields.budget } : {}),
    startedAt: fields.startedAt,
  });
}

/** What a subagent's task framing carries besides its mode and parent. */
export interface FramingParts {
  /** The role it was delegated (a fork's or summary's wrapper names it). */
  readonly role?: DelegatedRole | undefined;
  /** The role's instructions (an independent subagent gets them in its task). */
  readonly instructions?: string | undefined;
  /** The project's trusted context file (an independent subagent's only view of the project). */
  readonly projectContext?: string | undefined;
  readonly attachments?: readonly Attachment[] | undefined;
}

/**
 * How a subagent's initial task is framed in each context mode: a fork or a summary subagent
 * gets the delegation wrapper after what it inherited, an independent one its role's
 * instructions and the project context. The head stays the parent's (a shared prefix).
 */
export function taskFraming(mode: ContextMode, parentPath: string, parts: FramingParts = {}): TaskFraming {
  const attachments = parts.attachments ?? NO_ATTACHMENTS;
  switch (mode) {
    case 'none':
      return { kind: 'independent', parentPath, instructions: parts.instructions, projectContext: parts.projectContext, attachments };
    case 'summary':
      return { kind: 'summary', parentPath, role: parts.role, attachments };
    case 'all':
    case 'turns':
      return { kind: 'fork', parentPath, role: parts.role, attachments };
  }
}

/** The parent of a path already checked (`/root/a/b` → `/root/a`; the root has none). */
function parentPathOf(path: string): string | null {
  const cut = path.lastIndexOf('/');
  return cut > 0 ? path.slice(0, cut) : null;
}

function parentOf(path: unknown): string | null {
  const segments = typeof path === 'string' && path.startsWith('/') ? path.slice(1).split('/') : [];
  if (segments.length === 0 || !segments.every((s) => TASK_NAME_PATTERN.test(s))) {
    throw new AgentInputError('path', `must look like "/root" or "/root/worker" (segments of lowercase letters, digits, "-", "_"); got ${JSON.stringify(path)}`);
  }
  return segments.length === 1 ? null : `/${segments.slice(0, -1).join('/')}`;
}

function systemOf(o: AgentInputOptions): SystemConfiguration {
  if (o.systemPrompt !== undefined && typeof o.systemPrompt !== 'string') throw new AgentInputError('systemPrompt', 'must be a string');
  if (o.preset !== undefined && !nonEmpty(o.preset)) throw new AgentInputError('preset', 'must be a non-empty string');
  const tools = o.tools ?? [];
  if (!Array.isArray(tools)) throw new AgentInputError('tools', 'must be an array of tool schemas');
  const names = new Set<string>();
  tools.forEach((tool: unknown, i) => {
    if (!isObject(tool) || !nonEmpty(tool.name) || typeof tool.description !== 'string' || !isObject(tool.inputSchema)) {
      throw new AgentInputError(`tools[${i}]`, 'must be { name, description, inputSchema } with a non-empty name and a JSON Schema object');
    }
    if (names.has(tool.name)) throw new AgentInputError(`tools[${i}]`, `repeats the tool name "${tool.name}"`);
    names.add(tool.name);
  });
  return { preset: o.preset ?? 'custom', systemPrompt: o.systemPrompt ?? '', tools: [...tools] };
}

function labelOf(snapshot: ContextSnapshot): string {
  return typeof snapshot.spec === 'string' ? snapshot.spec : String(snapshot.spec.turns);
}

/** Fields every input must carry, and the type each must have (a cheap shape check). */
const REQUIRED: ReadonlyArray<readonly [keyof AgentInput, string]> = [
  ['path', 'string'],
  ['sessionId', 'string'],
  ['treeId', 'string'],
  ['contextLabel', 'string'],
  ['contextMode', 'string'],
  ['system', 'object'],
  ['model', 'string'],
  ['lifetime', 'string'],
  ['delivery', 'string'],
  ['prefix', 'object'],
  ['hasTaskHooks', 'boolean'],
  ['startedAt', 'number'],
];

/**
 * Throws an {@link AgentInputError} listing what a hand-built input lacks, instead of a
 * `Cannot read properties of undefined` from deep inside a transition.
 */
export function assertAgentInput(input: unknown): asserts input is AgentInput {
  if (!isObject(input)) throw new AgentInputError('input', 'is missing: start the agent with createActor(logic, { input: createAgentInput({ ... }) })');
  const bad = REQUIRED.filter(([key, type]) => typeof input[key] !== type || input[key] === null).map(([key, type]) => `${key} (${type})`);
  if (input.task !== null && typeof input.task !== 'string') bad.push('task (string, or null for an agent that starts idle)');
  if (bad.length > 0) throw new AgentInputError('input', `lacks or mistypes ${bad.join(', ')}; build it with createAgentInput({ ... })`);
}

/** System configurations already walked: children share their parent's, so each is walked once. */
const frozenSystems = new WeakSet<object>();
/** Inputs frozen here already (`agentInput` freezes; the machine checks again on start): walked once. */
const frozenInputs = new WeakSet<AgentInput>();

/**
 * Freezes the whole input, deeply, in place, and returns it. Cheap: the snapshot's entry
 * sequence is already frozen and exposes no mutable field, and a system configuration shared
 * by many agents is walked only the first time.
 */
export function freezeAgentInput(input: AgentInput): AgentInput {
  if (frozenInputs.has(input)) return input;
  if (!frozenSystems.has(input.system)) {
    deepFreeze(input.system);
    frozenSystems.add(input.system);
  }
  deepFreeze(input.prefix);
  deepFreeze(input.framing);
  deepFreeze(input.snapshot);
  frozenInputs.add(Object.freeze(input));
  return input;
}
