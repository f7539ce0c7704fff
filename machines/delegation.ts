/**
 * The agent machine with delegation built in, for a harness that brings only a model function
 * and its own tools. The machine's tool step handles the coordination tools itself: `Agent`
 * spawns a subagent (a child actor of the calling agent, with a frozen snapshot of the context
 * the model chose) whose first report becomes the call's result; `send_message` goes out as the
 * typed event; `cancel_agent`, `close_agent` and `list_agents` act on the agent's own subtree.
 * Everything else runs the harness's tools.
 */
import { fromPromise, type AnyActorRef } from 'xstate';
import { parseContextSpec, contextModeOf } from '../src/context/parse.js';
import { selectSnapshot } from '../src/context/select.js';
import type { ContextSpec } from '../src/context/types.js';
import type { JsonValue, ToolCall } from '../src/dialogue/entry.js';
import { errorText } from '../src/dialogue/error-text.js';
import type { ModelResponse, SummaryResult } from '../src/request/reply.js';
import { BUILTIN_TOOL_SCHEMAS, isBuiltinTool, parseToolArguments, type AgentArgs } from '../src/request/tools.js';
import { admitToolCall, refusedArgumentsText } from '../src/request/tool-call-admission.js';
import { DEFAULT_INPUT_LIMITS } from '../src/request/input-limits.js';
import type { JsonObject, ToolSchema } from '../src/request/types.js';
import { ZERO_USAGE } from '../src/request/usage.js';
import { defaultLifetime, type Lifetime } from '../src/request/lifetime.js';
import { agentMachine } from './agent.machine.js';
import { agentInput, createAgentInput, taskFraming, type AgentInputOptions } from './agent.input.js';
import type { AgentContext, AgentInput, SampleInput, SampleOutput, SummaryActorInput, ToolInput, ToolOutcome, ToolStepOutcome } from './agent.types.js';
import { releaseSubagent, subagentOf } from './subagents.js';
import { EndedAgents } from './ended-agents.js';
import { actorTreePort } from './actor-tree-port.js';
import { coordinationCall } from './coordination.js';
import { toolStepLogic, type ToolStepScope } from './tool-step.js';
import { DelegationTracer } from './delegation-trace.js';
import type { DelegatingTelemetryOptions } from '../src/otel/types.js';
import type { RuntimeTool } from '../src/policy/runtime-tool.js';
import { outcomeCode, traceAgentEnd, traceChatEnd, traceChatStart } from './agent-trace.js';
import { AgentSessionIds } from './agent-session-ids.js';
import { treeServiceOf } from './tree-service.js';

/** The system id of a `delegatingAgent` tree's session id issuer (no agent path starts this way). */
const SESSION_IDS_ID = 'subagent-actors:session-ids';
/** The system id of a `delegatingAgent` tree's record of how its subagents ended. */
const ENDED_ID = 'subagent-actors:ended';

/** The record of how the subagents of `agent`'s tree ended. */
const endingsIn = (agent: AnyActorRef): EndedAgents => treeServiceOf(agent, ENDED_ID, () => new EndedAgents());

/** One model request: the agent's head and dialogue in, its reply out. Abort when `signal` aborts. */
export type ModelFunction = (request: SampleInput, signal: AbortSignal) => ModelResponse | Promise<ModelResponse>;

/** What a harness tool's `execute` gets besides its arguments. */
export interface HarnessToolContext {
  /** The calling agent's path. */
  readonly path: string;
  readonly callId: string;
  /** Aborts when the call's step is stopped (the agent was cancelled or its turn interrupted). */
  readonly signal: AbortSignal;
}

/**
 * A harness tool in the older, delegatingAgent-only form: a bare JSON Schema as `inputSchema`
 * and arguments that are not validated.
 *
 * @deprecated Define the tool once with `defineRuntimeTool` (main entry), as for `createRuntime`:
 * the same `RuntimeTool` runs under both hosts, its arguments validated against its schema.
 * Kept because earlier READMEs showed this form; see CHANGELOG.md.
 */
export interface HarnessTool {
  readonly name: string;
  readonly description: string;
  /** JSON Schema of the arguments (an object schema). */
  readonly inputSchema: JsonObject;
  /** Runs one call; a string is a successful result, a thrown error an error result. */
  execute(args: JsonValue, context: HarnessToolContext): string | ToolOutcome | Promise<string | ToolOutcome>;
}

/** The options of {@link delegatingAgent}. */
export interface DelegatingAgentOptions {
  readonly model: ModelFunction;
  /**
   * The harness's own tools (default none), built with `defineRuntimeTool` as for
   * `createRuntime`: each call's arguments are validated against the tool's schema first, and
   * a tool that needs approval is refused (this host has no approver). Names must not be
   * those of the coordination tools.
   */
  readonly tools?: readonly (RuntimeTool | HarnessTool)[];
  /**
   * Writes the background of a `context: "summary"` spawn from the parent's snapshot. Without
   * it, the model is told that `summary` is not available here.
   */
  readonly summarize?: (input: SummaryActorInput, signal: AbortSignal) => SummaryResult | Promise<SummaryResult>;
  /**
   * What the harness chose for every subagent, as `createRuntime`'s `defaults`. Without a
   * `lifetime`, forks (`context: "all"` or N turns) are continuable and every other subagent
   * is one-shot; `{ lifetime: 'one-shot' }` makes forks one-shot too.
   */
  readonly defaults?: { readonly lifetime?: Lifetime };
  /**
   * OpenTelemetry traces of each root's tree, as `createRuntime`'s `telemetry` (needs the
   * optional peer `@opentelemetry/api`); `provider` names what the model function calls.
   *
   * @example
   * ```ts
   * delegatingAgent({ model, telemetry: { tracer: trace.getTracer('my-harness'), provider: 'anthropic' } });
   * ```
   */
  readonly telemetry?: DelegatingTelemetryOptions;
}

/** An agent machine with delegation, and the inputs its roots start with. */
export interface DelegatingAgent {
  /** The agent machine with the model, the tools and the coordination tools provided. */
  readonly logic: typeof agentMachine;
  /**
   * A root agent's input: `createAgentInput` options; the tools the model sees (the
   * coordination tools, then the harness's) are filled in.
   */
  input(options: Omit<AgentInputOptions, 'tools'>): AgentInput;
}

/** Thrown by {@link delegatingAgent} for options it cannot run with. */
export class DelegatingAgentError extends Error {
  override readonly name = 'DelegatingAgentError';
  readonly code = 'invalid_delegating_agent' as const;
}

/**
 * Builds the agent machine for a harness that provides only a model function and its tools.
 * A root started with `input(...)` can delegate with the `Agent` tool: each subagent is a child
 * actor of its caller, starts with the context the model chose, and reports exactly once (the
 * `Agent` call's result). Cancelling or stopping an agent cancels its subtree, children first.
 *
 * @example
 * ```ts
 * const agents = delegatingAgent({ model: (request, signal) => callMyModel(request, signal), tools: [readFileTool] });
 * const root = createActor(agents.logic, { input: agents.input({ task: 'Summarize the changelog', model: 'my-model' }) }).start();
 * const result = await toPromise(root);
 * ```
 */
export function delegatingAgent(options: DelegatingAgentOptions): DelegatingAgent {
  if (typeof options !== 'object' || options === null) throw new DelegatingAgentError('delegatingAgent: options must be an object such as { model, tools }');
  if (typeof options.model !== 'function') throw new DelegatingAgentError('delegatingAgent: model must be a function (request, signal) => reply');
  if (options.summarize !== undefined && typeof options.summarize !== 'function') throw new DelegatingAgentError('delegatingAgent: summarize must be a function');
  const lifetime = options.defaults?.lifetime;
  if (lifetime !== undefined && lifetime !== 'one-shot' && lifetime !== 'continuable') {
    throw new DelegatingAgentError(`delegatingAgent: defaults.lifetime must be "one-shot" or "continuable" (got ${errorText(lifetime)})`);
  }
  const tools = new Map<string, RunnableTool>();
  for (const tool of options.tools ?? []) {
    const defined = typeof tool === 'object' && tool !== null && 'parse' in tool && typeof tool.parse === 'function' && typeof tool.schema === 'object';
    const bare = typeof tool === 'object' && tool !== null && 'inputSchema' in tool && typeof tool.inputSchema === 'object' && tool.inputSchema !== null;
    if (typeof tool !== 'object' || tool === null || typeof tool.name !== 'string' || typeof tool.execute !== 'function' || !(defined || bare)) {
      throw new DelegatingAgentError(`delegatingAgent: each tool needs a name, a description, a schema and an execute function, as defineRuntimeTool builds it (got ${errorText(tool)})`);
    }
    if (isBuiltinTool(tool.name)) throw new DelegatingAgentError(`delegatingAgent: "${tool.name}" is a coordination tool the machine provides; name your tool differently`);
    if (tools.has(tool.name)) throw new DelegatingAgentError(`delegatingAgent: two tools are named "${tool.name}"`);
    tools.set(tool.name, runnable(tool));
  }
  const schemas: readonly ToolSchema[] = [...BUILTIN_TOOL_SCHEMAS, ...[...tools.values()].map((t) => t.schema)];
  const summarize = options.summarize;
  let tracer: DelegationTracer | undefined;
  try {
    tracer = options.telemetry === undefined ? undefined : new DelegationTracer(options.telemetry);
  } catch (error) {
    throw new DelegatingAgentError(`delegatingAgent: ${errorText(error)}`);
  }
  // One issuer per tree, held in the tree's system: its root holds count 0 (its id is the harness's).
  const sessionIdIn = (agent: AnyActorRef, treeId: string): string => treeServiceOf(agent, SESSION_IDS_ID, () => new AgentSessionIds(treeId, 1)).issue();
  const choices: SpawnChoices = { hasSummaries: summarize !== undefined, lifetime, tracer, sessionIdIn };
  const untraced = agentMachine.provide({
    actors: {
      sampleModel: fromPromise<SampleOutput, SampleInput>(async ({ input, signal }) => ({
        response: checkedReply(await options.model(input, signal)),
        compaction: undefined,
      })),
      runToolCalls: toolStepLogic((call, signal, step) => runCall(call, signal, step, tools, choices)),
      ...(summarize ? { generateSummary: fromPromise<SummaryResult, SummaryActorInput>(async ({ input, signal }) => summarize(input, signal)) } : {}),
    },
    actions: {
      // A settling subagent leaves its parent's set, and its tree remembers how it ended: a
      // later message, close or cancel aimed at it is told so, as createRuntime tells it.
      leaveParent: ({ self, context }) => {
        releaseSubagent(self, context.input.path);
        if (context.result && context.input.parentPath !== null) endingsIn(self).record(context.input.path, context.result);
      },
    },
  });
  const logic = tracer ? traced(untraced, tracer, options, tools, choices) : untraced;
  return {
    logic,
    input: (inputOptions) => createAgentInput({ ...inputOptions, tools: schemas }),
  };
}

/** A model reply the dialogue can hold, or an error naming what is wrong with it (a `model_error`). */
function checkedReply(reply: unknown): ModelResponse {
  const r = reply as Partial<ModelResponse> | null | undefined;
  if (typeof r !== 'object' || r === null) throw new Error(`the model function returned ${errorText(reply)} instead of { text, toolCalls }`);
  const text = r.text ?? '';
  const toolCalls = r.toolCalls ?? [];
  if (typeof text !== 'string') throw new Error('the model reply\'s text must be a string');
  if (!Array.isArray(toolCalls)) throw new Error('the model reply\'s toolCalls must be an array');
  for (const call of toolCalls as readonly unknown[]) {
    const c = call as { id?: unknown; name?: unknown } | null;
    if (typeof c !== 'object' || c === null || typeof c.id !== 'string' || c.id === '' || typeof c.name !== 'string' || c.name === '') {
      throw new Error(`each tool call needs a non-empty id and name (got ${errorText(call)})`);
    }
  }
  // Arguments that are not plain JSON within the default limits are refused per call, here, once.
  const admitted = (toolCalls as readonly ToolCall[]).map((call) => admitToolCall(call, DEFAULT_INPUT_LIMITS));
  return { ...r, text, toolCalls: admitted, usage: r.usage ?? ZERO_USAGE } as ModelResponse;
}

const refuse = (code: string, message: string): ToolOutcome => ({ content: `Error (${code}): ${message}`, isError: true });

/** A harness's tool as the step runs it, whichever form the harness gave. */
interface RunnableTool {
  readonly schema: ToolSchema;
  run(args: JsonValue, context: HarnessToolContext): Promise<ToolOutcome>;
}

function runnable(tool: RuntimeTool | HarnessTool): RunnableTool {
  if ('parse' in tool && typeof tool.parse === 'function') {
    const defined = tool;
    return {
      schema: defined.schema,
      async run(args, context) {
        const parsed = await defined.parse(args);
        if (!parsed.ok) return refuse('invalid_arguments', parsed.error.message);
        const needs = defined.needsApproval;
        // As under createRuntime without an approver: a call that needs approval does not run.
        if (needs === true || (typeof needs === 'function' && (await needs(parsed.args, { path: context.path })))) {
          return refuse('approval_denied', `${defined.name} needs the host's approval (the tool needs approval) and no approver is configured`);
        }
        const output = await defined.execute(parsed.args, { ...context, externalDirectories: [], inheritsExtensions: true });
        return typeof output === 'string' ? { content: output, isError: false } : { content: output.content, isError: output.isError ?? false };
      },
    };
  }
  const bare = tool as HarnessTool;
  return {
    schema: { name: bare.name, description: bare.description, inputSchema: bare.inputSchema },
    async run(args, context) {
      const output = await bare.execute(args, context);
      return typeof output === 'string' ? { content: output, isError: false } : output;
    },
  };
}

/** Runs one call of a step: a coordination tool here, any other the harness's. */
/** What a harness chose for its spawns (and its tracer, when it traces). */
interface SpawnChoices {
  readonly hasSummaries: boolean;
  readonly lifetime: Lifetime | undefined;
  readonly tracer: DelegationTracer | undefined;
  /** A new subagent's own session id, issued in spawn order across its tree (as `createRuntime` does). */
  readonly sessionIdIn: (agent: AnyActorRef, treeId: string) => string;
}

/**
 * The machine with tracing: the same actors, each reporting to the tree's span builder, and
 * the machine's host hooks (adopt, settle, turn, call answered) opening and closing spans.
 */
function traced(logic: typeof agentMachine, tracer: DelegationTracer, options: DelegatingAgentOptions, tools: ReadonlyMap<string, RunnableTool>, choices: SpawnChoices): typeof agentMachine {
  const summarize = options.summarize;
  return logic.provide({
    actors: {
      sampleModel: fromPromise<SampleOutput, SampleInput>(async ({ input, signal, self }) => {
        const trace = tracer.at(self, input.path);
        traceChatStart(trace, { path: input.path, model: input.model, provider: tracer.provider, turn: input.turn, step: input.step }, () => ({ system: input.system.systemPrompt, entries: input.dialogue.effective() }));
        let response: ModelResponse;
        try {
          response = checkedReply(await trace.inChat(input.path, () => options.model(input, signal)));
        } catch (error) {
          trace.chatEnded(input.path, { errorCode: signal.aborted ? 'cancelled' : 'model_error', errorMessage: errorText(error) });
          throw error;
        }
        traceChatEnd(trace, input.path, response);
        return { response, compaction: undefined };
      }),
      runToolCalls: toolStepLogic(async (call, signal, step) => {
        const trace = tracer.at(step.agent, call.path);
        const { path } = call;
        const id = call.call.id;
        trace.toolStarted({ path, callId: id, toolName: call.call.name, args: call.call.arguments });
        const stopped = (): void => trace.toolEnded(path, id, { content: 'cancelled', isError: true, cancelled: true, errorCode: 'cancelled' });
        signal.addEventListener('abort', stopped, { once: true });
        try {
          const outcome = await runCall(call, signal, step, tools, choices);
          // An Agent call a subagent answers ends when the machine writes its answer.
          if (!('answeredBy' in outcome)) trace.toolEnded(path, id, { ...outcome, cancelled: false, errorCode: outcome.isError ? outcomeCode(outcome.content, false) : undefined });
          return outcome;
        } catch (error) {
          trace.toolEnded(path, id, { content: errorText(error), isError: true, cancelled: false, errorCode: 'tool_error' });
          throw error;
        } finally {
          signal.removeEventListener('abort', stopped);
        }
      }),
      ...(summarize
        ? {
            generateSummary: fromPromise<SummaryResult, SummaryActorInput>(async ({ input, signal, self }) => {
              const summary = await summarize(input, signal);
              tracer.summarized(self, input.path, summary.text.length);
              return summary;
            }),
          }
        : {}),
    },
    actions: {
      publishInDirectory: ({ context, self }) => void tracer.at(self, context.input.path, context.input),
      adoptSubagent: ({ self }, { path }) => tracer.adopted(self, subagentOf(self, path)),
      releaseAndReport: ({ context, self }, { result }) => traceAgentEnd(tracer.at(self, result.path, context.input), result),
      reportTurn: ({ self }, { report }) => tracer.at(self, report.path).turnEnded(report.path, report.turn, report.status, report.stopReason),
      noteCallAnswered: ({ context, self }, answer) =>
        tracer.at(self, context.input.path).toolEnded(context.input.path, answer.callId, { content: answer.content, isError: answer.isError, cancelled: false, errorCode: answer.isError ? outcomeCode(answer.content, false) : undefined }),
    },
  });
}

async function runCall(input: ToolInput, signal: AbortSignal, step: ToolStepScope, tools: ReadonlyMap<string, RunnableTool>, choices: SpawnChoices): Promise<ToolStepOutcome> {
  // A microtask later, as the runtime's calls start: the agent has taken the reply by then,
  // so a subagent spawned by an earlier call of the step exists for the later ones.
  await Promise.resolve();
  const { path, call } = input;
  const agent = step.agent;
  if (call.argumentsError !== undefined) return refuse('invalid_arguments', refusedArgumentsText(call));
  if (!isBuiltinTool(call.name)) {
    const tool = tools.get(call.name);
    if (!tool) return refuse('unknown_tool', `there is no tool named "${call.name}"; available tools: ${[...BUILTIN_TOOL_SCHEMAS.map((t) => t.name), ...tools.keys()].join(', ')}`);
    return tool.run(call.arguments as JsonValue, { path, callId: call.id, signal });
  }
  const parsed = parseToolArguments(call.name, call.arguments);
  if (!parsed.ok) return refuse('invalid_arguments', parsed.error.message);
  switch (parsed.tool) {
    case 'Agent':
      return spawn(agent, step, call.id, parsed.args, choices);
    default: {
      const tracer = choices.tracer;
      const endings = endingsIn(agent);
      const port = actorTreePort(agent, step.send, tracer ? { endings, beforeCancel: (target, stopped) => tracer.cancelling(agent, { path, callId: call.id }, target, stopped) } : { endings });
      return coordinationCall(port, path, call.id, parsed);
    }
  }
}

/**
 * Starts a subagent for an `Agent` call: a frozen snapshot of the caller's dialogue as the
 * model chose it, the caller's head (so its prompt cache carries over), answering this call
 * (a fork continuable unless the harness chose otherwise). The agent creates and starts it as its own child.
 */
function spawn(agent: AnyActorRef, step: ToolStepScope, callId: string, args: AgentArgs, choices: SpawnChoices): ToolStepOutcome {
  const parent = (agent.getSnapshot() as { context: AgentContext }).context;
  const parentPath = parent.input.path;
  const path = `${parentPath}/${args.task_name}`;
  const sibling = actorTreePort(agent, step.send).entry(path);
  // The runtime's words for the same refusal (its registry holds reserved paths the same way).
  if (sibling) return refuse('name_taken', `task_name "${args.task_name}" is already used by a ${sibling.addressable ? 'live' : 'starting'} subagent (${path}); choose another name`);
  if (agent.system.get(path) !== undefined) return refuse('name_taken', `task_name "${args.task_name}" is still used by a subagent that is stopping (${path}); choose another name`);
  let spec: ContextSpec;
  try {
    spec = args.context === undefined ? 'none' : parseContextSpec(args.context);
  } catch (error) {
    return refuse('invalid_context', errorText(error));
  }
  if (spec === 'summary' && !choices.hasSummaries) return refuse('invalid_context', 'context "summary" is not available in this harness; use "none", "all" or a number of turns');
  const mode = contextModeOf(spec);
  const input: AgentInput = agentInput({
    path,
    sessionId: choices.sessionIdIn(agent, parent.input.treeId),
    treeId: parent.input.treeId,
    role: args.role,
    task: args.message,
    snapshot: selectSnapshot(parent.dialogue, spec, { triggeringCallId: callId }),
    framing: taskFraming(mode, parentPath, { attachments: args.attachments }),
    system: parent.input.system,
    model: args.model ?? parent.input.model,
    effort: args.effort ?? parent.input.effort,
    lifetime: choices.lifetime ?? defaultLifetime(mode),
    delivery: 'caller',
    maxSteps: parent.input.maxSteps,
    hasTaskHooks: false,
    startedAt: Date.now(),
  });
  step.send({ type: 'subagent.spawn', input });
  // Started while the agent took the event: one that failed at once has already reported.
  return { answeredBy: path };
}
