/**
 * Agent inputs that select every input-dependent branch of the machine: root or subagent,
 * with or without task hooks, summary or copied context, one-shot or continuable, with or
 * without a step limit.
 */
import type { AgentInput } from '../../machines/agent.types.js';
import { selectSnapshot } from '../context/select.js';
import type { ContextSpec } from '../context/types.js';
import { Dialogue } from '../dialogue/dialogue.js';
import { assistantEntry, userEntry } from '../dialogue/entry.js';
import type { TaskFraming } from '../request/compose-task.js';
import type { SystemConfiguration } from '../request/types.js';
import { NOTHING_INHERITED } from '../request/prefix-reuse.js';

/** One input an agent is started with, under a readable name. */
export interface AgentScenario {
  /** e.g. `subagent, hooks, summary, continuable, maxSteps 2`. */
  readonly name: string;
  readonly input: AgentInput;
}

/** Options of {@link agentScenarios}. */
export interface AgentScenarioOptions {
  /**
   * Fields every scenario's input gets (system configuration, model, session id, role, ...).
   * The fields a scenario is defined by (path, task, context, lifetime, step limit, hooks) win.
   */
  readonly base?: Partial<AgentInput>;
  /** The step limit used by the limited scenarios (default 2: one loop back, then the limit). */
  readonly maxSteps?: number;
}

const SYSTEM: SystemConfiguration = Object.freeze({ preset: 'path-test', systemPrompt: 'You are an agent under a path test.', tools: Object.freeze([]) });

/** The parent's `Agent` call every subagent scenario was started by (its first report answers it). */
export const SCENARIO_SPAWN_CALL_ID = 'call_spawn_worker';

/** A small parent dialogue the copied-context and summary scenarios are given, ending in the spawning call. */
function parentDialogue(): Dialogue {
  return Dialogue.of([
    userEntry({ text: 'What does the module do?', id: 'u_parent_1' }),
    assistantEntry({ text: 'It parses context specs.', id: 'a_parent_1' }),
    userEntry({ text: 'Ask a worker to check.', id: 'u_parent_2' }),
    assistantEntry({
      text: '',
      id: 'a_parent_2',
      toolCalls: [{ id: SCENARIO_SPAWN_CALL_ID, name: 'Agent', arguments: { task_name: 'worker', message: 'Find out what the module does.' } }],
    }),
  ]);
}

function childInput(base: Partial<AgentInput>, o: { hooks: boolean; spec: ContextSpec; lifetime: AgentInput['lifetime']; maxSteps: number | undefined }): AgentInput {
  const mode = o.spec === 'summary' ? 'summary' : o.spec === 'all' ? 'all' : 'none';
  const framing: TaskFraming =
    mode === 'summary'
      ? { kind: 'summary', parentPath: '/root', role: undefined }
      : mode === 'all'
        ? { kind: 'fork', parentPath: '/root', role: undefined }
        : { kind: 'independent', parentPath: '/root', instructions: undefined, projectContext: undefined, attachments: [] };
  return {
    ...common(base),
    path: '/root/worker',
    parentPath: '/root',
    task: 'Find out what the module does.',
    snapshot: selectSnapshot(parentDialogue(), o.spec, { triggeringCallId: SCENARIO_SPAWN_CALL_ID }),
    contextLabel: mode,
    contextMode: mode,
    framing,
    lifetime: o.lifetime,
    maxSteps: o.maxSteps,
    hasTaskHooks: o.hooks,
  };
}

function rootInput(base: Partial<AgentInput>, maxSteps: number | undefined): AgentInput {
  return {
    ...common(base),
    path: '/root',
    parentPath: null,
    task: null,
    snapshot: undefined,
    contextLabel: 'none',
    contextMode: 'none',
    framing: undefined,
    lifetime: 'continuable',
    maxSteps,
    hasTaskHooks: false,
  };
}

/** Fields no guard reads: defaults, then the caller's base. */
function common(base: Partial<AgentInput>) {
  return {
    sessionId: 'path-test',
    treeId: 'path-test',
    role: undefined,
    system: SYSTEM,
    model: 'test-model',
    effort: undefined,
    delivery: 'caller' as const,
    prefix: NOTHING_INHERITED,
    startedAt: 0,
    ...base,
  };
}

/**
 * The standard scenarios: the root (continuable, with and without a step limit) and every
 * combination for a subagent of hooks (yes/no), context (`summary`, or copied: a fork with
 * hooks, independent without), lifetime (one-shot/continuable) and step limit (none/`maxSteps`).
 */
export function agentScenarios(options: AgentScenarioOptions = {}): AgentScenario[] {
  const base = options.base ?? {};
  const limit = options.maxSteps ?? 2;
  const scenarios: AgentScenario[] = [];
  for (const maxSteps of [undefined, limit]) {
    scenarios.push({ name: `root${maxSteps ? `, maxSteps ${maxSteps}` : ''}`, input: rootInput(base, maxSteps) });
  }
  for (const hooks of [false, true]) {
    for (const summary of [false, true]) {
      for (const lifetime of ['one-shot', 'continuable'] as const) {
        for (const maxSteps of [undefined, limit]) {
          const spec: ContextSpec = summary ? 'summary' : hooks ? 'all' : 'none';
          const name = ['subagent', hooks ? 'hooks' : 'no hooks', spec === 'all' ? 'fork' : spec, lifetime, ...(maxSteps ? [`maxSteps ${maxSteps}`] : [])].join(', ');
          scenarios.push({ name, input: childInput(base, { hooks, spec, lifetime, maxSteps }) });
        }
      }
    }
  }
  return scenarios;
}
