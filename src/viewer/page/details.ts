/** The selected agent: its settings, usage (own and subtree), prefix sharing, result, messages and transcript. */
import type { ViewerEntry } from '../model/events.js';
import { messagesOf, subtreeUsage, type AgentView, type SessionView } from '../model/fold.js';
import { el } from './dom.js';
import { prefixLine, stateClass, usageLine } from './format.js';

function facts(pairs: ReadonlyArray<readonly [string, Node | string]>): HTMLDListElement {
  const list = el('dl', { class: 'facts' });
  for (const [term, value] of pairs) list.append(el('dt', {}, term), el('dd', {}, value));
  return list;
}

/** The heading: path, state and the settings the agent was spawned with. */
export function renderHead(target: HTMLElement, agent: AgentView): void {
  target.replaceChildren(
    el('h2', { id: 'agent-path' }, agent.path, ' ', el('span', { id: 'agent-state', class: `state ${stateClass(agent.state)}` }, agent.state)),
    facts([
      ['role', agent.role ?? (agent.parent === null ? 'root agent' : 'none')],
      ['context', agent.context ?? 'unknown'],
      ['delivery', agent.delivery ?? 'unknown'],
      ['lifetime', agent.lifetime ?? 'unknown'],
      ...(agent.task !== undefined ? ([['task', agent.task]] as const) : []),
    ]),
  );
}

/** Usage of the agent and of its subtree, and what its first request shared with its parent's. */
export function renderUsage(target: HTMLElement, view: SessionView, agent: AgentView): void {
  const subtree = subtreeUsage(view, agent.path);
  target.replaceChildren(
    facts([
      ['own', usageLine(agent.usage)],
      ['with subagents', agent.children.length === 0 ? 'no subagents' : usageLine(subtree)],
      ...(agent.parent !== null ? ([['prefix', el('span', { id: 'prefix' }, prefixLine(agent.prefix))]] as const) : []),
      ...(agent.inherited > 0 ? ([['inherited', `${agent.inherited} entries of its parent's dialogue (not repeated below)`]] as const) : []),
    ]),
  );
}

/** The agent's one result, once it reported. */
export function renderResult(target: HTMLElement, agent: AgentView): void {
  const result = agent.result;
  if (!result) {
    target.replaceChildren(el('p', { class: 'muted' }, 'not reported yet'));
    return;
  }
  target.replaceChildren(
    facts([
      ['status', result.status],
      ['stop reason', result.stopReason],
      ...(result.elapsedMs !== undefined ? ([['elapsed', `${result.elapsedMs} ms`]] as const) : []),
      ...(result.error !== undefined ? ([['error', result.error]] as const) : []),
    ]),
    el('div', { class: 'entry assistant' }, result.text === '' ? '(no final text)' : result.text),
  );
}

/** Tasks, messages, notices and backgrounds the agent sent or received. */
export function renderMessages(target: HTMLElement, view: SessionView, agent: AgentView): void {
  const messages = messagesOf(view, agent.path);
  if (messages.length === 0) {
    target.replaceChildren(el('li', { class: 'muted' }, 'none'));
    return;
  }
  target.replaceChildren(...messages.map((m) => el('li', { class: 'message' }, el('span', { class: 'who' }, `${m.kind}: ${m.from} → ${m.to}`), m.text)));
}

function entryItem(entry: ViewerEntry): HTMLLIElement {
  switch (entry.kind) {
    case 'user': {
      const who = entry.origin.kind === 'person' ? 'person' : `${entry.origin.kind} from ${entry.origin.from ?? '?'}`;
      return el('li', { class: 'entry user' }, el('span', { class: 'who' }, who), entry.text);
    }
    case 'assistant':
      return el(
        'li',
        { class: 'entry assistant' },
        el('span', { class: 'who' }, 'assistant'),
        entry.text,
        ...entry.toolCalls.map((call) => el('span', { class: 'call' }, `→ ${call.name}(${JSON.stringify(call.arguments)})`)),
      );
    case 'tool_result':
      return el('li', { class: `entry tool_result${entry.isError ? ' error' : ''}` }, el('span', { class: 'who' }, `${entry.toolName} result${entry.isError ? ' (error)' : ''}`), entry.content);
    case 'compaction':
      return el('li', { class: 'entry compaction' }, el('span', { class: 'who' }, 'compaction summary'), entry.text);
  }
}

/** The agent's dialogue, in order. */
export function renderTranscript(target: HTMLElement, agent: AgentView, source: string): void {
  if (agent.entries.length === 0) {
    target.replaceChildren(el('li', { class: 'muted' }, source === 'trace' ? 'A trace records states, not dialogues: open the session journal (--journal) to read transcripts.' : 'no entries yet'));
    return;
  }
  target.replaceChildren(...agent.entries.map(entryItem));
}
