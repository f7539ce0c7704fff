/**
 * The viewer page: reads the session's feed from its server (history, then live events),
 * folds it up to the timeline's position, and draws the tree and the selected agent.
 */
import { VIEWER_FORMAT, type ViewerEvent } from '../model/events.js';
import { foldEvents, isFinal, type SessionView } from '../model/fold.js';
import { Statechart } from './chart.js';
import { renderHead, renderMessages, renderResult, renderTranscript, renderUsage } from './details.js';
import { byId, el } from './dom.js';
import { n } from './format.js';
import { renderTree } from './tree.js';

interface Info {
  readonly format: number;
  readonly title: string;
  readonly machine: string;
  readonly states: Readonly<Record<string, string>>;
}

const events: ViewerEvent[] = [];
/** Events folded into what is shown; `following` keeps it at the latest. */
let position = 0;
let following = true;
let selected = '';
let scheduled = false;
let chart: Statechart | undefined;

const timeline = byId<HTMLInputElement>('timeline');
const status = byId('status');

function schedule(): void {
  if (scheduled) return;
  scheduled = true;
  requestAnimationFrame(() => {
    scheduled = false;
    render();
  });
}

function select(path: string): void {
  selected = path;
  render();
}

function render(): void {
  if (following) position = events.length;
  const view = foldEvents(events, position);
  if (!view.agents.has(selected)) selected = view.agents.keys().next().value ?? '';
  byId('source').textContent = view.source === '' ? '' : `${view.source}${view.label !== '' && view.label !== view.source ? `: ${view.label}` : ''}`;
  document.body.dataset['source'] = view.source;
  renderTree(byId('tree'), view, selected, select);
  renderTotals(view);
  renderTimeline(view);
  const agent = view.agents.get(selected);
  const pane = byId('agent');
  pane.dataset['path'] = selected;
  if (!agent) return;
  renderHead(byId('agent-head'), agent);
  renderUsage(byId('usage'), view, agent);
  renderResult(byId('result'), agent);
  renderMessages(byId('messages'), view, agent);
  renderTranscript(byId('transcript'), agent, view.source);
  void chart?.highlight(agent.state);
}

function renderTotals(view: SessionView): void {
  const agents = [...view.agents.values()];
  const finished = agents.filter((a) => isFinal(a.state)).length;
  byId('totals').textContent = `${agents.length} agents · ${finished} finished · ${view.messages.length} messages${view.ended !== undefined ? ` · ${view.ended}` : ''}`;
}

function renderTimeline(view: SessionView): void {
  timeline.max = String(events.length);
  timeline.value = String(position);
  const first = events.find((e) => e.t !== undefined)?.t;
  const at = view.lastTime !== undefined && first !== undefined ? ` · +${n(view.lastTime - first)} ms` : '';
  byId('position').textContent = `event ${n(position)} of ${n(events.length)}${at}${following ? ' · latest' : ''}`;
  byId('follow').toggleAttribute('disabled', following);
}

function moveTo(next: number): void {
  position = Math.max(0, Math.min(events.length, next));
  following = position === events.length;
  render();
}

timeline.addEventListener('input', () => moveTo(Number(timeline.value)));
byId('back').addEventListener('click', () => moveTo(position - 1));
byId('forward').addEventListener('click', () => moveTo(position + 1));
byId('follow').addEventListener('click', () => moveTo(events.length));
byId('stop').addEventListener('click', () => {
  void fetch('/api/stop', { method: 'POST' }).then(() => {
    status.textContent = 'server stopped on request: this page shows the session as it was';
  });
});

async function start(): Promise<void> {
  const info = (await (await fetch('/api/info')).json()) as Info;
  if (info.format !== VIEWER_FORMAT) {
    status.textContent = `this page reads viewer format ${VIEWER_FORMAT}, the server sends ${info.format}`;
    return;
  }
  document.title = info.title;
  byId('title').textContent = info.title;
  chart = new Statechart(byId('chart'), info.machine, info.states);
  void chart.draw().then(schedule);
  const feed = new EventSource('/api/events');
  feed.onopen = () => {
    // A reconnecting feed starts over with the whole history.
    events.length = 0;
    status.textContent = 'connected';
  };
  feed.onmessage = (message: MessageEvent<string>) => {
    events.push(JSON.parse(message.data) as ViewerEvent);
    if (events.at(-1)?.type === 'ended') status.textContent = 'session over';
    schedule();
  };
  feed.onerror = () => {
    if (events.at(-1)?.type === 'ended' || feed.readyState === EventSource.CLOSED) {
      feed.close();
      status.textContent = events.at(-1)?.type === 'ended' ? 'session over · server gone' : 'the server is gone';
    } else status.textContent = 'reconnecting…';
  };
}

start().catch((error: unknown) => {
  byId('agent-head').replaceChildren(el('p', { class: 'banner' }, `The viewer could not start: ${error instanceof Error ? error.message : String(error)}`));
});
