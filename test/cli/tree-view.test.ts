import { afterEach, describe, expect, it, vi } from 'vitest';
import { createRuntime } from '../../src/index.js';
import { manualClock, scriptedModel } from '../../src/testing/index.js';
import { stripAnsi } from '../../src/cli/format.js';
import { runDemoSession } from '../../src/cli/session.js';
import { TreeView } from '../../src/cli/tree-view.js';
import { DEMO_PATHS } from '../../src/cli/demo-script.js';

const ESC = '\u001b';

function collector(isTTY: boolean) {
  const chunks: string[] = [];
  return { sink: { isTTY, columns: 160, write: (text: string) => (chunks.push(text), true) }, text: () => chunks.join('') };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('tree view', () => {
  it('on a terminal redraws in place, keeps finished agents with their final state, and clears its timer', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const out = collector(true);
    const outcome = await runDemoSession({ out: out.sink, tty: true, color: true, latencyScale: 0, clock: manualClock() });
    expect(vi.getTimerCount()).toBe(0); // the redraw interval is gone
    const raw = out.text();
    expect(raw.startsWith('\u001b[?25l')).toBe(true); // cursor hidden while drawing...
    expect(raw.endsWith('\u001b[?25h')).toBe(true); // ...and shown again
    expect(raw).toMatch(new RegExp(`${ESC}\\[\\d+F${ESC}\\[0J`)); // moved up and cleared to redraw
    expect(raw).toContain('\u001b[32m'); // colored states
    // The last frame: every agent, indented by depth, with its final state.
    const lastFrame = stripAnsi(raw.slice(raw.lastIndexOf('subagent-actors demo ·')));
    const row = (path: string) => lastFrame.split('\n').find((l) => l.trimStart().startsWith(`${path} `) || l.trimStart().startsWith(`${path}\t`));
    expect(row(DEMO_PATHS.runner)).toMatch(/^ {4}\/root\/benchmarks\/bench-runner\s+cancelled\s+all\s+caller, continuable/);
    expect(row(DEMO_PATHS.bench)).toMatch(/^ {2}\/root\/benchmarks\s+cancelled\s+none\s+parent, one-shot/);
    expect(row(DEMO_PATHS.notes)).toMatch(/settled \(closed\)\s+all\s+caller, continuable/);
    expect(row(DEMO_PATHS.migration)).toMatch(/\[researcher\]\s+settled \(completed\)\s+summary/);
    expect(row('/root')).toMatch(/^\/root\s+running\.idle/);
    expect(outcome.rows.map((r) => r.path)).toEqual([
      '/root',
      DEMO_PATHS.audit,
      DEMO_PATHS.tests,
      DEMO_PATHS.notes,
      DEMO_PATHS.migration,
      DEMO_PATHS.bench,
      DEMO_PATHS.runner,
    ]);
  });

  it('redraws at most once per interval, and only when something changed', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const clock = manualClock();
    const model = scriptedModel({ '/root/slow': { 0: [{ text: 'done', latencyMs: 1000 }] } }, { clock });
    const rt = createRuntime({ model });
    const out = collector(true);
    const view = new TreeView({ out: out.sink, redrawMs: 80, color: false, now: () => clock.now });
    view.attach(rt);
    const handle = await rt.spawn('/root', { task_name: 'slow', message: 'work' });
    await clock.whenPending(1);
    const writes = () => out.text().split('\u001b[0J').length;
    const before = writes();
    vi.advanceTimersByTime(79);
    expect(writes()).toBe(before); // not yet
    vi.advanceTimersByTime(1);
    expect(writes()).toBe(before + 1); // one redraw for the batch of changes
    clock.advance(1000);
    await handle.result;
    view.stop();
    expect(vi.getTimerCount()).toBe(0);
    expect(stripAnsi(view.frame().join('\n'))).toMatch(/\/root\/slow\s+settled/);
    rt.stop();
  });

  it('is driven by the event stream alone: rows, what each agent is doing, final states', () => {
    const out = collector(true);
    let t = 0;
    const view = new TreeView({ out: out.sink, tty: true, color: false, now: () => t });
    view.handle({ type: 'subagent-spawned', path: '/root/a', parentPath: '/root', role: 'reviewer', context: 'none', delivery: 'caller', lifetime: 'one-shot', task: 'go' });
    view.handle({ type: 'state-changed', path: '/root/a', state: 'running.working.acting' });
    view.handle({ type: 'tool-call-started', path: '/root/a', callId: 'c1', toolName: 'lookup', args: {} });
    view.handle({ type: 'tool-call-started', path: '/root/a', callId: 'c2', toolName: 'lookup', args: {} });
    t = 1500;
    const row = () => view.frame().find((l) => l.trimStart().startsWith('/root/a'))?.trimStart() ?? '';
    expect(row()).toMatch(/^\/root\/a \[reviewer\]\s+running\.working\.acting\s+none\s+caller, one-shot\s+1\.50s\s+→ lookup ×2$/);
    view.handle({ type: 'tool-call-finished', path: '/root/a', callId: 'c1', toolName: 'lookup', content: 'x', isError: false, cancelled: false });
    expect(row()).toMatch(/→ lookup$/);
    view.handle({ type: 'tool-call-finished', path: '/root/a', callId: 'c2', toolName: 'lookup', content: 'x', isError: false, cancelled: false });
    view.handle({ type: 'state-changed', path: '/root/a', state: 'running.working.sampling' });
    view.handle({ type: 'text-delta', path: '/root/a', turn: 0, step: 1, text: 'The answer ' });
    view.handle({ type: 'text-delta', path: '/root/a', turn: 0, step: 1, text: 'is 42.' });
    expect(row()).toMatch(/“The answer is 42\.$/);
    const result = { path: '/root/a', status: 'completed', stopReason: 'completed', elapsedMs: 1234 } as never;
    view.handle({ type: 'subagent-settled', path: '/root/a', result });
    view.handle({ type: 'state-changed', path: '/root/a', state: 'settled' });
    expect(row()).toMatch(/settled \(completed\)\s+none\s+caller, one-shot\s+1\.23s$/);
    view.stop();
  });

  it('logs narration as plain lines when not a terminal', () => {
    const out = collector(false);
    let t = 1000;
    const view = new TreeView({ out: out.sink, now: () => t });
    t = 1420;
    view.log('person', 'hello');
    view.stop();
    expect(out.text()).toBe('[  0.42s] person ▸ hello\n');
  });
});
