/**
 * `createRuntime`: a session's agent tree, with the root agent idle and waiting.
 */
import { defineHostTool, type HostToolDefinition } from '../request/host-tool.js';
import type { ToolArgsOf, ToolInputSchema } from '../request/tool-input.js';
import type { PermissionMatcher } from '../policy/permission-pattern.js';
import { RuntimeCore } from './core.js';
import { agentCoreBuilders } from './agent-logic.js';
import { ROOT_PATH } from './paths.js';
import { spawnSubagent } from './spawn.js';
import { callToolForHost } from './tool-events.js';
import type { NeedsApproval, Runtime, RuntimeOptions, RuntimeTool, SpawnPolicyDecision, ToolExecutionContext, ToolOutput } from './types.js';

/**
 * Creates a runtime and starts its root agent, idle in `running`. Send it work with
 * `prompt`; watch it with `on('change' | 'turn' | 'result')`; stop it with `stop`.
 */
export function createRuntime(options: RuntimeOptions): Runtime {
  const core = new RuntimeCore(options, agentCoreBuilders);
  core.startRoot();
  return runtimeOf(core);
}

/** The host's handle on a runtime core (a new session's or a resumed one's). */
export function runtimeOf(core: RuntimeCore): Runtime {
  return {
    sessionId: core.config.sessionId,
    sessionIdOf: (path) => core.sessionIdOf(path),
    get warnings() {
      const found = core.narrowing.list;
      return found.length === 0 ? core.config.roles.warnings : Object.freeze([...core.config.roles.warnings, ...found]);
    },
    rootPath: ROOT_PATH,
    prompt: (text, opts) => core.prompt(text, opts),
    spawn: (parentPath, request, opts) =>
      spawnSubagent(core, parentPath, request, {
        ...(opts?.delivery ? { delivery: opts.delivery } : {}),
        ...(opts?.lifetime ? { lifetime: opts.lifetime } : {}),
        ...(opts?.signal ? { signal: opts.signal } : {}),
        ...(opts ? { host: hostSpawnOptions(opts) } : {}),
      }),
    callTool: (path, call, opts) => callToolForHost(core, { path, call }, opts?.signal ?? new AbortController().signal),
    send: (from, to, message) => void core.send(from, to, message),
    cancel: (path, reason) => core.cancel(path, reason),
    close: (path) => core.close(path),
    compact: (path) => core.compact(path),
    list: () => core.list(),
    transcript: (path) => core.dialogueOf(path) ?? core.settledDialogue(path),
    stateOf: (path) => core.stateOf(path),
    result: (path) => core.resultOf(path),
    get results() {
      return core.retention.results();
    },
    release: (path) => core.release(path),
    whenQuiet: () => core.whenQuiet(),
    on: (type, listener) => core.events.on(type, listener),
    events: (opts) => core.openEvents(opts),
    usage: () => core.ledger.total(),
    budgetOf: (path) => core.budgets.remaining(path),
    approvals: () => core.approvals.list(),
    answerApproval: (id, decision) => core.approvals.answer(id, decision),
    get slotsInUse() {
      return core.registry.slotsInUse;
    },
    stop: (reason) => core.cancel(ROOT_PATH, reason ?? 'session stopped'),
  };
}

/** The host's per-spawn choices from `Runtime.spawn` options (the signal is not one). */
function hostSpawnOptions(opts: SpawnPolicyDecision & { readonly signal?: AbortSignal }): SpawnPolicyDecision {
  const { signal: _signal, ...decision } = opts;
  return decision;
}

/**
 * Defines a host tool the runtime can execute: a schema for its arguments (any Standard Schema,
 * such as zod 3 or 4, valibot or arktype, or a plain JSON Schema object), the capabilities it
 * exercises (for confirmation), optionally what permission patterns match (`permission`), and
 * `execute`, which gets the schema's validated output.
 *
 * @example
 * ```ts
 * const bash = defineRuntimeTool({
 *   name: 'bash',
 *   description: 'Runs a shell command.',
 *   schema: z.object({ command: z.string() }),
 *   capabilities: ['shell'],
 *   permission: { kind: 'command', subject: (args) => args.command }, // enforces Bash(git diff *)
 *   execute: async ({ command }) => run(command),
 * });
 * ```
 */
export function defineRuntimeTool<S extends ToolInputSchema>(
  def: HostToolDefinition<S> & {
    /** What permission patterns for this tool match: the command, or the path(s). */
    readonly permission?: PermissionMatcher<ToolArgsOf<S>>;
    /**
     * Whether a call needs the host's approval first (`RuntimeOptions.approve`): always
     * (`true`) or by a predicate over the validated arguments.
     */
    readonly needsApproval?: NeedsApproval<ToolArgsOf<S>>;
    readonly execute: (args: ToolArgsOf<S>, context: ToolExecutionContext) => ToolOutput | Promise<ToolOutput>;
  },
): RuntimeTool<ToolArgsOf<S>> {
  const tool = defineHostTool({
    name: def.name,
    description: def.description,
    schema: def.schema,
    ...(def.jsonSchema ? { jsonSchema: def.jsonSchema } : {}),
    ...(def.capabilities ? { capabilities: def.capabilities } : {}),
    ...(def.hints ? { hints: def.hints } : {}),
  });
  return Object.freeze({
    ...tool,
    execute: def.execute,
    ...(def.permission ? { permission: Object.freeze({ ...def.permission }) } : {}),
    ...(def.needsApproval !== undefined ? { needsApproval: def.needsApproval } : {}),
  });
}
