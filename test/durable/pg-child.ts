/**
 * A runtime process sharing one Postgres database with another, for the multi-node test.
 * `hold URL SCHEMA AFTER kill|stop`: creates the session, runs the scripted session and, once
 * AFTER records are stored, SIGKILLs itself (`kill`), or SIGSTOPs itself before its AFTERth
 * record (`stop`). Continued after another node took the session over, it finds its lease
 * taken: its appends are refused, the runtime halts, and it prints `{"halted": code}`.
 * `take URL SCHEMA`: waits for the session's lease, prints `{"acquired": ms}`, resumes the
 * session, runs it to the end and prints `{"done": true}`.
 */
import { createPostgresStore, openPostgresStore } from '../../src/store/postgres.js';
import { runScenario } from './scenario.js';

const [mode, url, schema, afterArg, how] = process.argv.slice(2);
// Long enough that a loaded machine's event-loop delays never cost the holder its lease.
const base = { connectionString: url!, schema: schema!, sessionId: 'crash', leaseMs: 2500 };
const say = (value: unknown): boolean => process.stdout.write(`${JSON.stringify(value)}\n`);

if (mode === 'hold') {
  const store = await createPostgresStore({ ...base, node: 'holder' });
  say({ holding: Date.now() });
  const after = Number(afterArg);
  let appended = 1;
  const append = store.append.bind(store);
  store.append = (record) => {
    if (how === 'stop' && ++appended === after) {
      // Stopped right here, with this record not yet written: continued after another node
      // took the lease over, the process writes it with its old fencing token.
      say({ paused: Date.now() });
      process.kill(process.pid, 'SIGSTOP');
      say({ continued: Date.now() });
      append(record);
      return;
    }
    append(record);
    if (how !== 'stop' && ++appended === after) {
      void store.flush().then(() => {
        say({ paused: Date.now() });
        process.kill(process.pid, 'SIGKILL');
      });
    }
  };
  store.onFailure((error) => {
    // Whatever this node tries to write now is refused as well.
    let refused: string | undefined;
    try {
      store.append({ type: 'probe' });
    } catch (e) {
      refused = (e as { code?: string }).code;
    }
    say({ halted: error.code, refused });
    process.exit(0);
  });
  await runScenario(store, 'fresh');
  await store.close();
  say({ done: true });
} else {
  const store = await openPostgresStore({ ...base, node: 'taker', wait: true, pollMs: 50 });
  say({ acquired: Date.now() });
  await runScenario(store, 'resume');
  await store.close();
  say({ done: true });
}
