/**
 * The crash campaign's child process: `fresh DIR KILL_AT LOOKUPS` runs the scripted session on
 * a new journal in DIR and kills itself with SIGKILL right after journal record KILL_AT is
 * written (0: never). The parent resumes what is left.
 */
import { createJsonlStore } from '../../src/store/jsonl.js';
import { runScenario } from './scenario.js';

const [dir, killAtArg, lookupsArg] = process.argv.slice(2);
const killAt = Number(killAtArg ?? 0);
const store = createJsonlStore({ dir: dir!, sessionId: 'crash', fsync: 'never' });
let written = 1;
// The header is written when the store is created.
if (killAt === 1) process.kill(process.pid, 'SIGKILL');
if (killAt > 1) {
  const append = store.append.bind(store);
  store.append = (record) => {
    append(record);
    if (++written === killAt) {
      store.writePending();
      process.kill(process.pid, 'SIGKILL');
    }
  };
}
await runScenario(store, 'fresh', Number(lookupsArg ?? 1));
await store.close();
