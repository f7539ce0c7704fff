/**
 * `createRuntime`: a session's agent tree, with the root agent idle and waiting.
 */
import { RuntimeCore } from './core.js';
import { agentCoreBuilders } from './agent-logic.js';
import { ROOT_PATH } from './paths.js';
import { spawnSubagent } from './spawn.js';
import { callToolForHost } from './tool-events.js';
import type { Runtime, RuntimeOptions, SpawnPolicyDecision, TurnOutcome } from './types.js';
import { inTurn } from './directory.js';

export { defineRuntimeTool } from '../policy/runtime-tool.js';

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
    sessionIdOf: (path) => core.directory.sessionIdOf(path),
    get warnings() {
      const found = core.narrowing.list;
      return found.length === 0 ? core.config.roles.warnings : Object.freeze([...core.config.roles.warnings, ...found]);
    },
    rootPath: ROOT_PATH,
    prompt: (text, opts) => core.router.prompt(text, opts),
    turnInProgress: (path = ROOT_PATH) => turnInProgress(core, path),
    spawn: (parentPath, request, opts) =>
      spawnSubagent(core, parentPath, request, {
        ...(opts?.delivery ? { delivery: opts.delivery } : {}),
        ...(opts?.lifetime ? { lifetime: opts.lifetime } : {}),
        ...(opts?.signal ? { signal: opts.signal } : {}),
        ...(opts ? { host: hostSpawnOptions(opts) } : {}),
      }),
    callTool: (path, call, opts) => callToolForHost(core, { path, call }, opts?.signal ?? new AbortController().signal),
    send: (from, to, message) => void core.router.send(from, to, message),
    cancel: (path, reason) => core.lifecycle.cancel(path, reason),
    close: (path) => core.router.close(path),
    compact: (path) => core.router.compact(path),
    list: () => core.directory.list(),
    transcript: (path) => core.directory.dialogueOf(path) ?? core.directory.settledDialogue(path),
    stateOf: (path) => core.directory.stateOf(path),
    result: (path) => core.lifecycle.resultOf(path),
    get results() {
      return core.retention.results();
    },
    release: (path) => core.directory.release(path),
    whenQuiet: () => core.lifecycle.whenQuiet(),
    on: (type, listener) => core.events.on(type, listener),
    events: (opts) => core.openEvents(opts),
    usage: () => core.ledger.total(),
    budgetOf: (path) => core.budgets.remaining(path),
    approvals: () => core.approvals.list(),
    answerApproval: (id, decision) => core.approvals.answer(id, decision),
    get slotsInUse() {
      return core.registry.slotsInUse;
    },
    stop: (reason) => core.lifecycle.cancel(ROOT_PATH, reason ?? 'session stopped'),
  };
}

/** The host's per-spawn choices from `Runtime.spawn` options (the signal is not one). */
function hostSpawnOptions(opts: SpawnPolicyDecision & { readonly signal?: AbortSignal }): SpawnPolicyDecision {
  const { signal: _signal, ...decision } = opts;
  return decision;
}

/**
 * The outcome of the turn `path` is in now, as `prompt` would have resolved with it; undefined
 * when the agent is not in a turn (idle, settled, unknown, or a root the host runs itself).
 */
function turnInProgress(core: RuntimeCore, path: string): Promise<TurnOutcome> | undefined {
  const record = core.registry.get(path);
  const meta = core.directory.metaOf(path);
  if (!record?.actor || record.delivered || meta === undefined || !inTurn(meta) || core.router.hostRuns(path)) return undefined;
  return core.turns.wait(path).outcome;
}
