/**
 * Folds a viewer feed into what the page draws: the agent tree with each agent's state,
 * settings, transcript, usage (own and subtree), result and prefix sharing, and the
 * messages agents sent each other. Pure and incremental: `apply` takes one event at a time,
 * and scrubbing to event N is folding the first N + 1 events into a new view.
 */
import type { ViewerEntry, ViewerEvent, ViewerPrefix, ViewerResult, ViewerUsage } from './events.js';

/** One agent as the feed so far has shown it. */
export interface AgentView {
  readonly path: string;
  readonly parent: string | null;
  /** Subagent paths in the order they appeared. */
  readonly children: string[];
  role: string | undefined;
  context: string | undefined;
  delivery: string | undefined;
  lifetime: string | undefined;
  task: string | undefined;
  /** The current state (`reserved` until the feed says otherwise). */
  state: string;
  /** Its own dialogue entries, in order (entries copied from the parent excluded when the feed says so). */
  readonly entries: ViewerEntry[];
  /** Entries copied from the parent that the feed did not repeat. */
  inherited: number;
  usage: ViewerUsage | undefined;
  result: ViewerResult | undefined;
  prefix: ViewerPrefix | undefined;
  /** Seq of the event that last changed this agent. */
  changedAt: number;
}

/** A message, task or result notice one agent's dialogue received from another. */
export interface MessageView {
  readonly seq: number;
  readonly from: string;
  readonly to: string;
  readonly kind: 'task' | 'message' | 'notice' | 'background';
  readonly text: string;
}

/** The session as the feed so far has shown it. */
export interface SessionView {
  sessionId: string;
  source: string;
  label: string;
  /** Every agent, in the order it appeared (the root first). */
  readonly agents: Map<string, AgentView>;
  readonly messages: MessageView[];
  /** Events folded so far. */
  events: number;
  /** Time of the last event that had one. */
  lastTime: number | undefined;
  ended: string | undefined;
}

/** An empty view. */
export function emptyView(): SessionView {
  return { sessionId: '', source: '', label: '', agents: new Map(), messages: [], events: 0, lastTime: undefined, ended: undefined };
}

/** The parent path of `path` (`/root/a/b` → `/root/a`), or null for a top-level path. */
export function parentOf(path: string): string | null {
  const cut = path.lastIndexOf('/');
  return cut <= 0 ? null : path.slice(0, cut);
}

function agentOf(view: SessionView, path: string, seq: number): AgentView {
  let agent = view.agents.get(path);
  if (agent) return agent;
  // A state or entry for an agent the feed never introduced (a trace names actors only by
  // their snapshots): make it up from the path, so nothing the feed says is lost.
  const parent = parentOf(path);
  if (parent !== null) agentOf(view, parent, seq);
  agent = { path, parent, children: [], role: undefined, context: undefined, delivery: undefined, lifetime: undefined, task: undefined, state: 'reserved', entries: [], inherited: 0, usage: undefined, result: undefined, prefix: undefined, changedAt: seq };
  view.agents.set(path, agent);
  if (parent !== null) view.agents.get(parent)!.children.push(path);
  return agent;
}

/** Folds one event into `view` (in place) and returns it. */
export function apply(view: SessionView, event: ViewerEvent): SessionView {
  view.events++;
  if (event.t !== undefined) view.lastTime = event.t;
  switch (event.type) {
    case 'session':
      view.sessionId = event.sessionId;
      view.source = event.source;
      view.label = event.label;
      break;
    case 'agent': {
      const agent = agentOf(view, event.path, event.seq);
      agent.role = event.role ?? agent.role;
      agent.context = event.context ?? agent.context;
      agent.delivery = event.delivery ?? agent.delivery;
      agent.lifetime = event.lifetime ?? agent.lifetime;
      agent.task = event.task ?? agent.task;
      agent.inherited = event.inherited ?? agent.inherited;
      agent.prefix = event.prefix ?? agent.prefix;
      agent.changedAt = event.seq;
      break;
    }
    case 'state': {
      const agent = agentOf(view, event.path, event.seq);
      agent.state = event.state;
      agent.changedAt = event.seq;
      break;
    }
    case 'entries': {
      const agent = agentOf(view, event.path, event.seq);
      for (const entry of event.entries) {
        agent.entries.push(entry);
        if (entry.kind === 'user' && entry.origin.kind !== 'person' && entry.origin.from !== undefined) {
          view.messages.push({ seq: event.seq, from: entry.origin.from, to: event.path, kind: entry.origin.kind, text: entry.text });
        }
      }
      agent.changedAt = event.seq;
      break;
    }
    case 'usage': {
      const agent = agentOf(view, event.path, event.seq);
      agent.usage = event.usage;
      agent.changedAt = event.seq;
      break;
    }
    case 'result': {
      const agent = agentOf(view, event.path, event.seq);
      agent.result = event.result;
      agent.usage = event.result.usage ?? agent.usage;
      agent.prefix = event.result.prefix ?? agent.prefix;
      agent.changedAt = event.seq;
      break;
    }
    case 'ended':
      view.ended = event.reason;
      break;
  }
  return view;
}

/** Folds the first `count` events of `events` into a new view (all of them by default). */
export function foldEvents(events: readonly ViewerEvent[], count = events.length): SessionView {
  const view = emptyView();
  for (let i = 0; i < Math.min(count, events.length); i++) apply(view, events[i]!);
  return view;
}

const ZERO: ViewerUsage = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, requests: 0 };

/** The sum of two usages; the cost only when both have one (a total with unpriced work has none). */
export function addUsage(a: ViewerUsage, b: ViewerUsage): ViewerUsage {
  const sum: ViewerUsage = {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    cacheReadTokens: a.cacheReadTokens + b.cacheReadTokens,
    cacheWriteTokens: a.cacheWriteTokens + b.cacheWriteTokens,
    requests: a.requests + b.requests,
  };
  return a.cost !== undefined && b.cost !== undefined ? { ...sum, cost: a.cost + b.cost } : sum;
}

/** The usage of the agent at `path` and every subagent below it, or undefined when none has any. */
export function subtreeUsage(view: SessionView, path: string): ViewerUsage | undefined {
  const agent = view.agents.get(path);
  if (!agent) return undefined;
  let total: ViewerUsage | undefined = agent.usage;
  for (const child of agent.children) {
    const below = subtreeUsage(view, child);
    if (below) total = addUsage(total ?? { ...ZERO, cost: 0 }, below);
  }
  return total;
}

/** Messages to or from the agent at `path`, in feed order. */
export function messagesOf(view: SessionView, path: string): MessageView[] {
  return view.messages.filter((m) => m.from === path || m.to === path);
}

/** Whether an agent in `state` has finished (it will not change again). */
export function isFinal(state: string): boolean {
  return state === 'settled' || state === 'cancelled';
}
