import { describe, expect, it } from 'vitest';
import { manualClock } from '../../src/testing/index.js';
import { DEMO_PATHS, PERSON_PROMPTS, PROJECT_CONTEXT } from '../../src/cli/demo-script.js';
import { runDemoSession, type DemoSessionOutcome } from '../../src/cli/session.js';
import { sharedFrameBytes } from '../request/frames.js';

/** A sink that keeps what the tree view writes. */
function collector(isTTY = false) {
  const chunks: string[] = [];
  return { sink: { isTTY, columns: 160, write: (text: string) => (chunks.push(text), true) }, text: () => chunks.join('') };
}

/** The session at zero latency on a manual clock: nothing sleeps for real. */
async function session(): Promise<{ outcome: DemoSessionOutcome; output: string }> {
  const out = collector();
  const outcome = await runDemoSession({ out: out.sink, tty: false, latencyScale: 0, clock: manualClock() });
  return { outcome, output: out.text() };
}

const byPath = (outcome: DemoSessionOutcome, path: string) => {
  const found = outcome.results.filter((r) => r.path === path);
  expect(found, `results for ${path}`).toHaveLength(1);
  return found[0]!;
};

/** The user-entry texts of the first request an agent sent. */
const firstRequestTexts = (outcome: DemoSessionOutcome, path: string): string[] => {
  const call = outcome.model!.calls.find((c) => c.agentPath === path);
  if (!call) throw new Error(`${path} never sampled`);
  return call.request.messages.toArray().flatMap((e) => (e.kind === 'user' ? [e.text] : []));
};

describe('demo session', () => {
  it('spawns with every context value and labels each result with it', async () => {
    const { outcome } = await session();
    expect(byPath(outcome, DEMO_PATHS.audit)).toMatchObject({ context: 'none', contextMode: 'none', role: 'reviewer', status: 'completed' });
    expect(byPath(outcome, DEMO_PATHS.tests)).toMatchObject({ context: '2', contextMode: 'turns', status: 'completed' });
    expect(byPath(outcome, DEMO_PATHS.notes)).toMatchObject({ context: 'all', contextMode: 'all' });
    expect(byPath(outcome, DEMO_PATHS.migration)).toMatchObject({ context: 'summary', contextMode: 'summary', role: 'researcher', status: 'completed' });
    expect(new Set(outcome.results.map((r) => r.context))).toEqual(new Set(['none', 'all', '2', 'summary']));
  });

  it('delivers exactly one result per spawned path, and frees every slot', async () => {
    const { outcome } = await session();
    const paths = outcome.results.map((r) => r.path);
    expect(new Set(paths).size).toBe(paths.length);
    expect([...paths].sort()).toEqual([...outcome.spawned].sort());
    expect([...outcome.spawned].sort()).toEqual(Object.values(DEMO_PATHS).sort());
    expect(outcome.slotsInUseAtEnd).toBe(0);
    expect(outcome.runtime.slotsInUse).toBe(0);
    expect(outcome.runtime.list()).toEqual([]);
  });

  it('cancels the benchmark subtree, the worker before the job that spawned it', async () => {
    const { outcome } = await session();
    expect(byPath(outcome, DEMO_PATHS.runner)).toMatchObject({ status: 'cancelled', stopReason: 'cancelled', context: 'all' });
    expect(byPath(outcome, DEMO_PATHS.bench)).toMatchObject({ status: 'cancelled', stopReason: 'cancelled', context: 'none' });
    const order = outcome.results.map((r) => r.path);
    expect(order.indexOf(DEMO_PATHS.runner)).toBeLessThan(order.indexOf(DEMO_PATHS.bench));
    const root = outcome.runtime.results.find((r) => r.path === '/root');
    expect(root?.status).toBe('cancelled'); // stopped by the session's end, after every subagent reported
  });

  it('the continuable subagent takes a send_message follow-up, then is closed after 2 turns', async () => {
    const { outcome } = await session();
    expect(byPath(outcome, DEMO_PATHS.notes)).toMatchObject({ status: 'completed', stopReason: 'closed', turns: 2 });
    expect(byPath(outcome, DEMO_PATHS.notes).text).toContain('draft v2');
    const followUp = outcome.model!.calls.find((c) => c.agentPath === DEMO_PATHS.notes && c.turn === 1);
    const last = followUp?.request.messages.at(followUp.request.messages.length - 1);
    expect(last?.kind === 'user' && last.origin).toEqual({ kind: 'message', from: '/root' });
  });

  it('seeds each subagent with the context its value names', async () => {
    const { outcome } = await session();
    // none: only the framed task, with the project context and the role's instructions.
    const audit = firstRequestTexts(outcome, DEMO_PATHS.audit);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toContain(PROJECT_CONTEXT.split('\n')[0]);
    expect(audit[0]).toContain('release reviewer');
    expect(audit[0]).not.toContain(PERSON_PROMPTS[0]);
    // 2: the last two turns (the active one counts), not the first.
    const tests = firstRequestTexts(outcome, DEMO_PATHS.tests);
    expect(tests).toContain(PERSON_PROMPTS[1]);
    expect(tests).toContain(PERSON_PROMPTS[2]);
    expect(tests).not.toContain(PERSON_PROMPTS[0]);
    // all: every turn.
    expect(firstRequestTexts(outcome, DEMO_PATHS.notes)).toEqual(expect.arrayContaining([...PERSON_PROMPTS]));
    // summary: generated background, no copied turns.
    const migration = firstRequestTexts(outcome, DEMO_PATHS.migration);
    expect(migration[0]).toMatch(/^Background \(from \d+ entries/);
    expect(migration.some((t) => PERSON_PROMPTS.includes(t))).toBe(false);
    expect(outcome.model!.summaryCalls.map((s) => s.agentPath)).toEqual([DEMO_PATHS.migration]);
  });

  it('uses the agent definitions, the host spawn policy and the task hook', async () => {
    const { outcome } = await session();
    expect(outcome.warnings).toEqual([]);
    const audit = byPath(outcome, DEMO_PATHS.audit);
    // The reviewer's tool allow list changes its head: it shares less than the head it inherited, and says why.
    expect(audit.prefix.reasons.length).toBeGreaterThan(0);
    expect(audit.prefix.sharedBytes).toBeLessThan(audit.prefix.inheritedBytes);
    // Forks share exactly the whole frames their first request has in common with the request that spawned them.
    const spawning = outcome.model!.calls.find((c) => c.agentPath === '/root' && c.turn === 2 && c.step === 0)!.request;
    for (const path of [DEMO_PATHS.tests, DEMO_PATHS.notes]) {
      const first = outcome.model!.calls.find((c) => c.agentPath === path)!.request;
      expect(byPath(outcome, path).prefix.sharedBytes, path).toBe(sharedFrameBytes(spawning, first));
    }
    // The last two turns leave the first out; the full fork inherits the reply's text, which the spawning request did not hold.
    expect(byPath(outcome, DEMO_PATHS.tests).prefix.reasons).toEqual(['turns_window']);
    expect(byPath(outcome, DEMO_PATHS.notes).prefix.reasons).toEqual(['newer_entries']);
    const rows = new Map(outcome.rows.map((r) => [r.path, r]));
    expect(rows.get(DEMO_PATHS.bench)).toMatchObject({ delivery: 'parent', lifetime: 'one-shot' });
    expect(rows.get(DEMO_PATHS.notes)).toMatchObject({ delivery: 'caller', lifetime: 'continuable' });
    expect(rows.get(DEMO_PATHS.audit)).toMatchObject({ delivery: 'caller', lifetime: 'one-shot' });
    expect(firstRequestTexts(outcome, DEMO_PATHS.tests).at(-1)).toContain('Release policy: read-only');
    expect(outcome.rootReplies.at(-1)).toMatch(/^Release prep for 2\.0/);
  });

  it('prints one line per state change when the output is not a terminal', async () => {
    const { output } = await session();
    const line = (path: string, state: string, context: string) =>
      new RegExp(`^\\[\\s*\\d+\\.\\d{2}s\\] ${path.replace(/\//g, '\\/')}\\s+${state.replace(/[.()]/g, '\\$&')}\\s+\\(context: ${context}[,)]`, 'm');
    expect(output).toMatch(line(DEMO_PATHS.tests, 'reserved.runningHooks', '2'));
    expect(output).toMatch(line(DEMO_PATHS.tests, 'running.working.sampling', '2'));
    expect(output).toMatch(line(DEMO_PATHS.migration, 'preparingSummary', 'summary'));
    expect(output).toMatch(line(DEMO_PATHS.notes, 'running.idle', 'all'));
    expect(output).toMatch(line(DEMO_PATHS.notes, 'settled (closed)', 'all'));
    expect(output).toMatch(line(DEMO_PATHS.runner, 'cancelled', 'all'));
    expect(output).toMatch(line(DEMO_PATHS.audit, 'settled (completed)', 'none'));
    expect(output).toMatch(/^\[\s*\d+\.\d{2}s\] person ▸ Prepare the 2\.0 release/m);
    // The coordination calls are narrated as the replies arrive.
    expect(output).toMatch(/^\[\s*\d+\.\d{2}s\] \/root ▸ Agent → migration-check \(role researcher, context \(the role's default\)\)$/m);
    expect(output).toMatch(/^\[\s*\d+\.\d{2}s\] \/root\/benchmarks ▸ Agent → bench-runner \(context all\)$/m);
    expect(output).toMatch(/^\[\s*\d+\.\d{2}s\] \/root ▸ cancel_agent → \/root\/benchmarks$/m);
    expect(output).toMatch(/^\[\s*\d+\.\d{2}s\] \/root ▸ send_message → \/root\/release-notes: "Please revise/m);
    expect(output).toMatch(/^\[\s*\d+\.\d{2}s\] \/root ▸ close_agent → \/root\/release-notes$/m);
    expect(output.indexOf('close_agent →')).toBeGreaterThan(output.indexOf('cancel_agent →'));
    expect(output).not.toContain('\u001b['); // no escape codes in a pipe
    expect(output).not.toMatch(/child agent/i);
  });
});
