/**
 * The at-most-once test's child process: `DIR EFFECTS` runs a session whose root calls the
 * non-idempotent host tool `charge`; the tool writes its effect to EFFECTS and the process
 * kills itself with SIGKILL inside it, before the call can return.
 */
import { appendFileSync } from 'node:fs';
import { createRuntime, createJsonlStore } from '../../src/index.js';
import { chargeTool, effectModel } from './effect-session.js';

const [dir, effects] = process.argv.slice(2);
const store = createJsonlStore({ dir: dir!, sessionId: 'once' });
const runtime = createRuntime({
  model: effectModel(),
  store,
  tools: [
    chargeTool((amount) => {
      appendFileSync(effects!, `charged ${amount}\n`);
      process.kill(process.pid, 'SIGKILL');
    }),
  ],
});
await runtime.prompt('Charge the card 5.');
