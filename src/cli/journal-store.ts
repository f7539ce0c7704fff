/**
 * The demo's `--journal DIR` and `--resume DIR` stores, with errors that say what to type next:
 * a folder that already holds the demo's journal points to `--resume`, and a folder with no
 * journal to resume points to `--journal` (the demo cannot name a session, so a message asking
 * for one would leave the user stuck).
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createJsonlStore, openJsonlStore, StoreError, type SessionStore } from '../index.js';

const SUFFIX = '.jsonl';

/** Opens the store the flags ask for (none without either flag); throws an Error worded for the CLI. */
export function demoStore(flags: { readonly journal: string | undefined; readonly resume: string | undefined }, sessionId: string): SessionStore | undefined {
  if (flags.resume !== undefined) return resumeStore(flags.resume, sessionId);
  if (flags.journal === undefined) return undefined;
  try {
    return createJsonlStore({ dir: flags.journal, sessionId });
  } catch (error) {
    if (error instanceof StoreError && error.code === 'session_exists') {
      throw new Error(
        `${flags.journal} already holds this demo's journal (${join(flags.journal, sessionId + SUFFIX)}): resume it with --resume ${flags.journal}, or journal to an empty folder`,
        { cause: error },
      );
    }
    throw error;
  }
}

function resumeStore(dir: string, sessionId: string): SessionStore {
  const isDir = existsSync(dir) && statSync(dir).isDirectory();
  const journals = isDir ? readdirSync(dir).filter((name) => name.endsWith(SUFFIX)) : [];
  // The demo's own journal, when the folder holds it beside others.
  if (journals.includes(sessionId + SUFFIX)) return openJsonlStore({ dir, sessionId });
  if (journals.length === 1) return openJsonlStore({ dir });
  if (journals.length === 0) {
    throw new Error(
      `${dir} holds no journal to resume${isDir ? '' : ' (no such folder)'}: run the demo with --journal ${dir} first; after a crash or Ctrl-C, --resume ${dir} picks it up`,
    );
  }
  throw new Error(`${dir} holds ${journals.length} journals (${journals.join(', ')}) and none is this demo's (${sessionId + SUFFIX}): --resume needs a folder with one journal`);
}
