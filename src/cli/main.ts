/**
 * The demo's command: flags, optional inspection, the live session, the results report.
 */
import { HELP, parseDemoArgs, type DemoArgs } from './args.js';
import { formatResults, palette, wrap, type TextSink } from './format.js';
import { combineObservers, loadInspector, loadRecorder, type OptionalFeature } from './optional.js';
import { runDemoSession } from './session.js';
import { loadLiveModel, parseLiveSpec, type Importer } from './live.js';
import { createJsonlStore, openJsonlStore, type ModelAdapter, type SessionStore } from '../index.js';

/** Where the command writes, and the Ctrl-C it listens to. */
export interface CliIo {
  readonly out: TextSink;
  readonly err: TextSink;
  /** Aborts the session (the entry point wires it to SIGINT). */
  readonly signal?: AbortSignal;
  /**
   * With `--inspect`, keeps the inspector served after the session until this resolves
   * (the entry point waits for Enter on a terminal). Default: close at once.
   */
  readonly holdInspector?: (note: string) => Promise<void>;
  /** Imports `--live` provider packages (tests inject one; default dynamic import). */
  readonly importer?: Importer;
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
  const wanted = [...(args.inspect ? [loadInspector()] : []), ...(args.record !== undefined ? [loadRecorder(args.record)] : [])];
  for (const loaded of await Promise.all(wanted)) {
    if ('unavailable' in loaded) err.write(`${p.yellow('note:')} ${loaded.unavailable}\n`);
    else {
      features.push(loaded);
      err.write(`${p.cyan('note:')} ${loaded.note}\n`);
    }
  }
  const inspect = combineObservers(features.map((f) => f.inspect));
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

  let store: SessionStore | undefined;
  try {
    store = args.resume !== undefined ? openJsonlStore({ dir: args.resume }) : args.journal !== undefined ? createJsonlStore({ dir: args.journal, sessionId: 'demo-release-2.0' }) : undefined;
  } catch (error) {
    err.write(`${error instanceof Error ? error.message : String(error)}\n`);
    return 2;
  }
  if (store) err.write(`${p.cyan('note:')} ${args.resume !== undefined ? 'resuming the session journaled in' : 'journaling the session to'} ${store.location}\n`);

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
      ...(store ? { store, resume: args.resume !== undefined } : {}),
    });
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
    const inspector = features.find((f) => f.kind === 'inspector');
    if (inspector && io.holdInspector) await io.holdInspector(inspector.note);
    return 0;
  } catch (error) {
    if (io.signal?.aborted) {
      err.write('\ndemo interrupted: every agent was cancelled\n');
      return 130;
    }
    throw error;
  } finally {
    // Inspectors send each event a tick after it happens: let the last ones out first.
    await new Promise<void>((done) => setImmediate(done));
    await Promise.all(features.map((f) => f.close()));
    await store?.close();
  }
}
