/**
 * Short, recycled XState actor ids for subagents.
 *
 * XState names the event a finished child sends its parent after the child's id
 * (`xstate.done.actor.<id>`), and every state node caches its transition candidates per
 * event type for the life of the process. With the path as the id, every distinct path
 * would leave cache keys behind forever. So a subagent's actor id is `subagent:<n>`, the
 * smallest number free among its parent's live children, and its path is its `systemId`
 * (inspectors and `system.get(path)` name it by path).
 */

/** The actor id prefix of subagents (the root's actor id is its path). */
export const SUBAGENT_ID_PREFIX = 'subagent:';

/** Whether an XState actor id is a recycled subagent id. */
export function isSubagentActorId(id: string): boolean {
  return id.startsWith(SUBAGENT_ID_PREFIX);
}

/**
 * The ids a parent hands its live children. A new number is made only when none is free, so
 * the numbers ever used never exceed the parent's largest number of children alive at once.
 */
export class ChildIds {
  /** Numbers given back, made at the first one: most agents never have a child. */
  private free: number[] | undefined;
  private next = 0;

  /** Takes a free id (the last one given back), or a new one. */
  take(): string {
    return `${SUBAGENT_ID_PREFIX}${this.free?.pop() ?? this.next++}`;
  }

  /** Gives an id back once its child has been released (the registry does this once per child). */
  give(id: string): void {
    const digits = isSubagentActorId(id) ? id.slice(SUBAGENT_ID_PREFIX.length) : '';
    // Digits only: `Number('')` is 0, so a bare prefix would free id 0 a second time.
    if (!/^\d+$/.test(digits)) return;
    const n = Number(digits);
    if (n < this.next) (this.free ??= []).push(n);
  }

  /** Ids handed out and not given back. */
  get inUse(): number {
    return this.next - (this.free?.length ?? 0);
  }

  /** Distinct ids ever handed out: the bound on distinct done-event types this parent causes. */
  get distinct(): number {
    return this.next;
  }
}
