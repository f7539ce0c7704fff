/**
 * The demo's story, fully scripted: a person asks the root agent to prepare the 2.0 release
 * of a (fictional) HTTP client library, and the root delegates the work to subagents with
 * every context value. No network, no API key: replies come from `scriptedModel`, tools
 * return canned repository data.
 *
 * What the script shows, in order:
 * - two warm-up turns, so the root has history worth forking;
 * - one step spawning five subagents: `none` (a reviewer role), `2` (the last two turns),
 *   `all` (a continuable fork), `summary` (the researcher role's default) and a
 *   parent-delivery job that itself spawns a worker;
 * - `cancel_agent` on that job's subtree, a `send_message` follow-up to the continuable
 *   subagent, and `close_agent` once its second turn is in.
 *
 * Scripted steps that depend on another agent's progress wait on runtime events
 * ({@link SessionWatch}), so the order is the same at any latency, zero included.
 */
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import {
  defineRuntimeTool,
  type RuntimeOptions,
  type RuntimeTool,
  type SpawnPolicyDecision,
  type SpawnPolicyInput,
  type TaskHook,
} from '../index.js';
import type { Clock, Script, ScriptFn, ScriptReply, ScriptToolCall } from '../testing/index.js';
import type { SessionWatch } from './watch.js';

/** Where the demo's agent definitions live. */
export const AGENTS_DIR = fileURLToPath(new URL('../../examples/agents/', import.meta.url));

/** The project's trusted context file, as an `AGENTS.md` would hold it. */
export const PROJECT_CONTEXT = [
  '# AGENTS.md — kite (an HTTP client for Node)',
  '- TypeScript, ESM, Node 20+. Build with `npm run build`, test with `npm test` (vitest).',
  '- CHANGELOG.md follows Keep a Changelog; every user-visible change needs an entry.',
  '- Every breaking change needs a section in docs/migration/2.0.md.',
  '- Agents never push tags or publish to npm; a maintainer does that by hand.',
].join('\n');

/** The root's system prompt. */
export const ROOT_SYSTEM_PROMPT =
  'You are the lead engineering agent of the kite repository. Delegate independent pieces of work to subagents with the Agent tool, ' +
  'choosing for each how much of this conversation it needs (context: none, all, a number of recent turns, or summary). ' +
  'Talk to running agents with send_message.';

/** What the person types, one prompt per root turn. */
export const PERSON_PROMPTS: readonly string[] = [
  "We're cutting kite 2.0 this week. Quick sanity check: what changed since 1.9?",
  'Heads-up: CI on main is red since yesterday. test/retry/backoff.test.ts and test/transport/fetch-abort.test.ts fail.',
  'Prepare the 2.0 release: audit the changelog against the merged PRs, find out why those two tests fail, draft the release notes, ' +
    'check that the migration guide covers every breaking change, and tell me whether the benchmark suite is worth running before we tag.',
];

/** Paths the story spawns, for tests and docs. */
export const DEMO_PATHS = {
  audit: '/root/changelog-audit',
  tests: '/root/failing-tests',
  notes: '/root/release-notes',
  migration: '/root/migration-check',
  bench: '/root/benchmarks',
  runner: '/root/benchmarks/bench-runner',
} as const;

/** The host's per-spawn decisions: the model never picks delivery or lifetime. */
export function demoSpawnPolicy(input: SpawnPolicyInput): SpawnPolicyDecision | undefined {
  // Forks are continuable by default, so the release-notes writer (a fork) stays open for
  // revisions. The test triage is a fork whose one answer is all the root needs: one-shot.
  // The long benchmark job reports to the inbox later.
  if (input.parentPath === '/root' && input.taskName === 'failing-tests') return { lifetime: 'one-shot' };
  if (input.parentPath === '/root' && input.taskName === 'benchmarks') return { delivery: 'parent' };
  return undefined;
}

/** Waits `ms` on the clock (nothing at all for 0). */
async function pause(clock: Clock, ms: number, signal: AbortSignal): Promise<void> {
  if (ms > 0) await clock.sleep(ms, signal);
}

/** The host's task hook: vets every spawn against the release policy and appends it. */
export function releasePolicyHook(clock: Clock, ms: (n: number) => number): TaskHook {
  return async (input, signal) => {
    await pause(clock, ms(150), signal);
    if (/\b(npm publish|git push --tags)\b/.test(input.task)) return { allow: false, reason: 'publishing is for maintainers only' };
    return { allow: true, task: `${input.task}\n\nRelease policy: read-only. Do not push tags or publish.` };
  };
}

const FILES: Readonly<Record<string, string>> = {
  'CHANGELOG.md': [
    '## [Unreleased]',
    '### Changed',
    '- Retry options rewritten: `retry: { limit, backoff }` (#412).',
    '- Removed the `retries` option (#422).',
    '- fetch is the default transport (#405).',
    '### Fixed',
    '- New `kite.stream()` for streaming response bodies (#418).',
    '### Removed',
    '- Node 18 support (#399).',
  ].join('\n'),
  'src/retry/backoff.ts': 'export function delay(attempt, { base, maxDelay }) {\n  const capped = Math.min(base * 2 ** attempt, maxDelay);\n  return capped + jitter(capped); // jitter added after the cap\n}',
  'src/transport/fetch.ts': "} catch (err) {\n  if (err.name === 'AbortError') throw new KiteAbortError(err);\n  throw err;\n}",
  'docs/migration/2.0.md': '# Migrating to 2.0\n## Node 20 or later\n## `retries` → `retry: { limit, backoff }`\n(examples for both)',
};

/** The host's tools, with canned answers from a fictional repository. */
export function demoTools(clock: Clock, ms: (n: number) => number): RuntimeTool[] {
  return [
    defineRuntimeTool({
      name: 'read_file',
      description: 'Reads a text file of the repository.',
      schema: z.object({ path: z.string().min(1) }),
      execute: async ({ path }, { signal }) => {
        await pause(clock, ms(60), signal);
        const text = FILES[path];
        return text ?? { content: `no such file: ${path}`, isError: true };
      },
    }),
    defineRuntimeTool({
      name: 'git_log',
      description: 'Lists the pull requests merged in a git revision range.',
      schema: z.object({ range: z.string().min(1) }),
      execute: async ({ range }, { signal }) => {
        await pause(clock, ms(80), signal);
        return `${range}: 41 merged PRs, among them #399 drop Node 18, #405 fetch default transport, #412 retry rewrite, #418 kite.stream(), #422 remove retries, #431 undici 6 (requires Node 20)`;
      },
    }),
    defineRuntimeTool({
      name: 'run_tests',
      description: 'Runs the test files matching a pattern and returns the failures.',
      schema: z.object({ pattern: z.string().min(1) }),
      execute: async (_args, { signal }) => {
        await pause(clock, ms(250), signal);
        return [
          'FAIL test/retry/backoff.test.ts > caps every delay at maxDelay: expected 31234 to be <= 30000',
          "FAIL test/transport/fetch-abort.test.ts > rejects with KiteAbortError: got TypeError('fetch failed') { cause: AbortError }",
          'Tests: 2 failed, 186 passed',
        ].join('\n');
      },
    }),
    defineRuntimeTool({
      name: 'run_bench',
      description: 'Runs the benchmark suite against a git revision (takes about 20 minutes).',
      schema: z.object({ revisions: z.array(z.string()).min(1) }),
      // Never scaled: the job is long on purpose, and its subtree gets cancelled.
      execute: async (_args, { signal }) => {
        await clock.sleep(20 * 60_000, signal);
        return 'bench: done';
      },
    }),
  ];
}

const agent = (taskName: string, message: string, extra: Record<string, string | number> = {}): ScriptToolCall => ({
  name: 'Agent',
  arguments: { task_name: taskName, message, ...extra },
});

const lastUserText = (request: Parameters<ScriptFn>[0]): string => {
  const entries = request.messages.toArray();
  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i];
    if (entry?.kind === 'user') return entry.text;
  }
  return '';
};

/** The root's answer to anything it is woken by after the story (a late notice, say). */
const rootFallback: ScriptFn = (request) => {
  const text = lastUserText(request);
  const from = /"agent_id":"([^"]+)"/.exec(text)?.[1];
  return { text: from ? `Noted the update from ${from}; nothing else to do for it.` : 'Noted.' };
};

/** Options of {@link demoScript}. */
export interface DemoScriptOptions {
  /** Scales every scripted latency (1 for the demo, 0 for tests). */
  readonly ms: (n: number) => number;
  /** Lets scripted steps wait for other agents' progress. */
  readonly watch: SessionWatch;
}

/** The whole session's script. */
export function demoScript({ ms, watch }: DemoScriptOptions): Script {
  const reply = (latency: number, r: Omit<ScriptReply, 'latencyMs'>): ScriptReply => ({ ...r, latencyMs: ms(latency) });

  return [
    {
      match: '/root',
      script: {
        0: [
          reply(350, {
            text:
              'Since v1.9.0: 41 merged PRs. The big ones: the retry API was rewritten (`retry: { limit, backoff }` replaces `retries`), ' +
              'Node 18 support was dropped, fetch became the default transport, and `kite.stream()` is new.',
          }),
        ],
        1: [
          reply(300, {
            text:
              'Noted. Both failing tests touch code from the retry rewrite (#412) and the undici 6 bump (#431); they may be two separate causes.',
          }),
        ],
        2: [
          reply(400, {
            text: 'Splitting this five ways; each subagent gets only the context it needs.',
            toolCalls: [
              agent('changelog-audit', 'Audit the Unreleased section of CHANGELOG.md against the PRs merged in v1.9.0..main. List missing or misfiled entries.', {
                role: 'reviewer',
                context: 'none',
              }),
              agent('failing-tests', 'Find out why the two failing tests fail on main. Report the cause of each and a suggested fix; do not change code yet.', {
                context: 2,
              }),
              agent('release-notes', 'Draft the GitHub release notes for kite 2.0 from what we know so far: highlights, then breaking changes. Under 200 words.', {
                context: 'all',
              }),
              agent('migration-check', 'Check that docs/migration/2.0.md covers every breaking change of 2.0 and list what is missing.', { role: 'researcher' }),
              agent('benchmarks', 'Compare the benchmark suite on v1.9.0 and main, and report throughput changes over 5%.', { context: 'none' }),
            ],
          }),
          // Step 1: the benchmark job is out of scope for a docs-and-fixes release; stop its subtree.
          async (_request, context) => {
            await watch.until(() => watch.reached('/root/benchmarks/bench-runner', 'running.working.acting'), context.signal);
            return reply(300, {
              text:
                'No perf-relevant changes since 1.9, and the suite takes 20 minutes: cancelling the benchmark job. ' +
                'Asking the release-notes writer to fold in the audit findings.',
              toolCalls: [
                { name: 'cancel_agent', arguments: { agent_id: '/root/benchmarks' } },
                {
                  name: 'send_message',
                  arguments: {
                    agent_id: '/root/release-notes',
                    message:
                      'Please revise: add the undici 6 bump (#431, requires Node 20) under Breaking changes, and a Known issues line saying the two CI failures are fixed before tagging.',
                  },
                },
              ],
            });
          },
          // Step 2: once the writer's revision is in, close it.
          async (_request, context) => {
            await watch.until(() => watch.turnEnded('/root/release-notes', 1), context.signal);
            return reply(250, { text: 'Revision received; closing the writer.', toolCalls: [{ name: 'close_agent', arguments: { agent_id: '/root/release-notes' } }] });
          },
          reply(450, {
            text:
              'Release prep for 2.0: (1) CHANGELOG has 3 gaps: #431 missing, #418 misfiled under Fixed, #422 belongs under Removed. ' +
              '(2) Two release blockers: jitter is applied after the backoff cap, and undici 6 wraps AbortError in a TypeError. ' +
              '(3) The migration guide lacks the fetch default transport and the new abort error shape. ' +
              '(4) Release notes v2 are drafted. (5) Benchmarks skipped. Next: fix the two blockers, then tag.',
          }),
        ],
      },
    },
    { match: '/root', script: rootFallback },
    {
      match: '/root/changelog-audit',
      script: {
        0: [
          reply(450, {
            toolCalls: [
              { name: 'read_file', arguments: { path: 'CHANGELOG.md' } },
              { name: 'git_log', arguments: { range: 'v1.9.0..main' } },
            ],
          }),
          reply(550, {
            text:
              'Changelog audit, 3 findings. 1. #431 (undici 6, requires Node 20) has no entry; it is breaking. ' +
              '2. #418 `kite.stream()` is listed under Fixed; it belongs under Added. ' +
              '3. #422 (removal of `retries`) is under Changed; move it to Removed and link the migration guide. The other 38 PRs match.',
          }),
        ],
      },
    },
    {
      match: '/root/failing-tests',
      script: {
        0: [
          reply(350, { toolCalls: [{ name: 'run_tests', arguments: { pattern: 'test/retry/backoff.test.ts test/transport/fetch-abort.test.ts' } }] }),
          reply(300, {
            toolCalls: [
              { name: 'read_file', arguments: { path: 'src/retry/backoff.ts' } },
              { name: 'read_file', arguments: { path: 'src/transport/fetch.ts' } },
            ],
          }),
          reply(500, {
            text:
              'Two separate causes, both release blockers. backoff.test.ts: since #412 jitter is added after the cap, so delays can exceed maxDelay ' +
              '(31234 > 30000); clamp after adding jitter. fetch-abort.test.ts: undici 6 (#431) rejects with TypeError whose cause is the AbortError, ' +
              'and src/transport/fetch.ts only checks err.name; unwrap err.cause first.',
          }),
        ],
      },
    },
    {
      match: '/root/release-notes',
      script: {
        0: [
          reply(700, {
            text:
              '## kite 2.0 (draft v1)\nHighlights: fetch is the default transport; `kite.stream()` streams response bodies.\n' +
              'Breaking changes: Node 18 is no longer supported; `retries` is replaced by `retry: { limit, backoff }` (see docs/migration/2.0.md).',
          }),
        ],
        1: [
          reply(600, {
            text:
              '## kite 2.0 (draft v2)\nHighlights: fetch is the default transport; `kite.stream()` streams response bodies.\n' +
              'Breaking changes: Node 20 or later is required (undici 6, #431); `retries` is replaced by `retry: { limit, backoff }`.\n' +
              'Known issues: none; the two CI failures on main are fixed before tagging.',
          }),
        ],
      },
    },
    {
      match: '/root/migration-check',
      script: {
        summary: (input) => ({
          text:
            `Background (from ${input.entries.length} entries of the lead agent's conversation): kite 2.0 breaking changes so far are the retry ` +
            'rewrite (`retries` → `retry: { limit, backoff }`, #412/#422), the Node 18 drop, and fetch as the default transport (#405). ' +
            'CI on main is red (backoff and fetch-abort tests), which another worker investigates.',
          latencyMs: ms(500),
          usage: { inputTokens: 1_450, outputTokens: 96 },
        }),
        0: [
          reply(350, { toolCalls: [{ name: 'read_file', arguments: { path: 'docs/migration/2.0.md' } }] }),
          reply(450, {
            text:
              'The guide covers the Node 20 requirement and the retry rewrite, with examples. Missing: (1) fetch as the default transport ' +
              "(http transport users must opt in with `transport: 'http'`); (2) the abort error shape under undici 6 (check `err.cause`).",
          }),
        ],
      },
    },
    {
      match: '/root/benchmarks',
      script: {
        0: [
          reply(300, {
            text: 'The suite is long; handing the run to a worker.',
            toolCalls: [agent('bench-runner', 'Run the benchmark suite on v1.9.0 and on main, 5 iterations each, and return the raw numbers.', { context: 'all' })],
          }),
          reply(300, { text: 'Throughput is within 2% of v1.9.0 on every benchmark.' }),
        ],
      },
    },
    {
      match: '/root/benchmarks/bench-runner',
      script: {
        0: [
          reply(250, { toolCalls: [{ name: 'run_bench', arguments: { revisions: ['v1.9.0', 'main'] } }] }),
          reply(200, { text: 'raw numbers attached' }),
        ],
      },
    },
  ];
}

/** The runtime options of the demo that do not depend on the host's terminal. */
export function demoRuntimeOptions(
  clock: Clock,
  ms: (n: number) => number,
): Pick<RuntimeOptions, 'projectContext' | 'systemPrompt' | 'spawnPolicy' | 'tools' | 'taskHooks' | 'idempotentTools'> {
  return {
    projectContext: PROJECT_CONTEXT,
    systemPrompt: ROOT_SYSTEM_PROMPT,
    spawnPolicy: demoSpawnPolicy,
    tools: demoTools(clock, ms),
    // The demo's tools only read, so a call a crash interrupted runs again on --resume.
    idempotentTools: ['read_file', 'git_log', 'run_tests', 'run_bench'],
    taskHooks: [releasePolicyHook(clock, ms)],
  };
}
