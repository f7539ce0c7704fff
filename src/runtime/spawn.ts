/**
 * Spawning a subagent, in the order docs/architecture.md ("Spawning") gives: validate, resolve the context
 * mode, check limits and confirm capabilities, reserve path and slot atomically, then take
 * the snapshot and start the actor with it as immutable input. Every failing step throws a
 * RuntimeError (or a typed layer error) and leaves nothing held.
 */
import { subagentOf } from '../../machines/subagents.js';
import type { AnyActorRef } from 'xstate';
import type { AgentInput, Delivery, Lifetime, TaskFraming } from '../../machines/agent.types.js';
import { agentInput, taskFraming } from '../../machines/agent.input.js';
import { contextLabel, contextModeOf } from '../context/parse.js';
import { resolveContextSpec } from '../context/resolve.js';
import { selectSnapshot } from '../context/select.js';
import type { ContextMode, ContextSpec } from '../context/types.js';
import { roleLabel, type RoleDefinition } from './roles.js';
import { resolveModelName } from '../policy/model-alias.js';
import { AGENT_TOOL, checkSpawnRole } from '../policy/agent-entries.js';
import { PERMISSION_MODE_RULES } from '../policy/permission-mode.js';
import type { PermissionLayer } from '../policy/tool-permissions.js';
import type { AgentGrants } from './registry.js';
import type { SystemConfiguration } from '../request/types.js';
import { measureInheritedPrefix } from '../request/prefix-reuse.js';
import { checkOutputSchema } from '../request/output-schema.js';
import type { RuntimeCore } from './core.js';
import { toolGrants } from './config.js';
import { errorCode, RuntimeError } from './errors.js';
import { SaEvents } from '../otel/attributes.js';
import { DEFAULT_MAX_STEPS } from './turns.js';
import { defaultLifetime } from '../request/lifetime.js';
import { lastRequestOf } from './requests.js';
import { spawnBudgetRule } from './approval-rules.js';
import { askApproval } from './ask-approval.js';
import { errorText } from '../dialogue/error-text.js';
import { childPath, isValidTaskName } from './paths.js';
import type { AgentResult, FirstReportValue, SpawnHandle, SpawnPolicyDecision, SpawnRequest } from './types.js';

/** Where a spawn comes from: a model's Agent call (with its call id) or the host. */
export interface SpawnOrigin {
  readonly triggeringCallId?: string;
  readonly signal?: AbortSignal;
  readonly delivery?: Delivery;
  readonly lifetime?: Lifetime;
  /** The host's own choices for this spawn (`Runtime.spawn` options); they win over `spawnPolicy`. */
  readonly host?: SpawnPolicyDecision;
}

/** The grants of a spawn the host granted nothing beyond its tools. */
const NO_GRANTS: AgentGrants = Object.freeze({ externalDirectories: Object.freeze([]), inheritsExtensions: false });
/** No tool lists. */
const NO_LAYERS: readonly PermissionLayer[] = Object.freeze([]);

/** The spawn policy's decision with the host's explicit spawn options laid over it. */
function decide(policy: SpawnPolicyDecision | undefined, host: SpawnPolicyDecision | undefined): SpawnPolicyDecision | undefined {
  if (!host) return policy;
  const merged: { -readonly [K in keyof SpawnPolicyDecision]: SpawnPolicyDecision[K] } = { ...policy };
  for (const key of ['delivery', 'lifetime', 'tools', 'externalDirectories', 'inheritsExtensions', 'output', 'budget'] as const) {
    if (host[key] !== undefined) (merged as Record<string, unknown>)[key] = host[key];
  }
  return merged;
}

/** Rejects host spawn options of the wrong shape, so none is silently ignored. */
function checkHostOptions(host: SpawnPolicyDecision | undefined): void {
  if (!host) return;
  const names = (value: unknown): boolean => value === undefined || (Array.isArray(value) && value.every((v) => typeof v === 'string'));
  const tools = host.tools as unknown;
  if (tools !== undefined) {
    const t = tools as { allow?: unknown; deny?: unknown };
    if (tools === null || typeof tools !== 'object' || !names(t.allow) || !names(t.deny)) {
      throw new RuntimeError('invalid_arguments', 'tools must be { allow?: string[], deny?: string[] }');
    }
  }
  if (!names(host.externalDirectories)) throw new RuntimeError('invalid_arguments', 'externalDirectories must be an array of directory paths');
  if (host.inheritsExtensions !== undefined && typeof host.inheritsExtensions !== 'boolean') {
    throw new RuntimeError('invalid_arguments', 'inheritsExtensions must be a boolean');
  }
}

/** Validates a spawn request's shape (for host calls; model calls were schema-checked). */
function validateRequest(request: SpawnRequest): void {
  if (typeof request.task_name !== 'string' || !isValidTaskName(request.task_name)) {
    throw new RuntimeError(
      'invalid_arguments',
      `task_name must be 1-64 lowercase letters, digits, "-" or "_" (got ${JSON.stringify(request.task_name)})`,
    );
  }
  if (typeof request.message !== 'string' || request.message.trim() === '') {
    throw new RuntimeError('invalid_arguments', 'message must be a non-empty string: the task for the subagent');
  }
  const attachments: unknown = request.attachments;
  if (attachments === undefined) return;
  if (!Array.isArray(attachments)) throw new RuntimeError('invalid_arguments', 'attachments must be a list of { name, content } objects');
  attachments.forEach((a: unknown, i) => {
    const item = a as { name?: unknown; content?: unknown } | null;
    if (typeof item !== 'object' || item === null || typeof item.name !== 'string' || item.name === '' || typeof item.content !== 'string') {
      throw new RuntimeError('invalid_arguments', `attachments[${i}] must be an object { name: non-empty string, content: string }`);
    }
  });
}

/** Starts a subagent under `parentPath`. Resolves once it is reserved and started. */
export async function spawnSubagent(core: RuntimeCore, parentPath: string, request: SpawnRequest, origin: SpawnOrigin = {}): Promise<SpawnHandle> {
  // 1. validate the input and the parent.
  core.lifecycle.assertRunning();
  validateRequest(request);
  checkHostOptions(origin.host);
  const parent = core.registry.get(parentPath);
  if (!parent?.actor || parent.phase !== 'published') {
    throw new RuntimeError('parent_not_running', `agent ${parentPath} is not running, so it cannot start subagents`);
  }
  core.registry.checkName(parentPath, request.task_name);
  const path = childPath(parentPath, request.task_name);

  // 2. resolve the context mode: runtime default, then the role's default, then the spawn.
  const role = core.config.roles.resolve(request.role);
  // `Agent(worker)` in a role above: only the roles it names may be started.
  const allowed = checkSpawnRole(parent.permissions, role?.name);
  if (!allowed.ok) throw new RuntimeError('tool_not_allowed', allowed.reason);
  const spec: ContextSpec = resolveContextSpec({
    runtimeDefault: core.config.defaults?.context ?? 'none',
    ...(role ? { role: { name: role.name, context: role.context, contexts: role.contexts } } : {}),
    requested: request.context,
  });
  const mode = contextModeOf(spec);
  const label = contextLabel(spec);

  // 3. limits (checked again atomically at reservation), then capability confirmation.
  core.registry.precheck(parentPath, request.task_name);
  const parentContext = core.directory.contextOf(parentPath);
  const policy = decide(core.config.spawnPolicy?.({ parentPath, taskName: request.task_name, role: role?.name, context: spec }), origin.host);
  // Structured output: the host's schema for this spawn, else the role's; checked before anything is held.
  const outputSource = policy?.output !== undefined ? 'spawn output' : `role ${role?.name ?? ''} output`;
  const rawOutput = policy?.output ?? role?.output;
  const output = rawOutput === undefined ? undefined : checkOutputSchema(rawOutput, outputSource, core.registry.limits);
  const layers = permissionLayers(core, role, policy?.tools, parentContext.input.system);
  const head = core.config.heads.forChild({ parent: parentContext.input.system, layers });
  // A role listing tools its parent lacks runs without them (the head above has none of them).
  if (role) core.narrowing.missingTools(role, parentPath, parentContext.input.system, core.config.heads.root().tools.map((t) => t.name));
  let model = spawnModel(core, request.model, role, parentContext.input.model);
  // A role's costlier model nobody can confirm: it runs on its parent's model instead.
  if (role && request.model === undefined && core.config.confirm === undefined && core.config.confirmer.costlier(model, parentContext.input.model)) {
    core.narrowing.costlierModel(role, parentPath, model, parentContext.input.model);
    model = parentContext.input.model;
  }
  // The budget: the host's or the role's, narrowed by the model's ask; checked now against
  // what the parent has left, and carved below in the step that reserves the path.
  const budget = core.budgets.spawnBudget({ role: role?.budget, host: policy?.budget, asked: request.budget, ...(role ? { roleLabel: roleLabel(role) } : {}) });
  const carvePlan = core.budgets.precheck(path, parentPath, budget, model, core.config.now());
  // A model asking for a budget above the host's threshold asks the host first.
  const budgetRule = origin.triggeringCallId === undefined || core.config.approvalRules?.budgetAbove === undefined ? undefined : spawnBudgetRule(budget, core.budgets.remaining(parentPath), core.config.approvalRules);
  if (budgetRule && origin.triggeringCallId !== undefined) {
    await askApproval(core, { path: parentPath, toolName: AGENT_TOOL, args: request, rule: budgetRule, callId: origin.triggeringCallId }, origin.signal ?? new AbortController().signal);
  }
  const confirmation = core.config.confirmer.confirm({
    parentPath,
    taskName: request.task_name,
    role: role?.name,
    parentSystem: parentContext.input.system,
    parentModel: parentContext.input.model,
    system: head,
    model,
    signal: origin.signal,
    externalDirectories: policy?.externalDirectories,
    inheritsExtensions: policy?.inheritsExtensions,
    permissionMode: role?.permissionMode,
  });
  // Only a real question to the host costs an asynchronous step.
  if (confirmation) {
    const at = { path: parentPath, callId: origin.triggeringCallId };
    try {
      await confirmation;
      core.trace?.event(at.path, SaEvents.confirmation, { 'task.name': request.task_name, approved: true }, at.callId);
    } catch (error) {
      core.trace?.event(at.path, SaEvents.confirmation, { 'task.name': request.task_name, approved: false, 'error.type': errorCode(error) }, at.callId);
      throw error;
    }
  }
  // A predecessor of the same path that is settling right now (a host's result listener
  // spawning the name again) still holds its systemId until its final step returns.
  if (parent.actor.system.get(path) !== undefined) await predecessorGone(parent.actor, path);
  if (origin.signal?.aborted) throw new RuntimeError('aborted', `the spawn of ${path} was cancelled before it started`);

  // 4. reserve path and slot in one synchronous step.
  const delivery = origin.delivery ?? policy?.delivery ?? role?.delivery ?? core.config.defaults?.delivery ?? 'caller';
  const isFork = mode === 'all' || mode === 'turns';
  const presetLifetime = isFork ? core.config.heads.presetOf(parentContext.input.system)?.defaults?.forkLifetime : undefined;
  // Forks are continuable unless something asked otherwise, whatever preset they run under.
  const lifetime = origin.lifetime ?? policy?.lifetime ?? role?.lifetime ?? presetLifetime ?? core.config.defaults?.lifetime ?? defaultLifetime(mode);
  const record = core.registry.reserve({
    parentPath,
    name: request.task_name,
    role: role?.name,
    contextLabel: label,
    delivery,
    lifetime,
    task: request.message,
    now: core.config.now(),
  });
  // Same synchronous step: a carve that no longer fits (a sibling took the rest meanwhile)
  // refuses the spawn with a `budget` error and gives the path and slot back.
  try {
    core.budgets.carve(path, parentPath, budget, model, record.reservedAt, carvePlan);
  } catch (error) {
    core.registry.unreserve(path);
    throw error;
  }
  // From here on, whatever fails releases the reservation: a throw that skipped the release
  // would hold the path and its slot for the life of the runtime, even after stop().
  try {
    core.openAccount(path, parentPath, model);
    // Most spawns are granted nothing extra and add no tool lists: those share frozen constants.
    const external = policy?.externalDirectories ?? [];
    const extensions = policy?.inheritsExtensions === true;
    record.grants = external.length === 0 && !extensions ? NO_GRANTS : Object.freeze({ externalDirectories: Object.freeze([...external]), inheritsExtensions: extensions });

    // A subagent is held to its parent's tool lists too, then to its own.
    const inherited = core.registry.get(parentPath)?.permissions ?? NO_LAYERS;
    const own = inherited.length + layers.length === 0 ? NO_LAYERS : layers.length === 0 && Object.isFrozen(inherited) ? inherited : undefined;
    record.permissions = own ?? Object.freeze([...inherited, ...layers]);
    record.permissionMode = role?.permissionMode;

    // 5. snapshot the parent's dialogue now (selection never waits) and start the actor.
    const snapshot = selectSnapshot(core.router.snapshotSource(parentPath), spec, origin.triggeringCallId ? { triggeringCallId: origin.triggeringCallId } : {});
    // What it inherits against the parent's last request, as it is now (its first request begins with exactly that).
    record.parentWire = parent.lastWire;
    const prefix = measureInheritedPrefix({
      parent: { system: parentContext.input.system, model: parentContext.input.model },
      parentLast: parent.lastRequest ?? lastRequestOf(parentContext),
      child: { system: head, model },
      inherited: snapshot.entries,
    });
    const input: AgentInput = agentInput({
      path,
      sessionId: core.agentSessionId(),
      treeId: core.config.sessionId,
      role: role?.name,
      task: request.message,
      snapshot,
      framing: framingFor(core, mode, parentPath, role, request),
      system: head,
      model,
      effort: request.effort ?? role?.effort ?? parentContext.input.effort,
      lifetime,
      delivery,
      maxSteps: role?.maxSteps ?? core.config.defaults?.maxSteps ?? DEFAULT_MAX_STEPS,
      output,
      prefix,
      hasTaskHooks: (core.config.taskHooks?.length ?? 0) > 0,
      budget,
      startedAt: record.reservedAt,
    });

    let settleFirst!: NonNullable<typeof record.onFirstReport>;
    const firstReport = new Promise<FirstReportValue>((resolve, reject) => (settleFirst = { resolve, reject }));
    record.onFirstReport = delivery === 'caller' ? settleFirst : undefined;
    const result: Promise<AgentResult> = core.lifecycle.resultOf(path);
    // A halted session rejects both; a host that awaits neither must not see an unhandled rejection.
    firstReport.catch(() => {});
    result.catch(() => {});

    const parentActor = parent.actor;
    if (core.directory.metaOf(parentPath)?.addressable !== true) throw new Error(`its parent ${parentPath} is no longer running`);
    if (parentActor.system.get(path) !== undefined) throw new Error(`an actor named ${path} is still stopping`);
    // The parent's machine creates and starts the subagent as its XState child; the runtime
    // adopts (watches) it in between, through the machine's adoptSubagent action.
    parentActor.send({ type: 'subagent.spawn', input, actorId: record.actorId });
    // An actor that fails while starting reports no snapshot, so nothing would release it. One
    // that failed while it was created (its first step threw) was never adopted: its parent
    // holds it all the same, and the undo below lets it go.
    const created = record.actor ?? subagentOf(parentActor, path);
    const started = created?.getSnapshot() as { status: string; error?: unknown } | undefined;
    if (started?.status === 'error') {
      record.actor ??= created;
      throw started.error;
    }
    return { path, delivery, lifetime, firstReport, result };
  } catch (error) {
    core.lifecycle.abandon(path);
    throw new RuntimeError('start_failed', `${path} could not be started: ${errorText(error)}`);
  }
}

/**
 * Waits (a few microtasks at most) while an actor of the same path is still registered in
 * the actor system: one that settled in the step now running is unregistered when that step
 * returns. Nothing is waited for in the ordinary case.
 */
async function predecessorGone(parent: AnyActorRef, path: string): Promise<void> {
  for (let i = 0; i < 3 && parent.system.get(path) !== undefined; i++) await Promise.resolve();
}

function framingFor(core: RuntimeCore, mode: ContextMode, parentPath: string, role: RoleDefinition | undefined, request: SpawnRequest): TaskFraming {
  const delegated = role ? { name: role.name, ...(role.instructions ? { instructions: role.instructions } : {}) } : undefined;
  // Role instructions travel in the task, so the head stays the parent's (shared prefix).
  return taskFraming(mode, parentPath, { role: delegated, instructions: role?.instructions, projectContext: core.config.projectContext, attachments: request.attachments });
}

/**
 * The new tool lists a spawn adds: the role's (`tools`, `disallowedTools`), the host's spawn
 * policy's, and what the role's permission mode removes (plan: tools that write or run
 * commands). Layers with nothing to say are left out.
 */
function permissionLayers(
  core: RuntimeCore,
  role: RoleDefinition | undefined,
  hostTools: { readonly allow?: readonly string[]; readonly deny?: readonly string[] } | undefined,
  parentSystem: SystemConfiguration,
): PermissionLayer[] {
  const layers: PermissionLayer[] = [];
  if (role && (role.tools !== undefined || (role.disallowedTools?.length ?? 0) > 0)) {
    layers.push({ label: roleLabel(role), ...(role.tools ? { allow: role.tools } : {}), ...(role.disallowedTools ? { deny: role.disallowedTools } : {}) });
  }
  // Claude Code: a subagent without a tools list inherits its parent's tools, but not Agent.
  if (role !== undefined && role.tools === undefined && core.config.allowNesting !== true) {
    layers.push({ label: `${roleLabel(role)}, which has no tools list (it inherits every tool but ${AGENT_TOOL})`, deny: [AGENT_TOOL] });
  }
  if (hostTools && (hostTools.allow !== undefined || (hostTools.deny?.length ?? 0) > 0)) {
    layers.push({ label: "the host's spawn policy", ...(hostTools.allow ? { allow: hostTools.allow } : {}), ...(hostTools.deny ? { deny: hostTools.deny } : {}) });
  }
  const removes = role?.permissionMode ? PERMISSION_MODE_RULES[role.permissionMode].removes : [];
  if (role && removes.length > 0) {
    const deny = parentSystem.tools.map((t) => t.name).filter((name) => removes.some((capability) => toolGrants(core.config, name).has(capability)));
    if (deny.length > 0) layers.push({ label: `${roleLabel(role)} with permissionMode ${role.permissionMode}`, deny });
  }
  return layers;
}

/**
 * The subagent's model id: the spawn's model, else the role's, else the parent's, resolved
 * through the runtime's models table (`inherit` is the parent's). An unknown name fails the
 * spawn rather than reaching the model adapter.
 */
function spawnModel(core: RuntimeCore, requested: string | undefined, role: RoleDefinition | undefined, parentModel: string): string {
  const name = requested ?? role?.model;
  if (name === undefined) return parentModel;
  const resolved = resolveModelName(name, core.config.models, parentModel);
  if (resolved.ok) return resolved.model;
  const whose = requested === undefined && role ? `${roleLabel(role)}: ` : '';
  throw new RuntimeError('unknown_model', `${whose}${resolved.reason}`);
}
