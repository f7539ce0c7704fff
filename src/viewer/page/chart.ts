/**
 * The agent machine's statechart, drawn by Mermaid (bundled with the page, so no network),
 * with the selected agent's current state highlighted: the atomic state and each state
 * around it (`running`, `running.working`, `running.working.sampling`).
 */
import { el } from './dom.js';

/** The id the chart is rendered under; Mermaid prefixes its node ids with it. */
const RENDER_ID = 'agent-statechart';
/** Mermaid's SVG names a state's node `<render id>-state-<mermaid id>-<n>` (clusters too). */
const NODE_ID = new RegExp(`^${RENDER_ID}-state-(.+)-\\d+$`);

/** A drawn statechart whose highlight follows a state. */
export class Statechart {
  private nodes = new Map<string, Element[]>();
  private drawn: Promise<void> | undefined;
  private current: string | undefined;

  /** `ids` maps each state (`running.idle`) to its Mermaid id (`running_idle`). */
  constructor(
    private readonly target: HTMLElement,
    private readonly source: string,
    private readonly ids: Readonly<Record<string, string>>,
  ) {}

  /** Draws the chart once (later calls wait for the same drawing). */
  draw(): Promise<void> {
    this.drawn ??= (async () => {
      const { default: mermaid } = await import('mermaid');
      mermaid.initialize({ startOnLoad: false, securityLevel: 'strict', theme: 'default', state: { useMaxWidth: false } });
      const { svg } = await mermaid.render(RENDER_ID, this.source);
      this.target.innerHTML = svg;
      for (const node of this.target.querySelectorAll('[id]')) {
        const match = NODE_ID.exec(node.id);
        if (!match) continue;
        const list = this.nodes.get(match[1]!) ?? [];
        list.push(node);
        this.nodes.set(match[1]!, list);
      }
      this.target.dataset['drawn'] = 'true';
    })().catch((error: unknown) => {
      this.target.replaceChildren(el('p', { class: 'banner' }, `The statechart could not be drawn: ${error instanceof Error ? error.message : String(error)}`));
    });
    return this.drawn;
  }

  /** Highlights `state` (a state value string such as `running.working.sampling`). */
  async highlight(state: string): Promise<void> {
    await this.draw();
    if (this.current === state) return;
    this.current = state;
    for (const node of this.target.querySelectorAll('.current-state, .current-region')) node.classList.remove('current-state', 'current-region');
    const keys = state.split('.');
    const found: string[] = [];
    keys.forEach((_, i) => {
      const id = this.ids[keys.slice(0, i + 1).join('.')];
      if (id === undefined) return;
      const atomic = i === keys.length - 1;
      for (const node of this.nodes.get(id) ?? []) node.classList.add(atomic ? 'current-state' : 'current-region');
      if (atomic && this.nodes.has(id)) found.push(id);
    });
    this.target.dataset['current'] = found[0] ?? '';
    this.target.dataset['state'] = state;
    const node = found[0] === undefined ? undefined : this.nodes.get(found[0])?.[0];
    if (node) this.centre(node);
  }

  /** Scrolls the chart (not the page) so `node` is in the middle of it. */
  private centre(node: Element): void {
    const box = node.getBoundingClientRect();
    const frame = this.target.getBoundingClientRect();
    this.target.scrollLeft += box.left + box.width / 2 - (frame.left + frame.width / 2);
    this.target.scrollTop += box.top + box.height / 2 - (frame.top + frame.height / 2);
  }
}
