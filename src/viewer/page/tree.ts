/** The agent tree: each agent's name, state, role, context mode, delivery and lifetime. */
import type { AgentView, SessionView } from '../model/fold.js';
import { el } from './dom.js';
import { leaf, stateClass } from './format.js';

function row(agent: AgentView, view: SessionView, selected: string, onSelect: (path: string) => void): HTMLLIElement {
  const meta = [agent.role ?? 'no role', `context ${agent.context ?? '?'}`, agent.delivery ? `delivery ${agent.delivery}` : undefined, agent.lifetime].filter((x): x is string => x !== undefined).join(' · ');
  const button = el('button', { type: 'button', class: 'row', title: agent.path }, el('span', { class: 'name' }, leaf(agent.path)), ' ', el('span', { class: `state ${stateClass(agent.state)}` }, agent.state), el('span', { class: 'meta' }, agent.parent === null ? 'root agent' : meta));
  button.addEventListener('click', () => onSelect(agent.path));
  const item = el('li', { 'data-path': agent.path, 'data-state': agent.state, class: agent.path === selected ? 'selected' : '' }, button);
  if (agent.children.length > 0) {
    const list = el('ul');
    for (const child of agent.children) {
      const sub = view.agents.get(child);
      if (sub) list.append(row(sub, view, selected, onSelect));
    }
    item.append(list);
  }
  return item;
}

/** Draws the tree of `view` into `target`, marking `selected`. */
export function renderTree(target: HTMLElement, view: SessionView, selected: string, onSelect: (path: string) => void): void {
  const roots = [...view.agents.values()].filter((a) => a.parent === null || !view.agents.has(a.parent));
  target.replaceChildren(...roots.map((agent) => row(agent, view, selected, onSelect)));
}
