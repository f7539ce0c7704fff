/**
 * Finds the statecharts of a project: every `*.machine.ts` (or `.js`) module in a folder and
 * the state machines it exports. Diagrams and coverage checks use it, so a new machine file
 * is picked up without being registered anywhere.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { StateMachine, type AnyStateMachine } from 'xstate';

/** One machine found in a module. */
export interface MachineModule {
  /** `agent.machine` for the only machine of `agent.machine.ts`; `file:export` when a file has several. */
  readonly name: string;
  /** The module's file name (`agent.machine.ts`). */
  readonly file: string;
  /** The export's name. */
  readonly exportName: string;
  readonly machine: AnyStateMachine;
}

const MACHINE_FILE = /^(.+\.machine)\.(ts|js|mts|mjs)$/;

/** Whether `value` is an XState state machine. */
export function isStateMachine(value: unknown): value is AnyStateMachine {
  return value instanceof StateMachine;
}

/** Loads every machine exported by the `*.machine.*` modules of `dir`, sorted by file name. */
export async function loadMachines(dir: string): Promise<MachineModule[]> {
  const files = (await readdir(dir)).filter((f) => MACHINE_FILE.test(f) && !f.endsWith('.d.ts')).sort();
  const out: MachineModule[] = [];
  for (const file of files) {
    const base = MACHINE_FILE.exec(file)![1]!;
    const exports = (await import(pathToFileURL(join(dir, file)).href)) as Record<string, unknown>;
    const machines = Object.entries(exports).filter((entry): entry is [string, AnyStateMachine] => isStateMachine(entry[1]));
    for (const [exportName, machine] of machines) {
      out.push({ name: machines.length === 1 ? base : `${base}:${exportName}`, file, exportName, machine });
    }
  }
  return out;
}
