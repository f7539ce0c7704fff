/**
 * A live view of a runtime's agent tree, driven by the runtime's event stream
 * (`runtime.events()`): spawns, state changes, results, tool calls and streamed text. It never
 * polls the runtime; it reads `runtime.list()` once, for the agents alive when it attaches.
 *
 * On a terminal (TTY) the tree is redrawn in place with ANSI escape codes, at most once per
 * `redrawMs`, by a timer the view clears when it stops; a working agent's row shows what it is
 * doing (the tool it calls, or the tail of the text it is streaming). Anywhere else (CI logs,
 * `| cat`) it prints one line per state change instead, so the output reads top to bottom.
 * Finished agents stay visible with their final state: the runtime forgets released paths,
 * so the view keeps its own record of every agent it has seen.
 */
import type { AgentResult, Runtime, RuntimeStreamEvent } from '../index.js';
import { clipText, displayWidth } from '../text/clip.js';
import { clipVisible, colorState, duration, isFinalState, padVisible, palette, stamp, truncate, type Palette, type TextSink } from './format.js';

/** What the view knows about one agent. */
export interface TreeRow {
  readonly path: string;
  readonly depth: number;
  role: string | undefined;
  context: string;
  delivery: string;
  lifetime: string;
  state: string;
  /** Session time (ms) when the view first saw the agent. */
  readonly firstSeen: number;
  /** View time (ms) the agent started at, for its live elapsed time. */
  startedAt: number;
  /** Elapsed ms: frozen from the result once finished. */
  elapsedMs: number;
  /** The result's stop reason, once finished. */
  stopReason: string | undefined;
  /** What a working agent is doing: the tool it calls, or the tail of its streaming text. */
  activity: string;
}

/** Options of {@link TreeView}. */
export interface TreeViewOptions {
  /** Where the view writes. */
  readonly out: TextSink;
  /** Redraw in place (default: `out.isTTY`); otherwise print one line per state change. */
  readonly tty?: boolean;
  /** ANSI colors (default: on for a TTY unless `NO_COLOR` is set). */
  readonly color?: boolean;
  /** Minimum time between redraws on a TTY (default 80 ms). */
  readonly redrawMs?: number;
  /** Clock for session-relative stamps (default `Date.now`). */
  readonly now?: () => number;
  /** A title line shown above the tree on a TTY. */
  readonly title?: string;
}

const ESC = '\u001b[';
const HIDE_CURSOR = `${ESC}?25l`;
const SHOW_CURSOR = `${ESC}?25h`;

/** The live tree: attach it to a runtime, log lines through it, stop it at the end. */
export class TreeView {
  private readonly out: TextSink;
  private readonly tty: boolean;
  private readonly p: Palette;
  private readonly redrawMs: number;
  private readonly now: () => number;
  private readonly title: string | undefined;
  private readonly rows = new Map<string, TreeRow>();
  /** Each agent's tool calls in flight: call id → tool name. */
  private readonly calls = new Map<string, Map<string, string>>();
  private readonly startedAt: number;
  private following = false;
  private reading: AbortController | undefined;
  private timer: ReturnType<typeof setInterval> | undefined;
  private drawnLines = 0;
  private dirty = false;
  private stopped = false;

  constructor(options: TreeViewOptions) {
    this.out = options.out;
    this.tty = options.tty ?? options.out.isTTY === true;
    this.p = palette(options.color ?? (this.tty && process.env['NO_COLOR'] === undefined));
    this.redrawMs = options.redrawMs ?? 80;
    this.now = options.now ?? Date.now;
    this.title = options.title;
    this.startedAt = this.now();
  }

  /** Whether the view redraws in place. */
  get isTTY(): boolean {
    return this.tty;
  }

  /** Every agent seen so far, in tree order. */
  get snapshot(): readonly TreeRow[] {
    return this.ordered();
  }

  /**
   * Follows a runtime: reads its event stream until the view stops (or the session ends).
   * A host that iterates the events itself calls {@link follow} and feeds {@link handle}.
   */
  attach(runtime: Runtime): void {
    this.follow(runtime);
    const reading = new AbortController();
    this.reading = reading;
    void (async () => {
      for await (const event of runtime.events({ signal: reading.signal })) this.handle(event);
    })();
  }

  /** Shows the agents alive now and starts redrawing (TTY); events then come through {@link handle}. */
  follow(runtime: Runtime): void {
    if (this.following) return;
    this.following = true;
    const now = this.elapsed();
    for (const info of runtime.list()) {
      const row = this.upsert(info.path, info.state);
      Object.assign(row, { role: info.role, context: info.context, delivery: info.delivery, lifetime: info.lifetime, startedAt: now - info.elapsedMs });
    }
    if (this.tty) {
      this.out.write(HIDE_CURSOR);
      this.render();
      this.timer = setInterval(() => this.tick(), this.redrawMs);
      this.timer.unref?.();
    }
  }

  /** Applies one event of the runtime's stream to the view. */
  handle(event: RuntimeStreamEvent): void {
    if (this.stopped) return;
    switch (event.type) {
      case 'subagent-spawned': {
        const row = this.upsert(event.path, 'reserved');
        Object.assign(row, { role: event.role, context: event.context, delivery: event.delivery, lifetime: event.lifetime });
        return;
      }
      case 'state-changed':
        return this.onChange(event.path, event.state);
      case 'subagent-settled':
      case 'session-ended':
        return this.onResult(event.result);
      case 'tool-call-started':
      case 'tool-call-finished': {
        const calls = this.calls.get(event.path) ?? new Map<string, string>();
        if (event.type === 'tool-call-started') calls.set(event.callId, event.toolName);
        else calls.delete(event.callId);
        this.calls.set(event.path, calls);
        return this.setActivity(event.path, callsActivity(calls));
      }
      case 'text-delta': {
        const row = this.rows.get(event.path);
        if (row) this.setActivity(event.path, `“${tail(row.activity.startsWith('“') ? row.activity.slice(1) + event.text : event.text, 40)}`);
        return;
      }
      case 'turn-ended':
        return this.setActivity(event.path, '');
      default:
        return;
    }
  }
  /** Prints a line of narration (above the tree on a TTY). */
  log(who: string, text: string): void {
    const width = Math.max(40, (this.out.columns ?? 120) - 1);
    const line = `${this.p.dim(`[${stamp(this.elapsed())}]`)} ${this.p.bold(who)} ▸ ${text}`;
    if (!this.tty) {
      this.out.write(`${clipVisible(line, Math.max(width, 160))}\n`);
      return;
    }
    this.clearFrame();
    this.out.write(`${clipVisible(line, width)}\n`);
    this.drawFrame();
  }

  /** Stops the timer and unsubscribes; on a TTY leaves the final tree on screen. */
  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
    this.reading?.abort();
    this.reading = undefined;
    if (this.tty) {
      this.render();
      this.drawnLines = 0; // the final frame stays; later output goes below it
      this.out.write(SHOW_CURSOR);
    }
  }

  /** The tree as text lines (what a TTY shows), for tests and the final frame. */
  frame(): string[] {
    const p = this.p;
    const lines: string[] = [];
    if (this.title !== undefined) lines.push(`${p.bold(this.title)} ${p.dim(`· ${stamp(this.elapsed()).trim()}`)}`);
    const rows = this.ordered();
    const nameWidth = Math.max(24, ...rows.map((r) => r.depth * 2 + displayWidth(r.path) + (r.role ? displayWidth(r.role) + 3 : 0))) + 2;
    // The delivery column only when the terminal has room for it.
    const wide = (this.out.columns ?? 120) >= nameWidth + 26 + 9 + 22 + 8;
    const deliveryColumn = (text: string): string => (wide ? padVisible(text, 22) : '');
    lines.push(p.dim(`${padVisible('agent', nameWidth)}${padVisible('state', 26)}${padVisible('context', 9)}${deliveryColumn('delivery')}${wide ? 'elapsed' : 'time'}`));
    for (const row of rows) {
      const name = `${'  '.repeat(row.depth)}${row.path}${row.role ? p.dim(` [${row.role}]`) : ''}`;
      const state = isFinalState(row.state) && row.stopReason !== undefined && row.stopReason !== row.state
        ? `${colorState(row.state, p)} ${p.dim(`(${row.stopReason})`)}`
        : colorState(row.state, p);
      const delivery = row.depth === 0 ? p.dim('session root') : `${row.delivery}, ${row.lifetime}`;
      const activity = row.activity !== '' && !isFinalState(row.state) ? `  ${p.dim(row.activity)}` : '';
      lines.push(`${padVisible(name, nameWidth)}${padVisible(state, 26)}${padVisible(row.context, 9)}${deliveryColumn(delivery)}${padVisible(duration(this.elapsedOf(row)), 8)}${activity}`.trimEnd());
    }
    return lines;
  }

  private elapsed(): number {
    return this.now() - this.startedAt;
  }

  private onChange(path: string, state: string): void {
    const row = this.upsert(path, state);
    if (this.tty) {
      this.dirty = true;
      return;
    }
    const shown = isFinalState(state) && row.stopReason !== undefined && row.stopReason !== state ? `${state} (${row.stopReason})` : state;
    const context = row.depth === 0 ? '' : `  (context: ${row.context}${row.role ? `, role: ${row.role}` : ''})`;
    this.out.write(`${`[${stamp(this.elapsed())}] ${padVisible(row.path, 32)} ${padVisible(shown, 26)}${context}`.trimEnd()}\n`);
  }

  private onResult(result: AgentResult): void {
    const row = this.upsert(result.path, result.status === 'cancelled' ? 'cancelled' : 'settled', result);
    row.elapsedMs = result.elapsedMs;
    row.stopReason = result.stopReason;
    row.activity = '';
    this.calls.delete(result.path);
    this.dirty = true;
  }

  private setActivity(path: string, activity: string): void {
    const row = this.rows.get(path);
    if (!row || row.activity === activity) return;
    row.activity = activity;
    this.dirty = true;
  }

  /** A row's elapsed time: frozen from its result once finished, else counted by the view's clock. */
  private elapsedOf(row: TreeRow): number {
    return isFinalState(row.state) && row.stopReason !== undefined ? row.elapsedMs : Math.max(0, this.elapsed() - row.startedAt);
  }

  /** Records `path`'s new state, creating its row on first sight. */
  private upsert(path: string, state: string, result?: AgentResult): TreeRow {
    let row = this.rows.get(path);
    if (row === undefined) {
      const now = this.elapsed();
      row = {
        path,
        depth: path.split('/').length - 2,
        role: result?.role,
        context: result?.context ?? '?',
        delivery: '?',
        lifetime: '?',
        state,
        firstSeen: now,
        startedAt: now,
        elapsedMs: result?.elapsedMs ?? 0,
        stopReason: undefined,
        activity: '',
      };
      this.rows.set(path, row);
    }
    // A final state is never overwritten by a late, stale change.
    if (!isFinalState(row.state) || isFinalState(state)) row.state = state;
    return row;
  }

  /** Rows in tree order: each agent after its parent, siblings in order of appearance. */
  private ordered(): TreeRow[] {
    const children = new Map<string, TreeRow[]>();
    const roots: TreeRow[] = [];
    for (const row of this.rows.values()) {
      const parent = row.path.slice(0, row.path.lastIndexOf('/'));
      const siblings = parent !== '' && this.rows.has(parent) ? children.get(parent) ?? [] : undefined;
      if (siblings === undefined) roots.push(row);
      else {
        siblings.push(row);
        children.set(parent, siblings);
      }
    }
    const out: TreeRow[] = [];
    const visit = (row: TreeRow): void => {
      out.push(row);
      for (const child of children.get(row.path) ?? []) visit(child);
    };
    roots.forEach(visit);
    return out;
  }

  /** Redraws when something changed, or while an agent works (its elapsed time moves). TTY only. */
  private tick(): void {
    if (!this.dirty) for (const row of this.rows.values()) if (isBusy(row.state)) this.dirty = true;
    if (this.dirty) this.render();
  }

  private render(): void {
    this.dirty = false;
    this.clearFrame();
    this.drawFrame();
  }

  private clearFrame(): void {
    if (this.drawnLines > 0) this.out.write(`${ESC}${this.drawnLines}F${ESC}0J`);
    this.drawnLines = 0;
  }

  private drawFrame(): void {
    const width = Math.max(40, (this.out.columns ?? 120) - 1);
    const lines = this.frame().map((line) => clipVisible(line, width));
    this.out.write(`${lines.join('\n')}\n`);
    this.drawnLines = lines.length;
  }
}

/** Whether a row's agent is doing work (its elapsed time moves). */
function isBusy(state: string): boolean {
  return state !== 'running.idle' && !isFinalState(state);
}

/** `→ Agent ×5`, `→ Agent, read_file`: the tools an agent is calling, or nothing. */
function callsActivity(calls: ReadonlyMap<string, string>): string {
  if (calls.size === 0) return '';
  const names = [...new Set(calls.values())].join(', ');
  return `→ ${names}${calls.size > 1 ? ` ×${calls.size}` : ''}`;
}

/** The last `max` columns of a one-line rendering of `text`. */
function tail(text: string, max: number): string {
  return clipText(text.replace(/\s+/g, ' '), max, { keep: 'end' });
}

/** A one-line preview of a message for narration. */
export function preview(text: string, max = 110): string {
  return truncate(text, max);
}
