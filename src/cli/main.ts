/**
 * The demo's command: flags, optional inspection and the local viewer, the live session,
 * the results report, then (with `--view` or `--inspect`) the pages served until asked.
 */
import { HELP, parseDemoArgs, type DemoArgs } from './args.js';
import { formatResults, palette, wrap, type TextSink } from './format.js';
import { startLiveViewer, type LiveViewer } from './live-viewer.js';
import { combineObservers, loadInspector, loadRecorder, type OptionalFeature } from './optional.js';
import { runDemoSession } from './session.js';
import { runGovernanceDemo } from './governance-demo.js';
import { startOtlp, type OtlpTracing } from './otlp.js';
import { loadLiveModel, parseLiveSpec, type Importer } from './live.js';
import type { ModelAdapter, SessionStore } from '../index.js';
import { demoStore } from './journal-store.js';
import type { Clock } from '../model/clock.js';
import type { ServedViewer } from '../viewer/server.js';

/** The demo's session id (its journal file is named after it). */
const SESSION_ID = 'demo-release-2.0';

/** Where the command writes, and what it listens to. */
export interface CliIo {
  readonly out: TextSink;
  readonly err: TextSink;
  /** Aborts the session (the entry point wires it to SIGINT); after the session, stops serving pages. */
  readonly signal?: AbortSignal;
  /**
   * With `--view` or `--inspect`, resolves when the person asks to stop serving the pages
   * (the entry point waits for Enter on a terminal). Without it, only the viewer's Stop
   * button and the signal stop them.
   */
  readonly untilEnter?: () => Promise<void>;
  /** Imports `--live` provider packages (tests inject one; default dynamic import). */
  readonly importer?: Importer;
  /** The viewer page's folder (default: the package's built page). */
  readonly pageDir?: string;
  /** Where the script's latencies are waited out (default the system clock; tests pass `manualClock()`). */
  readonly clock?: Clock;
  /** Time source for elapsed times (default `Date.now`; tests that compare runs pass a fixed one). */
  readonly now?: () => number;
  /** Called once the `--view` viewer is served (tests open it from here). */
  readonly onViewer?: (viewer: ServedViewer) => void;
}

/** Runs the demo command for `argv` (flags only); resolves with the exit code. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  let args: DemoArgs;
  try {
    args = parseDemoArgs(argv);
  } catch (error) {
    io.err.write(`${error instanceof Error ? error.message : String(error)}\n\n${HELP}\n`);
    return 2;
  }
  if (args.help) {
    io.out.write(`${HELP}\n`);
    return 0;
  }
  const { out, err } = io;
  const tty = out.isTTY === true;
  const color = args.color && tty && process.env['NO_COLOR'] === undefined;
  const p = palette(color);

  const features: OptionalFeature[] = [];
  let viewing: LiveViewer | undefined;
  let store: SessionStore | undefined;
  let tracing: OtlpTracing | undefined;
  try {
    if (args.otlp !== undefined) {
      const started = await startOtlp(args.otlp);
      if ('unavailable' in started) err.write(`${p.yellow('note:')} ${started.unavailable}\n`);
      else {
        tracing = started;
        err.write(`${p.cyan('note:')} ${started.note}\n`);
      }
    }
    const wanted = [...(args.inspect ? [loadInspector()] : []), ...(args.record !== undefined ? [loadRecorder(args.record)] : [])];
    for (const loaded of await Promise.all(wanted)) {
      if ('unavailable' in loaded) err.write(`${p.yellow('note:')} ${loaded.unavailable}\n`);
      else {
        features.push(loaded);
        err.write(`${p.cyan('note:')} ${loaded.note}\n`);
      }
    }
    if (args.view) {
      const started = await startLiveViewer({ sessionId: SESSION_ID, ...(io.pageDir !== undefined ? { pageDir: io.pageDir } : {}) });
      if ('unavailable' in started) err.write(`${p.yellow('note:')} ${started.unavailable}\n`);
      else {
        viewing = started;
        err.write(`${p.cyan('note:')} ${started.note}\n`);
        io.onViewer?.(started.viewer);
      }
    }
    const inspect = combineObservers([...features.map((f) => f.inspect), ...(viewing ? [viewing.live.inspect] : [])]);
    let liveModel: { adapter: ModelAdapter; modelId: string } | undefined;
    if (args.live !== undefined) {
      try {
        const spec = parseLiveSpec(args.live);
        liveModel = { adapter: await (io.importer ? loadLiveModel(spec, io.importer) : loadLiveModel(spec)), modelId: spec.modelId };
        err.write(`${p.cyan('note:')} live mode: ${spec.provider} model ${spec.modelId} decides what to delegate\n`);
      } catch (error) {
        err.write(`${error instanceof Error ? error.message : String(error)}\n`);
        return 2;
      }
    }

    try {
      store = demoStore(args, SESSION_ID);
    } catch (error) {
      err.write(`${error instanceof Error ? error.message : String(error)}\n`);
      return 2;
    }
    if (store) err.write(`${p.cyan('note:')} ${args.resume !== undefined ? 'resuming the session journaled in' : 'journaling the session to'} ${store.location}\n`);
    // The viewer reads transcripts, usage and results from the journal's records as they are written.
    const journal = viewing ? viewing.live.store(store) : store;

    try {
      out.write(`${p.bold('subagent-actors demo')}: the root agent prepares the kite 2.0 release with subagents\n\n`);
      const outcome = await runDemoSession({
        out,
        tty,
        color,
        latencyScale: args.speed,
        ...(liveModel ? { liveModel } : {}),
        ...(inspect ? { inspect } : {}),
        ...(io.signal ? { signal: io.signal } : {}),
        ...(io.clock ? { clock: io.clock } : {}),
        ...(io.now ? { now: io.now } : {}),
        ...(journal ? { store: journal, resume: args.resume !== undefined } : {}),
        ...(tracing ? { telemetry: tracing.telemetry } : {}),
      });
      viewing?.live.end('the session ended');
      const width = Math.min(110, out.columns ?? 100);
      const answer = outcome.rootReplies.at(-1);
      if (answer !== undefined) {
        out.write(`\n${p.bold('The root agent answers the person:')}\n${wrap(answer.replace(/\s+/g, ' '), width - 2).map((l) => `  ${l}`).join('\n')}\n`);
      }
      out.write(`\n${formatResults(outcome.results, { color, width })}`);
      out.write(
        `\n${p.dim(
          `${outcome.results.length} results for ${outcome.spawned.length} subagents · slots in use at the end: ${outcome.slotsInUseAtEnd} · ` +
            `${outcome.modelRequests} model requests${outcome.model ? `, ${outcome.model.summaryCalls.length} summary` : ''}`,
        )}\n`,
      );
      // The scripted epilogue: a budget stop and an approval (not for a live model or a resume).
      if (!liveModel && args.resume === undefined) await runGovernanceDemo(out, color);
      await holdPages(viewing, features.find((f) => f.kind === 'inspector'), io);
      return 0;
    } catch (error) {
      viewing?.live.end(io.signal?.aborted ? 'the demo was interrupted' : 'the demo failed');
      if (io.signal?.aborted) {
        err.write('\ndemo interrupted: every agent was cancelled\n');
        return 130;
      }
      throw error;
    }
  } finally {
    // Inspectors send each event a tick after it happens: let the last ones out first.
    await new Promise<void>((done) => setImmediate(done));
    await Promise.all([...features.map((f) => f.close()), viewing?.viewer.close()]);
    await store?.close();
    await tracing?.close().catch((error: unknown) => err.write(`${p.yellow('note:')} the trace could not be sent to ${args.otlp ?? ''}: ${error instanceof Error ? error.message : String(error)}\n`));
  }
}

/**
 * Keeps the pages served after the session (a person may still be reading them, or open
 * them now) until asked: the viewer's Stop button, Enter on a terminal, or Ctrl-C.
 */
async function holdPages(viewing: LiveViewer | undefined, inspector: OptionalFeature | undefined, io: CliIo): Promise<void> {
  if (!viewing && !inspector) return;
  const asks = [
    ...(viewing ? ['the viewer\'s Stop button'] : []),
    ...(io.untilEnter ? ['Enter'] : []),
    'Ctrl-C',
  ];
  const pages = [...(viewing ? [`the viewer (${viewing.viewer.url})`] : []), ...(inspector ? ['the inspector'] : [])].join(' and ');
  io.err.write(`\nThe session is over; ${pages} ${viewing && inspector ? 'stay' : 'stays'} served until ${asks.join(', ').replace(/, ([^,]*)$/, ' or $1')}.\n`);
  const signal = io.signal;
  let onAbort = (): void => {};
  const aborted = new Promise<void>((resolve) => (onAbort = resolve));
  if (signal?.aborted) onAbort();
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    await Promise.race([aborted, ...(viewing ? [viewing.viewer.stopRequested] : []), ...(io.untilEnter ? [io.untilEnter()] : [])]);
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
}
