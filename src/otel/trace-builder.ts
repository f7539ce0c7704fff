/**
 * Builds the agent tree's OpenTelemetry spans from the facts the runtime reports: one
 * `invoke_agent {name}` span per agent (reservation to settlement), its later turns as child
 * spans, a `chat {model}` span per model request and an `execute_tool {tool}` span per tool
 * call. A subagent's span is a child of the `execute_tool Agent` span that spawned it.
 *
 * The API module is handed in (see `loadOtelApi`), so nothing here loads `@opentelemetry/api`:
 * only hosts that trace need it installed.
 */
import type * as OtelApiModule from '@opentelemetry/api';
import type { AttributeValue, Attributes, Context, Link, Span, SpanContext, SpanOptions, Tracer } from '@opentelemetry/api';
import { GenAi, Sa, SaEvents } from './attributes.js';
import { ChainedContext } from './chained-context.js';
import type { AgentEnd, AgentStart, ChatEnd, ChatRetry, ChatStart, EventAttributes, SpanRef, TelemetryOptions, ToolEnd, ToolStart, TracerLike } from './types.js';

/**
 * What the builder uses of `@opentelemetry/api` (the module itself fits). Typed structurally,
 * so this entry's declarations do not need the package to type-check.
 */
export interface OtelApi {
  readonly trace: {
    getTracer(name: string): TracerLike;
    setSpan(context: object, span: object): object;
    setSpanContext(context: object, spanContext: SpanRef & { readonly isRemote?: boolean }): object;
  };
  readonly context: { with(context: object, fn: () => unknown): unknown };
  readonly ROOT_CONTEXT: object;
}

/** The API as the implementation uses it. */
type Api = Pick<typeof OtelApiModule, 'trace' | 'context' | 'ROOT_CONTEXT'>;

// The API's enum values (stable in 1.x), so no value import of the package is needed here.
const SPAN_KIND_INTERNAL = 0;
const SPAN_KIND_CLIENT = 2;
const STATUS_ERROR = 2;
/** The key of the probe context's one value. */
const PROBE = Symbol('subagent-actors context probe');

/**
 * A span's attributes under the names of attributes.ts. The hot paths write the names as
 * literal keys (an object literal V8 builds from one template, not property by property);
 * this type rejects any key that is not one of those names.
 */
type SpanAttributes = { [K in (typeof GenAi)[keyof typeof GenAi] | (typeof Sa)[keyof typeof Sa]]?: AttributeValue };

/** The name the tracer is taken under from the global provider. */
export const TRACER_NAME = 'subagent-actors';

/** An open span, and the context it is active in (made when first needed: most spans parent nothing). */
interface Open {
  readonly span: Span;
  /** The context the span was started in. */
  readonly parent: Context;
  context: Context | undefined;
}

/** One agent's open spans. */
interface AgentSpans extends Open {
  readonly name: string;
  readonly start: AgentStart;
  /** The span of the turn being run, for turns after the first. */
  turn: (Open & { readonly number: number }) | undefined;
  /** Tool calls running, by call id (made at its first call: most agents of a wide tree call none). */
  tools: Map<string, Open> | undefined;
  /** Links for the next span opened under this agent (results delivered as inbox notices), when any. */
  pendingLinks: Link[] | undefined;
  /** Whether it has reported to its parent (a turn or its result) before. */
  reported: boolean;
}

/** Turns the runtime's facts into spans. One per runtime. */
export class TraceBuilder {
  private readonly tracer: Tracer;
  private readonly api: Api;
  /** The root context as the first link of the builder's context chains (see chained-context.ts). */
  private readonly root: Context;
  /** A context of its own, to see whether a context manager is registered (it is then active inside `with`). */
  private probe: Context | undefined;
  /** Reads the active context (one function for every probe, not a closure per request). */
  private readonly activeContext = (): Context => this.api.context.active();
  readonly recordContent: boolean;
  private readonly agents = new Map<string, AgentSpans>();
  /** Requests in flight, by agent path (an agent sends one at a time). */
  private readonly chats = new Map<string, Open>();
  /**
   * Requests that started before their agent's span was opened (a host whose hooks tell it of
   * the agent a moment after its first request went out), with when they started.
   */
  private readonly early = new Map<string, { readonly start: ChatStart; readonly at: number }>();
  /** `chat {model}` and `execute_tool {tool}` span names, built once per model or tool rather than per span. */
  private readonly names = { chat: new Map<string, string>(), execute_tool: new Map<string, string>() };

  constructor(api: OtelApi, options: TelemetryOptions) {
    this.api = api as unknown as Api;
    this.tracer = (options.tracer ?? this.api.trace.getTracer(TRACER_NAME)) as Tracer;
    this.root = ChainedContext.over(this.api.ROOT_CONTEXT);
    this.recordContent = options.recordContent === true;
  }

  /** Opens an agent's `invoke_agent` span; returns its identity, for the journal. */
  agentStarted(start: AgentStart): SpanRef {
    const parent = start.parentPath === null ? undefined : this.agents.get(start.parentPath);
    const spawner = parent && start.callId !== undefined ? parent.tools?.get(start.callId) : undefined;
    let parentContext = spawner ? this.contextOf(spawner) : parent ? this.contextOf(this.innermost(parent)) : this.root;
    let links: Link[] | undefined;
    if (start.previous) {
      links = [{ context: this.spanContextOf(start.previous), attributes: { [Sa.resumed]: true } }];
      // A resumed root continues its trace under the span it had; a subagent under its parent's.
      if (!parent) parentContext = this.api.trace.setSpanContext(this.root, this.spanContextOf(start.previous));
    }
    const name = start.name;
    const attributes: SpanAttributes = {
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.id': start.path,
      'gen_ai.agent.name': name,
      'gen_ai.conversation.id': start.sessionId,
      'subagent_actors.context.mode': start.contextMode,
      'subagent_actors.delivery': start.delivery,
      'subagent_actors.lifetime': start.lifetime,
    };
    // What every span of the tree shares (the tree's id, the model unless a chat says otherwise) is on the root's.
    if (start.parentPath === null) {
      attributes[Sa.treeId] = start.treeId;
      attributes[GenAi.requestModel] = start.model;
    } else {
      attributes[Sa.parentAgentId] = start.parentPath;
    }
    // The context value, where it says more than the mode (`3` for the mode `turns`).
    if (start.context !== start.contextMode) attributes[Sa.context] = start.context;
    if (start.role !== undefined) attributes[Sa.role] = start.role;
    if (start.previous) attributes[Sa.resumed] = true;
    if (this.recordContent && typeof start.task === 'string') attributes[GenAi.inputMessages] = JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: start.task }] }]);
    const early = this.early.size === 0 ? undefined : this.early.get(start.path);
    if (early) this.early.delete(start.path);
    const options: SpanOptions = { kind: SPAN_KIND_INTERNAL, attributes };
    if (links) options.links = links;
    if (early) options.startTime = early.at;
    const span = this.tracer.startSpan(`invoke_agent ${name}`, options, parentContext);
    this.agents.set(start.path, { span, parent: parentContext, context: undefined, name, start, turn: undefined, tools: undefined, pendingLinks: undefined, reported: start.previous !== undefined });
    if (early) this.chatStarted(early.start, early.at);
    return refOf(span.spanContext());
  }

  /** Closes an agent's spans (its open turn, calls and requests first). */
  agentEnded(path: string, end: AgentEnd): void {
    const agent = this.agents.get(path);
    if (!agent) return;
    this.reported(agent);
    this.agents.delete(path);
    const cutShort = end.status === 'cancelled' ? 'cancelled' : end.stopReason;
    if (this.chats.has(path) || this.early.has(path)) this.chatEnded(path, { errorCode: cutShort });
    // A call still running when its agent ends was cut short with it, as its request was.
    if (agent.tools) for (const [, tool] of agent.tools) this.endTool(tool.span, { content: cutShort, isError: true, cancelled: end.status === 'cancelled', errorCode: cutShort });
    agent.tools = undefined;
    if (agent.turn) {
      setOutcome(agent.turn.span, end);
      agent.turn.span.end();
      agent.turn = undefined;
    }
    agent.span.setAttribute(Sa.status, end.status);
    if (end.stopReason !== end.status) agent.span.setAttribute(Sa.stopReason, end.stopReason);
    setOutcome(agent.span, end);
    agent.span.end();
  }

  /**
   * A model request of turn `turn` starts. Turns after the first are child spans of the
   * agent's span (opened here, at their first request). An agent has one request in flight.
   */
  chatStarted(start: ChatStart, startTime?: number): void {
    const agent = this.agents.get(start.path);
    if (!agent) {
      this.early.set(start.path, { start, at: Date.now() });
      return;
    }
    const under = this.turnSpan(agent, start.turn);
    const attributes: SpanAttributes = {
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': start.provider,
      'gen_ai.request.model': start.model,
      'gen_ai.conversation.id': agent.start.sessionId,
    };
    if (this.recordContent && start.content) {
      const content = start.content();
      if (content.system !== undefined) attributes[GenAi.systemInstructions] = JSON.stringify([{ type: 'text', content: content.system }]);
      attributes[GenAi.inputMessages] = JSON.stringify(content.messages);
    }
    const links = agent.pendingLinks;
    agent.pendingLinks = undefined;
    const parent = this.contextOf(under);
    const options: SpanOptions = { kind: SPAN_KIND_CLIENT, attributes };
    if (links) options.links = links;
    if (startTime !== undefined) options.startTime = startTime;
    const span = this.tracer.startSpan(this.nameOf('chat', start.model), options, parent);
    this.chats.get(start.path)?.span.end();
    this.chats.set(start.path, { span, parent, context: undefined });
  }

  /**
   * An attempt failed and will be retried: an event on the agent's `chat` span, or on its own
   * span for a summary's request.
   */
  chatRetried(path: string, retry: ChatRetry): void {
    const agent = this.agents.get(path);
    if (!agent) return;
    (this.chats.get(path) ?? this.innermost(agent)).span.addEvent(SaEvents.retry, compact({ attempt: retry.attempt, 'delay_ms': retry.delayMs, [GenAi.errorType]: retry.errorType, 'error.message': retry.error, 'http.response.status_code': retry.status }));
  }

  /** Ends a request's `chat` span with its usage, or its error code. */
  chatEnded(path: string, end: ChatEnd): void {
    this.early.delete(path);
    const chat = this.chats.get(path);
    if (!chat) return;
    this.chats.delete(path);
    const span = chat.span;
    const usage = end.usage;
    if (usage) {
      span.setAttribute(GenAi.inputTokens, usage.inputTokens);
      span.setAttribute(GenAi.outputTokens, usage.outputTokens);
      span.setAttribute(GenAi.cacheReadInputTokens, usage.cacheReadTokens);
      span.setAttribute(GenAi.cacheCreationInputTokens, usage.cacheWriteTokens);
    }
    if (end.finishReason !== undefined) span.setAttribute(GenAi.responseFinishReasons, [end.finishReason]);
    if (end.responseModel !== undefined) span.setAttribute(GenAi.responseModel, end.responseModel);
    if (this.recordContent && end.output) span.setAttribute(GenAi.outputMessages, JSON.stringify(end.output()));
    if (end.errorCode !== undefined) {
      span.setAttribute(GenAi.errorType, end.errorCode);
      span.setStatus({ code: STATUS_ERROR, message: end.errorCode });
    }
    span.end();
  }

  /**
   * Runs `fn` with the request's `chat` span active, so spans its provider code starts nest
   * under it. Without a context manager (nothing could read the active context) it just runs.
   */
  inChat<T>(path: string, fn: () => T): T {
    const chat = this.chats.get(path);
    if (!chat) return fn();
    const probe = (this.probe ??= this.api.ROOT_CONTEXT.setValue(PROBE, true));
    if (this.api.context.with(probe, this.activeContext) !== probe) return fn();
    return this.api.context.with(this.contextOf(chat), fn);
  }

  /** A tool call starts: an `execute_tool {tool}` span under the agent's turn. */
  toolStarted(start: ToolStart): void {
    const agent = this.agents.get(start.path);
    if (!agent) return;
    const under = this.innermost(agent);
    const attributes: SpanAttributes = {
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': start.toolName,
      'gen_ai.tool.call.id': start.callId,
      'gen_ai.tool.type': 'function',
    };
    if (this.recordContent && start.args !== undefined) attributes[GenAi.toolCallArguments] = JSON.stringify(start.args);
    const parent = this.contextOf(under);
    const span = this.tracer.startSpan(this.nameOf('execute_tool', start.toolName), { kind: SPAN_KIND_INTERNAL, attributes }, parent);
    (agent.tools ??= new Map()).set(start.callId, { span, parent, context: undefined });
  }

  /** A tool call ended. */
  toolEnded(path: string, callId: string, end: ToolEnd): void {
    const agent = this.agents.get(path);
    const tool = agent?.tools?.get(callId);
    if (!agent?.tools || !tool) return;
    agent.tools.delete(callId);
    this.endTool(tool.span, end);
  }

  private endTool(span: Span, end: ToolEnd): void {
    if (this.recordContent) span.setAttribute(GenAi.toolCallResult, end.content);
    if (end.cancelled) span.setAttribute(Sa.cancelled, true);
    if (end.isError) {
      const code = end.errorCode ?? (end.cancelled ? 'cancelled' : 'tool_error');
      span.setAttribute(GenAi.errorType, code);
      span.setStatus({ code: STATUS_ERROR, message: code });
    }
    span.end();
  }

  /** A turn of a continuable agent ended: its turn span (turns after the first) ends. */
  turnEnded(path: string, turn: number, status: string, stopReason?: string): void {
    const agent = this.agents.get(path);
    if (!agent) return;
    this.reported(agent);
    if (!agent.turn || agent.turn.number !== turn) return;
    agent.turn.span.setAttribute(Sa.status, status);
    if (status === 'failed') setOutcome(agent.turn.span, { status, stopReason: stopReason ?? 'failed' });
    agent.turn.span.end();
    agent.turn = undefined;
  }

  /** An event on the agent's innermost open span (its running tool call `callId`, its turn, or itself). */
  event(path: string, name: string, attributes: EventAttributes, callId?: string): void {
    const agent = this.agents.get(path);
    if (!agent) return;
    const target = (callId !== undefined ? agent.tools?.get(callId) : undefined) ?? this.innermost(agent);
    target.span.addEvent(name, compact(attributes));
  }

  /**
   * A cancellation: every stopped agent's span gets a `cancelled` event with the state it was
   * in, and the span of whoever asked (the `cancel_agent` call, or the agent at `by`) the report.
   */
  cancelled(path: string, stopped: readonly { readonly path: string; readonly state: string }[], reason: string | undefined, by?: { readonly path: string; readonly callId?: string }): void {
    for (const agent of stopped) this.event(agent.path, SaEvents.cancelled, { state: agent.state, reason, 'cancelled.root': path });
    const report: EventAttributes = { target: path, reason, 'stopped.paths': stopped.map((s) => s.path), 'stopped.states': stopped.map((s) => s.state) };
    if (by) this.event(by.path, SaEvents.cancelReport, report, by.callId);
    else if (stopped.length > 0) this.event(path, SaEvents.cancelReport, report);
  }

  /**
   * A subagent's result (or turn report) reached `to`'s inbox as a notice: an event on `to`'s
   * span, and the next request `to` sends links back to the subagent's span.
   */
  noticeDelivered(to: string, from: string, fromSpan: SpanRef | undefined): void {
    const agent = this.agents.get(to);
    if (!agent) return;
    const ref = fromSpan ?? this.refOfAgent(from);
    this.innermost(agent).span.addEvent(SaEvents.notice, { from });
    if (ref) (agent.pendingLinks ??= []).push({ context: this.spanContextOf(ref), attributes: { [GenAi.agentId]: from } });
  }

  /**
   * Ends every open span with the error `code` (a session that stopped without results: its
   * store failed). Children before parents, as their paths sort deepest first.
   */
  endAll(code: string): void {
    const paths = [...this.agents.keys()].sort((a, b) => b.split('/').length - a.split('/').length);
    for (const path of paths) this.agentEnded(path, { status: 'failed', stopReason: code });
    this.early.clear();
  }

  /** Whether the agent at `path` has an open span. */
  isOpen(path: string): boolean {
    return this.agents.has(path);
  }

  /** The identity of an agent's open span. */
  refOfAgent(path: string): SpanRef | undefined {
    const agent = this.agents.get(path);
    return agent ? refOf(agent.span.spanContext()) : undefined;
  }

  /** Open spans (for tests of cleanup): agents and requests. */
  get openSpans(): number {
    let n = this.chats.size + this.early.size;
    for (const agent of this.agents.values()) n += 1 + (agent.tools?.size ?? 0) + (agent.turn ? 1 : 0);
    return n;
  }

  /**
   * A subagent reported to its parent. Its first report answers the `Agent` call of a
   * caller-delivered spawn; every other report reaches the parent's inbox as a notice.
   */
  private reported(agent: AgentSpans): void {
    const parentPath = agent.start.parentPath;
    if (parentPath === null) return;
    const notice = agent.start.delivery !== 'caller' || agent.reported;
    agent.reported = true;
    if (notice) this.noticeDelivered(parentPath, agent.start.path, refOf(agent.span.spanContext()));
  }

  /** The context `open`'s span is active in (spans started in it are its children). */
  private contextOf(open: Open): Context {
    return (open.context ??= this.api.trace.setSpan(open.parent, open.span));
  }

  private nameOf(operation: 'chat' | 'execute_tool', what: string): string {
    const names = this.names[operation];
    let name = names.get(what);
    if (name === undefined) names.set(what, (name = `${operation} ${what}`));
    return name;
  }

  private innermost(agent: AgentSpans): Open {
    return agent.turn ?? agent;
  }

  private turnSpan(agent: AgentSpans, turn: number): Open {
    if (turn === 0) return agent;
    if (agent.turn?.number === turn) return agent.turn;
    agent.turn?.span.end();
    const links = agent.pendingLinks;
    agent.pendingLinks = undefined;
    const attributes: Attributes = { [GenAi.operationName]: 'invoke_agent', [GenAi.agentId]: agent.start.path, [GenAi.agentName]: agent.name, [GenAi.conversationId]: agent.start.sessionId, [Sa.turn]: turn };
    const parent = this.contextOf(agent);
    const span = this.tracer.startSpan(`invoke_agent ${agent.name}`, { kind: SPAN_KIND_INTERNAL, attributes, ...(links ? { links } : {}) }, parent);
    agent.turn = { span, parent, context: undefined, number: turn };
    return agent.turn;
  }

  private spanContextOf(ref: SpanRef): SpanContext {
    return { traceId: ref.traceId, spanId: ref.spanId, traceFlags: ref.traceFlags, isRemote: true };
  }
}

function refOf(context: SpanContext): SpanRef {
  return { traceId: context.traceId, spanId: context.spanId, traceFlags: context.traceFlags };
}

/** Failed agents, turns and requests get an error status carrying their error code. */
function setOutcome(span: Span, end: AgentEnd): void {
  if (end.status !== 'failed') return;
  span.setAttribute(GenAi.errorType, end.stopReason);
  span.setStatus({ code: STATUS_ERROR, message: end.stopReason });
}

function compact(attributes: EventAttributes): Attributes {
  const out: Attributes = {};
  for (const [key, value] of Object.entries(attributes)) if (value !== undefined) out[key] = value as Attributes[string];
  return out;
}
