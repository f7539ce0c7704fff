/**
 * A runtime that dies holding a journal's lock: `DIR` creates session `s` in DIR, prints
 * `ready` once its lock is taken, and SIGKILLs itself.
 */
import { createJsonlStore } from '../../src/store/jsonl.js';

createJsonlStore({ dir: process.argv[2]!, sessionId: 's', fsync: 'never' });
process.stdout.write('ready\n', () => process.kill(process.pid, 'SIGKILL'));
