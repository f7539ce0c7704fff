/**
 * `npm run mutate:config`: applies each configuration mutant of mutants.json to a copy of the
 * agent machine's configuration and runs the targeted tests (vitest.config-mutants.ts) against
 * it, expecting them to fail. Prints each mutant's fate, the mutants skipped because their
 * target is gone from the machine, and `config.mutation_score <percent>` (killed over applied).
 * Exits non-zero below the floor (95%) or when the unmutated run fails.
 *
 *   node --import tsx scripts/config-mutants/run.ts [mutant id ...]
 *
 * A run that exceeds the time limit counts as killed (a test left waiting is a detection).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { agentMachine } from '../../machines/agent.machine.js';
import { applyMutant, MissingTarget, type ConfigMutant } from './apply.js';

const FLOOR = 95;
const LIMIT_MS = Number(process.env['CONFIG_MUTANT_TIMEOUT_MS'] ?? 600_000);
const mutants = JSON.parse(readFileSync(new URL('./mutants.json', import.meta.url), 'utf8')) as ConfigMutant[];
const wanted = process.argv.slice(2);
/** Terminal colour codes, stripped before reading vitest's output. */
const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');

/** Runs the targeted tests under `mutant` (none: the machine as it is); true when they pass. */
function suitePasses(mutant: string | undefined): { passes: boolean; ms: number; timedOut: boolean; failed: string } {
  const started = Date.now();
  const run = spawnSync(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', '--config', 'vitest.config-mutants.ts', '--bail=1', '--reporter=dot'], {
    env: { ...process.env, CONFIG_MUTANT: mutant ?? '' },
    encoding: 'utf8',
    timeout: LIMIT_MS,
    maxBuffer: 64 * 1024 * 1024,
  });
  const out = `${run.stdout ?? ''}${run.stderr ?? ''}`;
  const failed = /FAIL\s+(\S+)/.exec(out.replace(ANSI, ''))?.[1] ?? '';
  return { passes: run.status === 0, ms: Date.now() - started, timedOut: run.error !== undefined, failed };
}

const baseline = suitePasses(undefined);
if (!baseline.passes) {
  console.error(`the targeted tests fail without a mutant (${baseline.failed || 'see vitest.config-mutants.ts'}); fix them first`);
  process.exit(2);
}
console.log(`baseline: the targeted tests pass (${Math.round(baseline.ms / 1000)} s)`);

const skipped: string[] = [];
const survived: string[] = [];
let applied = 0;
let killed = 0;
for (const mutant of mutants) {
  if (wanted.length > 0 && !wanted.includes(mutant.id)) continue;
  try {
    applyMutant(agentMachine.config, mutant);
  } catch (error) {
    if (!(error instanceof MissingTarget)) throw error;
    skipped.push(`${mutant.id}: ${error.message}`);
    console.log(`skipped   ${mutant.id}: its target is gone (${error.message})`);
    continue;
  }
  applied++;
  const run = suitePasses(mutant.id);
  const seconds = Math.round(run.ms / 1000);
  if (run.passes) {
    survived.push(mutant.id);
    console.log(`SURVIVED  ${mutant.id} (${seconds} s): ${mutant.note ?? mutant.kind}`);
  } else {
    killed++;
    console.log(`killed    ${mutant.id} (${seconds} s${run.timedOut ? ', timed out' : `, by ${run.failed || 'a failing test'}`})`);
  }
}

const score = applied === 0 ? 0 : Math.round((killed / applied) * 1000) / 10;
console.log(`\n${killed} of ${applied} applied mutants killed; ${skipped.length} skipped; survivors: ${survived.join(', ') || 'none'}`);
console.log(`config.mutation_score ${score}`);
if (wanted.length === 0 && score < FLOOR) process.exit(1);
