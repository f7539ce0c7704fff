/**
 * `subagent-actors view <journal or trace>`: replays a session journal (`--journal`) or a
 * `--record` trace in the local viewer, served on 127.0.0.1 until the page's Stop button or
 * Ctrl-C: the page stays served while anyone may still open it.
 */
import { parseArgs } from 'node:util';
import { ViewerError } from './errors.js';
import { ViewerFeed } from './feed.js';
import { readFeed } from './read-feed.js';
import { serveViewer, type ServedViewer } from './server.js';

/** Where the command writes. */
export interface ViewIo {
  readonly out: { write(text: string): unknown };
  readonly err: { write(text: string): unknown };
  /** Aborting stops the server (the entry point wires it to SIGINT). */
  readonly signal?: AbortSignal;
  /** Called once the page is served (tests open it from here). */
  readonly onServing?: (viewer: ServedViewer) => void;
  /** The built page's folder (default: the package's). */
  readonly pageDir?: string;
}

/** What `subagent-actors --help` prints. */
export const VIEW_HELP = `Usage: subagent-actors view FILE [--port N]

Opens FILE in the local viewer, served on 127.0.0.1 (no internet needed): a session journal
(written with --journal DIR, one FILE per session) or an inspection trace (--record FILE).
It shows the agent tree, each agent's statechart with its state highlighted, its transcript,
messages, result, usage and prefix sharing, and a timeline to scrub through the session.
A trace holds states only, no transcripts.

The server runs until the page's Stop button or Ctrl-C.

Options:
  --port N   Listen on port N (default: a free one).
  --help     Show this help.`;

/** Runs `subagent-actors` with `argv` (after the program name); resolves with the exit code. */
export async function runViewCommand(argv: readonly string[], io: ViewIo): Promise<number> {
  let file: string;
  let port = 0;
  try {
    const { values, positionals } = parseArgs({ args: [...argv], options: { help: { type: 'boolean', short: 'h' }, port: { type: 'string' } }, allowPositionals: true, strict: true });
    if (values.help === true) {
      io.out.write(`${VIEW_HELP}\n`);
      return 0;
    }
    const [command, target, ...rest] = positionals;
    if (command !== 'view') throw new Error(command === undefined ? 'name a command: view' : `unknown command ${JSON.stringify(command)}: the command is view`);
    if (target === undefined || rest.length > 0) throw new Error('view takes one FILE: a session journal or a --record trace');
    file = target;
    if (values.port !== undefined) {
      port = Number(values.port);
      if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port takes a port number 0-65535 (got ${JSON.stringify(values.port)})`);
    }
  } catch (error) {
    io.err.write(`${error instanceof Error ? error.message : String(error)}\n\n${VIEW_HELP}\n`);
    return 2;
  }
  let viewer: ServedViewer;
  let count: number;
  let kind: string;
  try {
    const feed = readFeed(file);
    count = feed.events.length;
    kind = feed.kind;
    viewer = await serveViewer({ feed: new ViewerFeed(feed.events), title: `subagent-actors viewer · ${file}`, port, ...(io.pageDir !== undefined ? { pageDir: io.pageDir } : {}) });
  } catch (error) {
    io.err.write(`${error instanceof ViewerError ? error.message : String(error)}\n`);
    return 1;
  }
  io.out.write(`subagent-actors viewer: open ${viewer.url} (the ${kind} ${file}, ${count} events)\nThe page's Stop button or Ctrl-C stops it.\n`);
  io.onServing?.(viewer);
  const signal = io.signal;
  let onAbort = (): void => {};
  const aborted = new Promise<void>((resolve) => (onAbort = resolve));
  if (signal?.aborted) onAbort();
  signal?.addEventListener('abort', onAbort, { once: true });
  await Promise.race([viewer.stopRequested, aborted]);
  signal?.removeEventListener('abort', onAbort);
  await viewer.close();
  io.out.write('viewer stopped\n');
  return 0;
}
