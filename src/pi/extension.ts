/**
 * `piSubagents()`: a Pi extension that gives a Pi session this library's subagents.
 *
 * The Pi session is the root agent: Pi runs its loop, and the runtime runs every subagent.
 * The extension registers the library's tools (`Agent`, `send_message`, `list_agents`,
 * `cancel_agent`, `close_agent`) on the session with the library's own schemas; subagents
 * sample the Pi session's model through pi-ai and call the Pi session's tools. A fork's
 * request starts with the Pi session's last request, byte for byte: Pi's system prompt, Pi's
 * tools in Pi's order, and the branch's messages as Pi sent them.
 */
import type { ExtensionAPI, ExtensionContext, ExtensionFactory, ToolDefinition, ToolInfo } from '@earendil-works/pi-coding-agent';
import type { Model, Tool } from '@earendil-works/pi-ai';
import type { InboxItem } from '../../machines/agent.types.js';
import type { ModelTable } from '../policy/model-alias.js';
import type { ToolNameMap } from '../policy/tool-mapping.js';
import { provenanceText } from '../model/ai-sdk-prompt.js';
import { agentToolSchema, FIND_ROLES_TOOL, roleCatalog } from '../request/role-catalog.js';
import { FIND_ROLES_SCHEMA } from '../request/role-search.js';
import { BUILTIN_TOOL_NAMES } from '../request/tool-names.js';
import { BUILTIN_TOOL_SCHEMAS } from '../request/tools.js';
import { ROOT_PATH, childPath } from '../runtime/paths.js';
import { createRuntime } from '../runtime/runtime.js';
import type { CancelReport, Runtime, RuntimeOptions } from '../runtime/types.js';
import { loadPiAgentFiles, type AgentFileProblem, type PiAgentFiles } from './agent-files.js';
import { agentsReport } from './agents-command.js';
import { NOTICE_TYPE, piBranchDialogue, piSessionHead } from './branch.js';
import { modelsSetting, piModelTable, PI_DEFAULT_MODELS } from './model-table.js';
import { agentCallDetails, renderAgentCall, renderAgentResult } from './render.js';
import { PI_TOOL_NAMES } from './tool-names.js';
import { piModelAdapter } from './model.js';
import { piBuiltinTools, piHostTools, type AnyPiToolDefinition } from './tools.js';

/** Runtime options the extension passes through (the rest it derives from the Pi session). */
export type PiRuntimeOptions = Omit<RuntimeOptions, 'model' | 'presets' | 'preset' | 'systemPrompt' | 'tools' | 'roles' | 'hostRoot'>;

/** Options of {@link piSubagents}. */
export interface PiSubagentsOptions {
  /**
   * Folders of agent definitions (roles), most specific first, relative to the session's
   * working directory. Default: `.pi/agents`, then `.claude/agents`.
   */
  readonly agentDirs?: readonly string[];
  /**
   * Implementations of Pi tools beyond Pi's built-ins (tools other extensions register) that
   * subagents may call. Without one, such a tool stays listed, so forks keep Pi's tool list,
   * and calling it from a subagent is a tool error.
   */
  readonly tools?: readonly AnyPiToolDefinition[];
  /** Runtime options: limits, defaults (delivery, lifetime, context), spawn policy, hooks, confirmation. */
  readonly runtime?: PiRuntimeOptions;
  /**
   * Model aliases over {@link PI_DEFAULT_MODELS} (`sonnet` → `anthropic/claude-sonnet-5-5`):
   * alias → `provider/id` or an id of Pi's model registry. The Pi setting `subagents.models`
   * (settings.json) wins over this. Every model of Pi's registry is reachable by its
   * `provider/id` and its id anyway; `inherit` is the delegating agent's model.
   */
  readonly models?: ModelTable;
  /** Called with each runtime the extension creates (one per Pi session), for hosts and tests. */
  readonly onRuntime?: (runtime: Runtime) => void;
  /** Called with the report of the subagents `session_shutdown` stopped. */
  readonly onShutdown?: (report: CancelReport) => void;
}

/** Tools the runtime itself answers for the Pi session (the rest are Pi's). */
const SESSION_TOOL_NAMES: readonly string[] = [...BUILTIN_TOOL_NAMES, FIND_ROLES_TOOL];

/**
 * The model id the runtime gives the Pi session (the root): whatever model the session uses at
 * the time of a request, so subagents that inherit it follow `/model` switches.
 */
export const PI_SESSION_MODEL = 'session';

/** How a message or notice for the Pi session reads: who sent it, in a form its text cannot forge. */
function noticeText(item: InboxItem): string {
  return provenanceText(item.origin, item.text);
}

/** What the extension prepares once per Pi session, at its start. */
interface Prepared {
  readonly files: PiAgentFiles;
  /** The runtime's models table: aliases and Pi's registry, in price order. */
  readonly models: ModelTable;
  readonly toolNames: ToolNameMap;
}

/** One Pi session's runtime, created when the session first uses a subagent tool. */
class PiSession {
  context: ExtensionContext;
  readonly runtime: Runtime;
  private readonly progress = new Set<(path: string, text: string) => void>();

  constructor(
    private readonly pi: ExtensionAPI,
    context: ExtensionContext,
    options: PiSubagentsOptions,
    prepared: Prepared,
  ) {
    this.context = context;
    // Pi's request head as its provider receives it: the replayed system messages of the branch
    // (the session has made a request by the time a subagent tool runs).
    const head = piSessionHead(context.sessionManager.getBranch()) ?? {
      systemPrompt: context.getSystemPrompt(),
      tools: pi.getAllTools().filter((t) => pi.getActiveTools().includes(t.name)) as Tool[],
    };
    const declared = new Map<string, Tool>(head.tools.map((t) => [t.name, t]));
    const order = head.tools.map((t) => t.name);
    const infos = new Map<string, ToolInfo>(pi.getAllTools().map((t) => [t.name, t]));
    const piTools = order
      .filter((name) => !SESSION_TOOL_NAMES.includes(name))
      .map((name) => infos.get(name) ?? (declared.get(name) as unknown as ToolInfo));
    const implementations = new Map(piBuiltinTools(context.cwd));
    for (const tool of options.tools ?? []) implementations.set(tool.name, tool);
    this.runtime = createRuntime({
      ...options.runtime,
      modelId: PI_SESSION_MODEL,
      model: piModelAdapter({
        model: (id) => this.modelOf(id),
        stream: (model, request, streamOptions) => this.context.modelRegistry.streamSimple(model, request, streamOptions),
        sessionId: () => this.context.sessionManager.getSessionId(),
        tool: (name) => declared.get(name),
        thinkingLevel: () => pi.getThinkingLevel(),
      }),
      presets: { pi: { name: 'pi', systemPrompt: head.systemPrompt, tools: order } },
      preset: 'pi',
      tools: piHostTools({
        tools: piTools,
        implementations,
        context: () => this.context,
        onProgress: (path, tool, text) => this.emitProgress(path, `${tool}: ${text}`),
      }),
      models: prepared.models,
      toolNames: prepared.toolNames,
      ...(prepared.files.roles.length > 0 ? { roles: prepared.files.roles } : {}),
      hostRoot: {
        dialogue: () => piBranchDialogue(this.context.sessionManager.getBranch()),
        deliver: (item) =>
          this.pi.sendMessage(
            { customType: NOTICE_TYPE, content: noticeText(item), display: true, details: { kind: item.origin.kind, from: 'from' in item.origin ? item.origin.from : null } },
            { deliverAs: 'followUp', triggerTurn: true },
          ),
      },
    });
    this.runtime.on('change', ({ path, state }) => this.emitProgress(path, state));
    options.onRuntime?.(this.runtime);
  }

  /** The Pi model a request names: the session's current one, or `provider/id` from Pi's registry. */
  private modelOf(id: string): Model<string> | undefined {
    if (id === PI_SESSION_MODEL) return this.context.model;
    const slash = id.indexOf('/');
    return slash < 0 ? undefined : this.context.modelRegistry.find(id.slice(0, slash), id.slice(slash + 1));
  }

  private emitProgress(path: string, text: string): void {
    for (const listener of this.progress) listener(path, text);
  }

  /** Runs one of the library's tools for the Pi session (the root). */
  async call(
    name: string,
    callId: string,
    params: unknown,
    signal: AbortSignal | undefined,
    onUpdate: ((update: { content: { type: 'text'; text: string }[]; details: unknown }) => void) | undefined,
  ): Promise<{ content: string; isError: boolean }> {
    const args = (params ?? {}) as Record<string, unknown>;
    const spawned = name === 'Agent' && typeof args['task_name'] === 'string' ? childPath(ROOT_PATH, args['task_name']) : undefined;
    const liveBefore = spawned !== undefined && this.runtime.stateOf(spawned) !== undefined;
    // Aborting the Pi turn cancels the subagent this call started, and its subtree.
    const abort = (): void => {
      if (spawned !== undefined && !liveBefore && this.runtime.stateOf(spawned) !== undefined) this.runtime.cancel(spawned, 'the Pi turn was aborted');
    };
    signal?.addEventListener('abort', abort, { once: true });
    const listener = (path: string, text: string): void => {
      if (spawned !== undefined && (path === spawned || path.startsWith(`${spawned}/`))) onUpdate?.({ content: [{ type: 'text', text: `${path}: ${text}` }], details: { path, state: text } });
    };
    this.progress.add(listener);
    try {
      return await this.runtime.callTool(ROOT_PATH, { id: callId, name, arguments: args as never }, signal ? { signal } : {});
    } finally {
      this.progress.delete(listener);
      signal?.removeEventListener('abort', abort);
    }
  }

  /** Cancels every subagent of the Pi session (children first). */
  cancelAll(reason: string): CancelReport {
    const stopped = this.runtime
      .list()
      .filter((agent) => agent.path.split('/').length === 3)
      .flatMap((agent) => this.runtime.cancel(agent.path, reason).stopped);
    return { stopped };
  }
}

/** How the start notices read: one per kind, each problem on its own line. */
function notifyProblems(context: ExtensionContext, problems: readonly AgentFileProblem[]): void {
  const errors = problems.filter((p) => p.severity === 'error');
  const warnings = problems.filter((p) => p.severity === 'warning');
  const list = (items: readonly AgentFileProblem[]): string => items.map((p) => `  ${p.message}`).join('\n');
  if (errors.length > 0) {
    context.ui.notify(`subagents: ${errors.length === 1 ? '1 agent file was' : `${errors.length} agent files were`} not loaded (/agents lists every role and problem):\n${list(errors)}`, 'error');
  }
  if (warnings.length > 0) {
    context.ui.notify(`subagents: ${warnings.length === 1 ? '1 warning' : `${warnings.length} warnings`} about agent files (/agents lists them by file):\n${list(warnings)}`, 'warning');
  }
}

/**
 * The Pi extension factory. Load it with `pi -e`, from a Pi package, or in an SDK session's
 * resource loader (`extensionFactories`).
 *
 * @example
 * ```ts
 * // my-extension.ts, run with: pi -e ./my-extension.ts
 * import { piSubagents } from 'subagent-actors/pi';
 * export default piSubagents({ runtime: { limits: { maxDepth: 2 } } });
 * ```
 */
export function piSubagents(options: PiSubagentsOptions = {}): ExtensionFactory {
  return (pi) => {
    let prepared: Promise<Prepared> | undefined;
    let session: Promise<PiSession> | undefined;

    const register = (schema: { readonly name: string; readonly description: string; readonly inputSchema: unknown }): void => {
      const name = schema.name;
      const agent = name === 'Agent';
      pi.registerTool({
        name,
        label: name,
        description: schema.description,
        // The library's JSON Schema, as the runtime sends it for its own agents.
        parameters: schema.inputSchema as ToolDefinition['parameters'],
        async execute(toolCallId, params, signal, onUpdate, context) {
          const s = await open(context);
          const outcome = await s.call(name, toolCallId, params, signal, onUpdate);
          // Pi turns a thrown error into an error result the model reads.
          if (outcome.isError) throw new Error(outcome.content);
          return { content: [{ type: 'text', text: outcome.content }], details: agent ? agentCallDetails(outcome.content) : {} };
        },
        // The TUI shows an Agent call as its role, task and live state, then the result text.
        ...(agent ? { renderCall: renderAgentCall, renderResult: renderAgentResult } : {}),
      });
    };

    /**
     * Prepares the session once: the models table (Pi's registry, the aliases, the
     * `subagents.models` setting), the roles with their problems, and the `Agent` tool's
     * description with the role catalog, so Pi's request head and its forks' stay the same bytes.
     */
    const prepare = (context: ExtensionContext): Promise<Prepared> => {
      prepared ??= (async () => {
        const { table, problems } = piModelTable({
          aliases: [PI_DEFAULT_MODELS, options.runtime?.models, options.models, modelsSetting(pi.getSettings())],
          registry: context.modelRegistry.getAll(),
          available: context.modelRegistry.getAvailable(),
          session: { id: PI_SESSION_MODEL, model: context.model },
        });
        const toolNames: ToolNameMap = { ...PI_TOOL_NAMES, ...options.runtime?.toolNames };
        // The session's active tools are those its subagents can get.
        const active = pi.getActiveTools();
        const sessionTools = pi.getAllTools().filter((t) => active.includes(t.name) && !SESSION_TOOL_NAMES.includes(t.name));
        const tools = piHostTools({ tools: sessionTools, implementations: new Map(), context: () => context });
        const files = await loadPiAgentFiles({
          cwd: context.cwd,
          dirs: options.agentDirs ?? ['.pi/agents', '.claude/agents'],
          tools,
          toolNames,
          models: table,
          modelProblems: problems,
          ...(options.runtime ? { runtime: options.runtime } : {}),
        });
        const limits = options.runtime?.roleCatalog;
        if (files.roles.length > 0 && limits !== false) {
          // The runtime computes the same catalog from the same roles and limits.
          const catalog = roleCatalog(files.roles, limits);
          register(agentToolSchema(catalog.text));
          if (catalog.searchable) register(FIND_ROLES_SCHEMA);
        }
        return { files, models: table, toolNames };
      })();
      return prepared;
    };

    const open = (context: ExtensionContext): Promise<PiSession> => {
      session ??= prepare(context).then((ready) => new PiSession(pi, context, options, ready));
      return session.then((s) => ((s.context = context), s));
    };

    for (const schema of BUILTIN_TOOL_SCHEMAS) register(schema);

    pi.on('session_start', async (_event, context) => {
      notifyProblems(context, (await prepare(context)).files.problems);
    });

    pi.registerCommand('agents', {
      description: 'List the subagent roles, with the problems of each agent file',
      handler: async (_args, context) => {
        const ready = await prepare(context);
        context.ui.notify(agentsReport(ready.files, ready.models, context.cwd), ready.files.problems.some((p) => p.severity === 'error') ? 'warning' : 'info');
      },
    });

    pi.on('agent_end', async (event) => {
      const last = [...event.messages].reverse().find((m) => m.role === 'assistant');
      if (session !== undefined && last?.role === 'assistant' && last.stopReason === 'aborted') (await session).cancelAll('the Pi turn was aborted');
    });

    pi.on('session_shutdown', async () => {
      if (session === undefined) return;
      const s = await session;
      session = undefined;
      options.onShutdown?.(s.runtime.stop('the Pi session shut down'));
    });
  };
}
