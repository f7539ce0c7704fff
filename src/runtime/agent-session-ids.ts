/**
 * Every agent's own session id, issued by the runtime. Ids are the tree's id and a count,
 * hashed: two identical sessions (same tree id, same spawns in the same order) give their
 * agents the same ids, so the metadata a parent model reads costs the same bytes in both and
 * a provider's prompt cache serves the second from the first.
 */
import { createHash } from 'node:crypto';

/** Issues agent session ids for one tree. */
export class AgentSessionIds {
  private next: number;

  /**
   * `issued` is how many ids the tree already used: a resumed session passes the number of
   * agents its journal spawned (a journal spawns each path once), so no id is issued twice
   * and a spawn the crash cut short gets, when run again, the id it would have had.
   */
  constructor(
    private readonly treeId: string,
    issued = 0,
  ) {
    this.next = issued;
  }

  /** A new id: `agent_` and twelve characters of the hash of the tree id and the count. */
  issue(): string {
    const digest = createHash('sha256').update(`${this.treeId}\u0000${this.next++}`).digest('base64url');
    return `agent_${digest.slice(0, 12)}`;
  }
}
