/**
 * Every agent's own session id, the same under both hosts (`createRuntime` and
 * `delegatingAgent`). Ids are the tree's id and a count, hashed: two identical sessions (same
 * tree id, same spawns in the same order) give their agents the same ids, so the metadata a
 * parent model reads costs the same bytes in both and a provider's prompt cache serves the
 * second from the first. The root takes count 0, its subagents 1, 2, ... in spawn order.
 */
// crypto.hash: one call, no Hash object (the id is issued once per agent, on every spawn).
import { hash } from 'node:crypto';

/**
 * The session id of the tree's `count`-th agent (the root is 0): `agent_` and twelve
 * characters of the hash of the tree id and the count.
 *
 * @example
 * ```ts
 * agentSessionId('session_1', 1); // the first subagent's id, the same in every host
 * ```
 */
export function agentSessionId(treeId: string, count: number): string {
  const digest = hash('sha256', `${treeId}\u0000${count}`, 'base64url');
  return `agent_${digest.slice(0, 12)}`;
}

/** Issues agent session ids for one tree, in spawn order. */
export class AgentSessionIds {
  private next: number;

  /**
   * `issued` is how many ids the tree already used: a resumed session passes the number of
   * agents its journal spawned (a journal spawns each path once), so no id is issued twice
   * and a spawn the crash cut short gets, when run again, the id it would have had; a
   * `delegatingAgent` tree passes 1, its root's id being the harness's.
   */
  constructor(
    private readonly treeId: string,
    issued = 0,
  ) {
    this.next = issued;
  }

  /** A new id: {@link agentSessionId} of the tree id and the next count. */
  issue(): string {
    return agentSessionId(this.treeId, this.next++);
  }
}
