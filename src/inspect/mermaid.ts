/**
 * Mermaid `stateDiagram-v2` pictures of a machine, generated from its state nodes: nested
 * and parallel states, initial and final states, and every transition labelled with its
 * event (`onDone(id)` / `onError(id)` for invoked actors, `always` for eventless ones) and
 * guard. Pure and deterministic: the same machine always yields the same text.
 */
import type { AnyStateMachine, AnyStateNode } from 'xstate';
import { machineTransitions, relativeId, stateNodesOf, type MachineTransition } from './transitions.js';

const DONE = 'xstate.done.actor.';
const ERROR = 'xstate.error.actor.';

/** A Mermaid-safe id for a state node: its path joined with `_` (`running_working_sampling`). */
export function mermaidId(node: AnyStateNode): string {
  return node.path.map((key) => key.replace(/[^A-Za-z0-9_]/g, '_')).join('_');
}

/** Text Mermaid shows as is: no `;`, `:`, `#`, quotes or line breaks. */
function safe(text: string): string {
  return text.replace(/[;:#"\n\r]/g, ' ').replace(/\s+/g, ' ').trim();
}

/** A transition's label: `onDone(hooks) [hookDenied]`, `always [isRoot]`, `tool.result`. */
export function transitionLabel(t: Pick<MachineTransition, 'event' | 'guard'>): string {
  const event = t.event.startsWith(DONE) ? `onDone(${t.event.slice(DONE.length)})` : t.event.startsWith(ERROR) ? `onError(${t.event.slice(ERROR.length)})` : t.event;
  return safe(t.guard === undefined ? event : `${event} [${t.guard}]`);
}

/** The atomic (or final) states at or below `node`. */
function leavesOf(node: AnyStateNode): AnyStateNode[] {
  const children = Object.values(node.states) as AnyStateNode[];
  return children.length === 0 ? [node] : children.flatMap(leavesOf);
}

/**
 * The diagram's edges, keyed by the node whose block they are written in. Mermaid places a
 * state in the last composite block that mentions it and fails on self-loops of nested
 * composites, so: edges between siblings (and self-loops) go in the parent's block, all
 * others at the top level; a targetless transition of a composite state is drawn as a
 * self-loop on each state below it; a root-level handler from each top-level state that
 * can still take events. Transitions between the same two states share one edge.
 */
function edges(machine: AnyStateMachine): Map<AnyStateNode, string[]> {
  const byId = new Map(stateNodesOf(machine).map((n) => [relativeId(n), n]));
  const merged = new Map<string, { scope: AnyStateNode; from: AnyStateNode; to: AnyStateNode; labels: string[] }>();
  const add = (from: AnyStateNode, to: AnyStateNode, label: string): void => {
    const key = `${mermaidId(from)} ${mermaidId(to)}`;
    const scope = from === to || (from.parent === to.parent && from.parent) ? from.parent! : machine.root;
    const edge = merged.get(key) ?? { scope, from, to, labels: [] };
    edge.labels.push(label);
    merged.set(key, edge);
  };
  for (const t of machineTransitions(machine)) {
    const source = byId.get(t.source)!;
    const label = transitionLabel(t);
    const sources = source === machine.root ? (Object.values(machine.root.states) as AnyStateNode[]).filter((n) => n.type !== 'final') : [source];
    for (const from of sources) {
      if (t.targets.length === 0) for (const leaf of leavesOf(from)) add(leaf, leaf, `${label} (no target)`);
      for (const id of t.targets) add(from, byId.get(id)!, label);
    }
  }
  const lines = new Map<AnyStateNode, string[]>();
  for (const { scope, from, to, labels } of merged.values()) {
    lines.set(scope, [...(lines.get(scope) ?? []), `${mermaidId(from)} --> ${mermaidId(to)} : ${labels.join(', ')}`]);
  }
  return lines;
}

function block(node: AnyStateNode, edgeLines: Map<AnyStateNode, string[]>, indent: string): string[] {
  const lines: string[] = [];
  const children = Object.values(node.states) as AnyStateNode[];
  const regions = node.type === 'parallel';
  children.forEach((child, i) => {
    if (regions && i > 0) lines.push(`${indent}--`);
    const id = mermaidId(child);
    if (child.type === 'compound' || child.type === 'parallel') {
      lines.push(`${indent}state "${safe(child.key)}" as ${id} {`, ...block(child, edgeLines, `${indent}  `), `${indent}}`);
    } else {
      lines.push(`${indent}state "${safe(child.key)}" as ${id}`);
    }
    for (const inv of child.invoke) lines.push(`${indent}${id} : invokes ${safe(String(inv.src))} as ${safe(inv.id)}`);
    if (child.type === 'final') lines.push(`${indent}${id} --> [*]`);
    if (child.type === 'history') lines.push(`${indent}${id} : history (${child.history || 'shallow'})`);
  });
  if (node.type === 'compound') {
    for (const target of node.initial.target) lines.push(`${indent}[*] --> ${mermaidId(target)}`);
  }
  lines.push(...(edgeLines.get(node) ?? []).map((line) => `${indent}${line}`));
  return lines;
}

/** The Mermaid `stateDiagram-v2` source of `machine` (without a code fence). */
export function machineToMermaid(machine: AnyStateMachine): string {
  return ['stateDiagram-v2', ...block(machine.root, edges(machine), '  ')].join('\n') + '\n';
}

/** Escapes a Markdown table cell. */
function cell(text: string | undefined): string {
  return (text ?? '').replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

/**
 * A Markdown page for `machine`: the diagram, a table of its states (type, description,
 * invoked actors) and a table of every transition. `source` names the machine's file.
 */
export function machineMarkdown(name: string, machine: AnyStateMachine, source: string): string {
  const nodes = stateNodesOf(machine).slice(1);
  const transitions = machineTransitions(machine).map(tableRow);
  return [
    `<!-- Generated from ${source} by \`npm run diagrams\`. Do not edit: regenerate. -->`,
    `# ${name}`,
    '',
    ...(machine.root.description ? [machine.root.description, ''] : []),
    '```mermaid',
    machineToMermaid(machine).trimEnd(),
    '```',
    '',
    `## States (${nodes.length})`,
    '',
    '| state | type | invokes | description |',
    '| --- | --- | --- | --- |',
    ...nodes.map((n) => `| \`${relativeId(n)}\` | ${n.type} | ${cell(n.invoke.map((i) => `${String(i.src)} as \`${i.id}\``).join(', '))} | ${cell(n.description)} |`),
    '',
    `## Transitions (${transitions.length})`,
    '',
    'Each guarded branch is its own transition; the coverage check counts these.',
    '',
    '| # | source | event | guard | target |',
    '| --- | --- | --- | --- | --- |',
    ...transitions.map((t, i) => `| ${i + 1} | \`${t.source}\` | ${cell(t.event)} | ${cell(t.guard)} | ${t.target} |`),
    '',
  ].join('\n');
}

/** A transition as a row of the transitions table. */
function tableRow(t: MachineTransition): { source: string; event: string; guard: string | undefined; target: string } {
  return { source: t.source, event: `\`${t.event}\``, guard: t.guard === undefined ? undefined : `\`${t.guard}\``, target: t.targets.length === 0 ? '(actions only)' : t.targets.map((x) => `\`${x}\``).join(', ') };
}
