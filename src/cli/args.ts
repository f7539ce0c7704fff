/**
 * The demo's command-line flags.
 */
import { parseArgs } from 'node:util';

/** Parsed flags. */
export interface DemoArgs {
  readonly help: boolean;
  readonly color: boolean;
  readonly inspect: boolean;
  /** Serve the local viewer (127.0.0.1, no internet) while the session runs. */
  readonly view: boolean;
  readonly record: string | undefined;
  /** Multiplies the scripted latencies (default 1; 0 runs the story instantly). */
  readonly speed: number;
  /** `provider:model` to run the session against a real model instead of the script. */
  readonly live: string | undefined;
  /** Journal the session to this directory (a JSON Lines file per session). */
  readonly journal: string | undefined;
  /** Resume the session journaled in this directory. */
  readonly resume: string | undefined;
  /** Send the session's trace to this OTLP/HTTP endpoint. */
  readonly otlp: string | undefined;
}

/** What `--help` prints. */
export const HELP = `Usage: npm run demo -- [options]

A scripted session of subagent-actors: a root agent prepares a 2.0 release by delegating
to subagents with every context value (none, all, 2 turns, summary), follows up with one
through send_message, closes it, and cancels a subtree. Deterministic; no network, no API key.

Options:
  --help           Show this help and exit.
  --no-color       Plain text (also when NO_COLOR is set or stdout is not a terminal).
  --view           Serve the local viewer on 127.0.0.1 while the demo runs (no internet
                   needed): the agent tree live, each agent's statechart, transcript,
                   messages, results, usage and prefix sharing. Served until its Stop
                   button, Enter or Ctrl-C.
  --inspect        Serve the agent tree to the hosted Stately inspector (needs internet and
                   the @statelyai/inspect package; the page says so when it cannot load).
                   Served until Enter or Ctrl-C.
  --record FILE    Record the sanitized inspection trace to FILE as JSON Lines.
  --latency N      Multiply every scripted latency by N (default 1; 0 = instant).
  --journal DIR    Journal the session to DIR (one JSON Lines file per session), so a crash
                   loses nothing: resume it with --resume DIR.
  --resume DIR     Resume the session journaled in DIR: settled subagents come back as
                   results, live ones where they were; the remaining prompts are played.
  --otlp URL       Send the session's OpenTelemetry trace to URL over OTLP/HTTP, e.g.
                   --otlp http://127.0.0.1:4318/v1/traces (a collector or Jaeger): one
                   trace for the agent tree, each subagent under the Agent call that
                   spawned it (see docs/telemetry.md).
  --live P:MODEL   Run the same session against a real model through the AI SDK, e.g.
                   --live anthropic:claude-sonnet-4-5 (needs npm i @ai-sdk/anthropic and
                   ANTHROPIC_API_KEY). The model, not the script, decides what to delegate.

On a terminal the tree is redrawn in place; piped (npm run demo | cat) it prints one line
per state change.`;

/** Parses argv (without the node and script entries). Throws a readable Error on bad flags. */
export function parseDemoArgs(argv: readonly string[]): DemoArgs {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      help: { type: 'boolean', short: 'h', default: false },
      'no-color': { type: 'boolean', default: false },
      inspect: { type: 'boolean', default: false },
      view: { type: 'boolean', default: false },
      record: { type: 'string' },
      latency: { type: 'string' },
      live: { type: 'string' },
      journal: { type: 'string' },
      resume: { type: 'string' },
      otlp: { type: 'string' },
    },
    strict: true,
    allowPositionals: false,
  });
  const speed = values.latency === undefined ? 1 : Number(values.latency);
  if (!Number.isFinite(speed) || speed < 0) throw new Error(`--latency takes a number >= 0 (got ${JSON.stringify(values.latency)})`);
  if (values.record !== undefined && values.record.trim() === '') throw new Error('--record takes a file name');
  for (const flag of ['journal', 'resume'] as const) {
    if (values[flag] !== undefined && values[flag].trim() === '') throw new Error(`--${flag} takes a directory`);
  }
  if (values.otlp !== undefined && !/^https?:\/\/\S+$/.test(values.otlp)) throw new Error(`--otlp takes an http(s) URL such as http://127.0.0.1:4318/v1/traces (got ${JSON.stringify(values.otlp)})`);
  if (values.journal !== undefined && values.resume !== undefined) throw new Error('--journal and --resume exclude each other (a resumed session keeps its journal)');
  return {
    help: values.help === true,
    color: values['no-color'] !== true,
    inspect: values.inspect === true,
    view: values.view === true,
    record: values.record,
    speed,
    live: values.live,
    journal: values.journal,
    resume: values.resume,
    otlp: values.otlp,
  };
}
