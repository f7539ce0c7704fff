/**
 * The runtime's {@link CoordinationPort}: the directory is the registry (paths, phases,
 * tombstones), effects go through the agents' actors, or to the host for a root whose loop
 * the host runs. The coordination tools themselves are machines/coordination.ts.
 */
import type { CoordinationPort, DirectoryEntry } from '../../machines/coordination.js';
import type { RuntimeCore } from './core.js';
import type { AgentRecord } from './registry.js';
import { ROOT_PATH } from './paths.js';

/** The port of one runtime. */
export function runtimeCoordinationPort(core: RuntimeCore): CoordinationPort {
  const entryOf = (record: AgentRecord): DirectoryEntry => ({
    path: record.path,
    role: record.role,
    state: core.directory.stateOf(record.path) ?? 'reserved',
    context: record.contextLabel,
    lastTask: record.task,
    addressable: record.phase === 'published' && record.actor !== undefined,
  });
  function* walk(path: string): Generator<DirectoryEntry> {
    const record = core.registry.get(path);
    if (!record) return;
    yield entryOf(record);
    for (const child of record.children) yield* walk(child);
  }
  return {
    get messaging() {
      return core.config.messaging;
    },
    halted: () => (core.lifecycle.failure ? { code: 'session_halted', message: `the session stopped taking work: ${core.lifecycle.failure.message}` } : undefined),
    entry: (path) => {
      const record = core.registry.get(path);
      return record ? entryOf(record) : undefined;
    },
    ended: (path) => {
      if (core.registry.get(path)) return undefined;
      return core.registry.tombstone(path);
    },
    agents: () => walk(ROOT_PATH),
    deliver: (from, to, message) => core.router.deliverMessage(from, to, message),
    cancel: (path, reason, call) => core.lifecycle.cancel(path, reason, call).stopped,
    close: (path) => core.registry.get(path)?.actor?.send({ type: 'close' }),
  };
}
