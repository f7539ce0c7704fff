/**
 * A runtime process sharing one Postgres database with another, for the multi-node test.
 * `hold URL SCHEMA AFTER kill|stop`: creates the session, runs the scripted session and, once
 * AFTER records are stored, SIGKILLs or SIGSTOPs itself. Continued after a stop, it finds its
 * lease taken: its appends are refused, the runtime halts, and it prints `{"halted": code}`.
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
    append(record);
    if (++appended === after) {
      void store.flush().then(() => {
        say({ paused: Date.now() });
        process.kill(process.pid, how === 'stop' ? 'SIGSTOP' : 'SIGKILL');
      });
    }
  };
  store.onFailure((error) => {
    say({ halted: error.code });
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
