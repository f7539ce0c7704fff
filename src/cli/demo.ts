/**
 * `npm run demo` (`tsx src/cli/demo.ts`): a scripted subagent-actors session with a live
 * agent tree, then every subagent's result with its metadata. Deterministic, offline, no
 * API key. See `--help`.
 */
import { createInterface } from 'node:readline';
import { runCli } from './main.js';

const interrupt = new AbortController();
const onSigint = (): void => interrupt.abort(new Error('interrupted'));
process.once('SIGINT', onSigint);

/** On a terminal, resolves when the person presses Enter (the pages are served until then). */
function untilEnter(): Promise<void> {
  const lines = createInterface({ input: process.stdin });
  return new Promise<void>((done) => {
    const finish = (): void => {
      lines.close();
      interrupt.signal.removeEventListener('abort', finish);
      done();
    };
    lines.once('line', finish);
    interrupt.signal.addEventListener('abort', finish, { once: true });
  });
}

try {
  process.exitCode = await runCli(process.argv.slice(2), {
    out: process.stdout,
    err: process.stderr,
    signal: interrupt.signal,
    ...(process.stdin.isTTY === true ? { untilEnter } : {}),
  });
} catch (error) {
  process.stderr.write(`demo failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
} finally {
  process.removeListener('SIGINT', onSigint);
  // Ctrl-C after the session ends the wait for Enter; stdin must not keep the process.
  process.stdin.unref?.();
}
