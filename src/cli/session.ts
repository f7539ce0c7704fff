/**
 * One scripted demo session from start to stop: load the agent definitions, build the
 * runtime, show the live tree, play the person's prompts, wait until every subagent has
 * reported, stop. Exported so tests run the very session `npm run demo` shows, at zero
 * latency and with the tree view writing to a string.
 */
import {
  createRuntime,
  resumeRuntime,
  type SessionStore,
  loadDefinitions,
  modelSummarizer,
  type AgentResult,
  type ModelAdapter,
  type Runtime,
  type RuntimeOptions,
} from '../index.js';
import { scriptedModel, systemClock, type Clock, type ScriptedModel } from '../testing/index.js';
import { AGENTS_DIR, demoRuntimeOptions, demoScript, PERSON_PROMPTS } from './demo-script.js';
import type { TextSink } from './format.js';
import { Narrator } from './narration.js';
import { preview, TreeView, type TreeRow } from './tree-view.js';
import { SessionWatch } from './watch.js';

/** Options of {@link runDemoSession}. */
export interface DemoSessionOptions {
  /** Where the live tree and narration go. */
  readonly out: TextSink;
  /** Redraw in place (default `out.isTTY`), or print one line per state change. */
  readonly tty?: boolean;
  /** ANSI colors in the tree (default: on for a TTY unless `NO_COLOR`). */
  readonly color?: boolean;
  /** Multiplies every scripted latency: 1 (default) for people, 0 for tests. */
  readonly latencyScale?: number;
  /** Where scripted latencies are waited out (default the system clock; tests pass `manualClock()`). */
  readonly clock?: Clock;
  /** Time source for elapsed times (default `Date.now`). */
  readonly now?: () => number;
  /** Minimum ms between TTY redraws (default 80). */
  readonly redrawMs?: number;
  /** Directory of agent definitions (default `examples/agents`). */
  readonly agentsDir?: string;
  /** An XState inspection observer for the whole tree. */
  readonly inspect?: RuntimeOptions['inspect'];
  /** Called with the runtime right after it is created (before any prompt). */
  readonly onRuntime?: (runtime: Runtime) => void;
  /** Aborting stops the session (the runtime cancels every agent) and rejects. */
  readonly signal?: AbortSignal;
  /**
   * A real model (`--live`): the session keeps its roles, tools, hooks and prompts, but the
   * model decides what to delegate. It ends when the last prompt's turn is over and the tree
   * is quiet; subagents still open then are cancelled.
   */
  readonly liveModel?: { readonly adapter: ModelAdapter; readonly modelId: string };
  /** Journals the session to this store; with `resume`, resumes the session it holds. */
  readonly store?: SessionStore;
  readonly resume?: boolean;
  /** Traces the session with OpenTelemetry (`--otlp URL`). */
  readonly telemetry?: RuntimeOptions['telemetry'];
}

/** What a finished session leaves. */
export interface DemoSessionOutcome {
  /** The runtime, already stopped. */
  readonly runtime: Runtime;
  /** The scripted model (undefined in live mode). */
  readonly model: ScriptedModel | undefined;
  /** Model requests made (every agent, summaries excluded). */
  readonly modelRequests: number;
  /** Every subagent's result, in delivery order (the root's own cancellation by `stop` excluded). */
  readonly results: readonly AgentResult[];
  /** Every subagent path the session started, in order of first appearance. */
  readonly spawned: readonly string[];
  /** The tree as the view last showed it. */
  readonly rows: readonly TreeRow[];
  /** What the root said at the end of each of its turns. */
  readonly rootReplies: readonly string[];
  /** Warnings from loading the agent definitions. */
  readonly warnings: readonly string[];
  /** `runtime.slotsInUse` after the last subagent reported, before `stop`. */
  readonly slotsInUseAtEnd: number;
}

/** Runs the scripted session; resolves after every subagent reported and the runtime stopped. */
export async function runDemoSession(options: DemoSessionOptions): Promise<DemoSessionOutcome> {
  const scale = options.latencyScale ?? 1;
  const ms = (n: number): number => Math.round(n * scale);
  const clock = options.clock ?? systemClock;

  // Strict: the demo's own roles must all load.
  const loaded = await loadDefinitions([{ path: options.agentsDir ?? AGENTS_DIR, scope: 'examples' }], { strict: true });
  const watch = new SessionWatch();
  const live = options.liveModel;
  const model = live ? undefined : scriptedModel(demoScript({ ms, watch }), { clock, cache: true, chunkSize: 24 });
  const adapter: ModelAdapter = live?.adapter ?? model!;
  let modelRequests = 0;
  const runtimeOptions = {
    model: countingModel(adapter, () => modelRequests++),
    summarizer: live ? modelSummarizer(live.adapter, { model: live.modelId }) : model!,
    ...(live ? { modelId: live.modelId } : {}),
    roles: loaded.definitions.values(),
    sessionId: 'demo-release-2.0',
    ...demoRuntimeOptions(clock, ms),
    ...(options.now ? { now: options.now } : {}),
    ...(options.inspect ? { inspect: options.inspect } : {}),
    ...(options.store ? { store: options.store } : {}),
    ...(options.telemetry ? { telemetry: options.telemetry } : {}),
  };
  const store = options.store;
  const runtime = options.resume && store ? resumeRuntime({ ...runtimeOptions, store }) : createRuntime(runtimeOptions);
  options.onRuntime?.(runtime);

  const view = new TreeView({
    out: options.out,
    ...(options.tty !== undefined ? { tty: options.tty } : {}),
    ...(options.color !== undefined ? { color: options.color } : {}),
    ...(options.redrawMs !== undefined ? { redrawMs: options.redrawMs } : {}),
    ...(options.now ? { now: options.now } : {}),
    title: `subagent-actors demo · session ${runtime.sessionId}`,
  });
  const narrator = new Narrator((who, text) => view.log(who, text));
  const rootReplies: string[] = [];
  // One reader feeds the view, the narration and the watch the script waits on, in that
  // order, so whatever the session waited for has already been shown.
  const reading = new AbortController();
  const events = runtime.events({ signal: reading.signal });
  view.follow(runtime);
  watch.seed(runtime);
  void (async () => {
    for await (const event of events) {
      view.handle(event);
      narrator.handle(event);
      if (event.type === 'turn-ended' && event.path === runtime.rootPath) {
        rootReplies.push(event.report.text);
        view.log(event.path, preview(event.report.text, 150));
      }
      watch.handle(event);
    }
  })();
  for (const warning of loaded.warnings) view.log('warning', warning);
  try {
    // A resumed session plays only the prompts it had not received (its turns in progress finish first).
    const given = personPrompts(runtime);
    if (given > 0) await runtime.whenQuiet();
    // A session that was stopped before its journal was resumed has nothing left to do.
    const stopped = runtime.stateOf(runtime.rootPath) === undefined;
    for (const [turn, prompt] of PERSON_PROMPTS.entries()) {
      if (turn < given || stopped) continue;
      view.log('person', preview(prompt, 150));
      runtime.prompt(prompt);
      await watch.until(() => watch.turnEnded(runtime.rootPath, turn) && !watch.isIn(runtime.rootPath, 'running.working'), options.signal);
    }
    // Every subagent reports exactly once; wait for the last report, then for quiet (as the
    // stream shows it, so the view is up to date). A live model may leave continuable
    // subagents open: after quiet, stop() cancels (and reports) them.
    if (!live && !stopped) await watch.until(() => watch.ended || (watch.allSettled && runtime.slotsInUse === 0), options.signal);
    await runtime.whenQuiet();
    await watch.until(() => watch.quiet, options.signal);
    const results = runtime.results.filter((r) => r.path !== runtime.rootPath);
    const slotsInUseAtEnd = runtime.slotsInUse;
    return { runtime, model, modelRequests, results, spawned: watch.subagents, rows: view.snapshot, rootReplies, warnings: loaded.warnings, slotsInUseAtEnd };
  } finally {
    reading.abort();
    view.stop();
    runtime.stop('demo finished');
  }
}

/** How many person prompts the root's dialogue holds (0 for a new session, or a finished one). */
function personPrompts(runtime: Runtime): number {
  let count = 0;
  for (const entry of runtime.transcript(runtime.rootPath)?.log ?? []) if (entry.kind === 'user' && entry.origin.kind === 'person') count++;
  return count;
}

/** The session's model, counting its requests. */
function countingModel(model: ModelAdapter, counted: () => void): ModelAdapter {
  return {
    name: model.name,
    sample(request, context) {
      counted();
      return model.sample(request, context);
    },
  };
}
