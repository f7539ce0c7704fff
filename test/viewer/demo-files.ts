/**
 * The demo's session written down, for the viewer's tests: its journal and its trace, from
 * one run at zero latency in a scratch folder.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runDemoSession } from '../../src/cli/session.js';
import { createJsonlStore } from '../../src/index.js';
import { createRecorder } from '../../src/inspect/recorder.js';
import { manualClock } from '../../src/testing/index.js';

/** Where one demo run left its files. */
export interface DemoFiles {
  readonly dir: string;
  readonly journal: string;
  readonly trace: string;
}

/** Runs the demo once with `--journal` and `--record` into a new scratch folder. */
export async function writeDemoFiles(): Promise<DemoFiles> {
  const dir = mkdtempSync(join(tmpdir(), 'viewer-demo-'));
  const trace = join(dir, 'trace.jsonl');
  const recorder = createRecorder(trace);
  const store = createJsonlStore({ dir, sessionId: 'demo-release-2.0' });
  try {
    await runDemoSession({ out: { write: () => true }, tty: false, latencyScale: 0, clock: manualClock(), store, inspect: recorder.inspect });
  } finally {
    await store.close();
    await recorder.close();
  }
  return { dir, journal: join(dir, 'demo-release-2.0.jsonl'), trace };
}
