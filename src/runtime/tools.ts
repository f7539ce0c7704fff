/**
 * Executes one model tool call for an agent. Never throws: malformed arguments, unknown or
 * filtered tools, refused spawns and failing host tools all become error results the model
 * can read, and nothing is left held.
 */
import type { ToolStepOutcome, ToolInput, ToolOutcome } from '../../machines/agent.types.js';
import { isBuiltinTool, parseToolArguments } from '../request/tools.js';
import { refusedArgumentsText } from '../request/tool-call-admission.js';
import type { RuntimeCore } from './core.js';
import { toolGrants } from './config.js';
import { errorCode, RuntimeError } from './errors.js';
import { firstTurnToolContent } from '../../machines/subagent-reports.js';
import { coordinationCall } from '../../machines/coordination.js';
import { spawnSubagent } from './spawn.js';
import { checkToolCall } from '../policy/tool-permissions.js';
import { errorText } from '../dialogue/error-text.js';
import { PERMISSION_MODE_RULES } from '../policy/permission-mode.js';
import type { RuntimeTool } from './types.js';
import { describeRule, hostCallRule } from './approval-rules.js';
import { askApproval } from './ask-approval.js';
import { SaEvents } from '../otel/attributes.js';


const ok = (content: string): ToolOutcome => ({ content, isError: false });

function failure(error: unknown): ToolOutcome {
  const code = errorCode(error);
  const message = errorText(error);
  return { content: code ? `Error (${code}): ${message}` : `Error: ${message}`, isError: true };
}

/**
 * Who writes a caller-delivered `Agent` call's result: `by-machine` (a step of the agent's own
 * machine, which writes the subagent's first report when it arrives) or `awaited` (the call
 * resolves with it: a host's `callTool`, a host-run root).
 */
export type CallAnswers = 'by-machine' | 'awaited';

/** Runs a tool call; resolves with its outcome, never rejects. */
export async function executeTool(core: RuntimeCore, input: ToolInput, signal: AbortSignal, answers: CallAnswers = 'awaited'): Promise<ToolStepOutcome> {
  // A step's calls start once the transition that invoked them has ended and its observers
  // (the journal among them) have seen the reply: a crash never leaves an effect, such as a
  // spawn or a cancellation, journaled without the call that caused it.
  await Promise.resolve();
  try {
    return await dispatch(core, input, signal, answers);
  } catch (error) {
    return failure(error);
  }
}

async function dispatch(core: RuntimeCore, { path, call }: ToolInput, signal: AbortSignal, answers: CallAnswers): Promise<ToolStepOutcome> {
  // Arguments refused when the reply arrived: nothing runs and nothing is reserved.
  if (call.argumentsError !== undefined) throw new RuntimeError('invalid_arguments', refusedArgumentsText(call));
  // Filters are enforced here, not only in the schemas the model saw.
  const system = core.directory.contextOf(path).input.system;
  if (!system.tools.some((t) => t.name === call.name)) {
    const known = core.config.heads.root().tools.map((t) => t.name);
    if (!known.includes(call.name)) {
      throw new RuntimeError('unknown_tool', `there is no tool named "${call.name}"; available tools: ${system.tools.map((t) => t.name).join(', ')}`);
    }
    throw new RuntimeError('tool_not_allowed', `tool "${call.name}" is not available to ${path}; available tools: ${system.tools.map((t) => t.name).join(', ')}`);
  }
  if (!isBuiltinTool(call.name)) return runHostTool(core, path, call.id, call.name, call.arguments, signal);

  const parsed = parseToolArguments(call.name, call.arguments, { budget: core.budgets.enabled });
  if (!parsed.ok) throw new RuntimeError('invalid_arguments', parsed.error.message);
  switch (parsed.tool) {
    case 'Agent': {
      const { attachments, ...rest } = parsed.args;
      const handle = await spawnSubagent(
        core,
        path,
        { ...rest, ...(attachments ? { attachments } : {}) },
        { triggeringCallId: call.id, signal },
      );
      if (handle.delivery === 'parent') {
        return ok(core.receiptOf(handle.path, handle.lifetime));
      }
      // The parent's machine writes the subagent's first report as this call's result; a
      // host-run root's call (the host's own loop) awaits it here instead.
      if (answers === 'by-machine' && !core.router.hostRuns(path)) return { answeredBy: handle.path };
      const report = await handle.firstReport;
      if (report.kind === 'result') return core.presenter.callResult(report);
      return ok(firstTurnToolContent({ path: handle.path, text: report.text, turn: report.turn }));
    }
    default:
      // The other coordination tools are the machine's own, as in every host.
      return coordinationCall(core.coordination, path, call.id, parsed);
  }
}

async function runHostTool(core: RuntimeCore, path: string, callId: string, name: string, args: unknown, signal: AbortSignal): Promise<ToolOutcome> {
  const tool = core.config.hostTools.get(name);
  if (!tool) throw new RuntimeError('unknown_tool', `there is no tool named "${name}"`);
  const parsing = tool.parse(args);
  // Only a schema that validates asynchronously costs an asynchronous step here.
  const parsed = parsing instanceof Promise ? await parsing : parsing;
  if (!parsed.ok) throw new RuntimeError('invalid_arguments', parsed.error.message);
  // Permission patterns (`Bash(git diff *)`) are checked here, on what this call would do.
  const verdict = checkToolCall(core.registry.get(path)?.permissions ?? [], { tool: name, args: parsed.args, matcher: tool.permission, anchors: core.config.anchors });
  if (!verdict.ok) throw new RuntimeError('tool_not_allowed', verdict.reason);
  // Only a call that needs approval costs an asynchronous step (results keep their order).
  if ((tool.needsApproval !== undefined && tool.needsApproval !== false) || core.config.approvalRules !== undefined) await approve(core, tool, path, name, parsed.args, callId, signal);
  // At most once across a crash: a call that must not run twice runs only once the journal
  // holds it (a resume then answers it as interrupted instead of asking the model again), and
  // only while this runtime still holds the session (a node that lost its lease runs nothing).
  if (core.journal && !(core.config.idempotentTools ?? []).includes(name)) {
    await core.journal.beforeEffect();
    core.lifecycle.assertRunning();
    signal.throwIfAborted();
  }
  const grants = core.registry.get(path)?.grants;
  const output = await tool.execute(parsed.args, {
    path,
    signal,
    callId,
    externalDirectories: grants?.externalDirectories ?? [],
    inheritsExtensions: grants?.inheritsExtensions ?? true,
  });
  return typeof output === 'string' ? ok(output) : { content: output.content, isError: output.isError ?? false };
}

/**
 * Asks the host to approve a call when a rule says so (the tool's `needsApproval`, the host's
 * `approvalRules`); throws a RuntimeError the model reads, naming the rule, when the host
 * denies it or nobody can answer. An abort while waiting withdraws the request and rejects
 * at once (the call's step was stopped, so nothing is written).
 */
async function approve(core: RuntimeCore, tool: RuntimeTool, path: string, name: string, args: unknown, callId: string, signal: AbortSignal): Promise<void> {
  if (tool.needsApproval === undefined || tool.needsApproval === false) {
    if (core.config.approvalRules === undefined) return;
  }
  const rule = await hostCallRule({ tool, name, args, path, rules: core.config.approvalRules, grants: toolGrants(core.config, name), anchors: core.config.anchors, signal });
  if (!rule) return;
  // A role's permissionMode decides whether its calls are asked at all.
  const mode = core.registry.get(path)?.permissionMode;
  const treatment = mode === undefined ? 'as_declared' : PERMISSION_MODE_RULES[mode].callApproval;
  if (treatment === 'skip' || (treatment === 'skip_write' && (tool.capabilities ?? []).includes('write'))) return;
  if (treatment === 'refuse') core.trace?.event(path, SaEvents.approval, { tool: name, approved: false, reason: `permissionMode ${mode}` }, callId);
  if (treatment === 'refuse') throw new RuntimeError('approval_denied', `${name} needs approval (${describeRule(rule)}), and permissionMode ${mode} refuses instead of asking`);
  await askApproval(core, { path, toolName: name, args, rule, callId }, signal);
}
