/**
 * The registry: which paths are held, by whom, in which phase, and how many slots are used.
 *
 * Reservation checks and takes a path and a capacity slot in one synchronous step, so two
 * parents racing for the last slot cannot both win: JavaScript runs the step to completion.
 * The directory is the published subset: only `running` agents are addressable.
 */
import type { AnyActorRef } from 'xstate';
import type { AgentResult, Delivery, Lifetime } from '../../machines/agent.types.js';
import type { FirstReportValue } from './types.js';
import { checkLimits, type Limits } from '../policy/limits.js';
import type { ModelRequest } from '../request/types.js';
import type { WireRequest } from '../request/wire-prefix.js';
import type { PermissionMode } from '../policy/permission-mode.js';
import type { PermissionLayer } from '../policy/tool-permissions.js';
import { RuntimeError } from './errors.js';
import { childPath, depthOf } from './paths.js';
import { ChildIds } from '../../machines/subagent-ids.js';

/** How many released paths keep a tombstone (for "closed" rather than "unknown" errors). */
export const MAX_TOMBSTONES = 10_000;

/** Where an agent is in its life, as the registry sees it. */
export type Phase = 'reserved' | 'published';

/** One held path. */
export interface AgentRecord {
  readonly path: string;
  readonly parentPath: string | null;
  readonly depth: number;
  readonly role: string | undefined;
  readonly contextLabel: string;
  readonly delivery: Delivery;
  readonly lifetime: Lifetime;
  readonly task: string | null;
  phase: Phase;
  actor: AnyActorRef | undefined;
  /**
   * The XState actor id: the path for the root, a recycled `subagent:<n>` for subagents
   * (their path is the actor's `systemId`; see machines/subagent-ids.ts for why).
   */
  readonly actorId: string;
  /**
   * The paths of its live subagents: {@link NO_CHILDREN} (shared) while it has none, so a leaf
   * holds no set of its own. Only the registry adds and removes them.
   */
  children: ReadonlySet<string>;
  /** The actor ids this agent hands its live children. */
  readonly childIds: ChildIds;
  /**
   * Settles a caller-delivery spawn's `firstReport` (its result, or the first turn of a
   * continuable agent); rejected with the store's error when the session halts.
   */
  onFirstReport: { readonly resolve: (report: FirstReportValue) => void; readonly reject: (error: Error) => void } | undefined;
  /** Set once the result has been delivered; guards exactly-once. */
  delivered: boolean;
  /** The result as completed when the agent took it, until it is delivered. */
  completed?: AgentResult | undefined;
  /** Ask the next model request to compact first. */
  compactRequested: boolean;
  /**
   * The tool lists governing this agent's calls: its parent's, then its role's, the host's
   * spawn policy's and its permission mode's. Set once at spawn; empty for the root.
   */
  permissions: readonly PermissionLayer[];
  /** The role's permission mode, when it sets one (hosts' per-call approval may read it). */
  permissionMode: PermissionMode | undefined;
  readonly reservedAt: number;
  /** What the host granted this agent at its spawn (its host tools see it). */
  grants?: AgentGrants;
  /** The agent's latest model request (what its subagents' inherited prefix is measured against). */
  lastRequest?: ModelRequest | undefined;
  /**
   * The provider's body of the agent's latest answered request, in cache order, when the
   * adapter reported it (what its subagents' prefix is measured against on the wire).
   */
  lastWire?: WireRequest | undefined;
  /** The body of its first answered request (`null`: answered, but the adapter reported no body). */
  firstWire?: WireRequest | null;
  /** Its parent's {@link lastWire} when it was spawned. */
  parentWire?: WireRequest | undefined;
}

/** Access the host granted an agent at its spawn, beyond its tools. */
export interface AgentGrants {
  /** Directories outside the workspace the agent's tools may use. */
  readonly externalDirectories: readonly string[];
  /** Whether the agent loads the project's extensions. */
  readonly inheritsExtensions: boolean;
}


/** How a path that is no longer held ended (the path is its key). */
export interface Tombstone {
  readonly status: AgentResult['status'];
  readonly stopReason: AgentResult['stopReason'];
}

/** The children of every agent without live subagents: empty, and refusing additions. */
export const NO_CHILDREN: ReadonlySet<string> = (() => {
  const none = new Set<string>();
  none.add = () => {
    throw new Error('internal error: NO_CHILDREN is shared; give the record a set of its own first');
  };
  return Object.freeze(none);
})();

/** One frozen tombstone per way of ending, shared by every path that ended that way. */
const TOMBSTONES = new Map<string, Tombstone>();

/** The shared tombstone for `status` and `stopReason`. */
export function tombstoneOf(status: Tombstone['status'], stopReason: Tombstone['stopReason']): Tombstone {
  const key = `${status} ${stopReason}`;
  let tombstone = TOMBSTONES.get(key);
  if (tombstone === undefined) TOMBSTONES.set(key, (tombstone = Object.freeze({ status, stopReason })));
  return tombstone;
}

/** What a reservation needs. */
export interface ReservationRequest {
  readonly parentPath: string;
  readonly name: string;
  readonly role: string | undefined;
  readonly contextLabel: string;
  readonly delivery: Delivery;
  readonly lifetime: Lifetime;
  readonly task: string;
  readonly now: number;
}

/** Paths, slots and the directory of one runtime. */
export class Registry {
  private readonly records = new Map<string, AgentRecord>();
  private readonly tombstones = new Map<string, Tombstone>();
  private slotsUsed = 0;

  constructor(readonly limits: Limits) {}

  /** Registers the root (it takes no slot). */
  addRoot(path: string, now: number): AgentRecord {
    const record = this.makeRecord({ path, parentPath: null, role: undefined, contextLabel: 'none', delivery: 'caller', lifetime: 'continuable', task: null, now, actorId: path });
    record.phase = 'published';
    this.records.set(path, record);
    return record;
  }

  /** Runs the checks of {@link reserve} without holding anything (before asynchronous steps). */
  precheck(parentPath: string, name: string): void {
    this.check(parentPath, name);
  }

  /**
   * Checks the name and limits, then holds the path and a slot: all or nothing.
   * Throws a {@link RuntimeError} and holds nothing when any check fails.
   */
  reserve(request: ReservationRequest): AgentRecord {
    const { parent, path } = this.check(request.parentPath, request.name);
    // Fields by name, not `...request`: the spread was most of this method's time in a wide fan-out.
    const record = this.makeRecord({
      path,
      parentPath: request.parentPath,
      role: request.role,
      contextLabel: request.contextLabel,
      delivery: request.delivery,
      lifetime: request.lifetime,
      task: request.task,
      now: request.now,
      actorId: parent.childIds.take(),
    });
    this.records.set(path, record);
    (parent.children === NO_CHILDREN ? (parent.children = new Set()) : (parent.children as Set<string>)).add(path);
    this.slotsUsed++;
    this.tombstones.delete(path);
    return record;
  }

  /** Refuses a name a live or starting sibling holds (the first step of a spawn). */
  checkName(parentPath: string, name: string): void {
    const path = childPath(parentPath, name);
    const held = this.records.get(path);
    if (held) {
      throw new RuntimeError(
        'name_taken',
        `task_name "${name}" is already used by a ${held.phase === 'reserved' ? 'starting' : 'live'} subagent (${path}); choose another name`,
      );
    }
  }

  private check(parentPath: string, name: string): { parent: AgentRecord; path: string } {
    const parent = this.records.get(parentPath);
    if (!parent) throw new RuntimeError('parent_not_running', `agent ${parentPath} is not running, so it cannot start subagents`);
    this.checkName(parentPath, name);
    const path = childPath(parentPath, name);
    const check = checkLimits({ depth: depthOf(path), liveChildren: parent.children.size, liveTotal: this.slotsUsed }, this.limits);
    if (!check.ok) throw new RuntimeError(check.error.code, `cannot start ${path}: ${check.error.reason}`);
    return { parent, path };
  }

  /** Makes a reserved path addressable. */
  publish(path: string): void {
    const record = this.records.get(path);
    if (record) record.phase = 'published';
  }

  /** Frees the path and its slot, leaving a tombstone for clear errors. Idempotent. */
  release(path: string, ended: Tombstone): boolean {
    const tombstone = tombstoneOf(ended.status, ended.stopReason);
    const record = this.records.get(path);
    if (!record) return false;
    this.records.delete(path);
    if (record.parentPath !== null) this.detach(record);
    this.tombstones.set(path, tombstone);
    // Keep the most recent ones only: they exist for clear errors, not as a history.
    if (this.tombstones.size > MAX_TOMBSTONES) this.tombstones.delete(this.tombstones.keys().next().value!);
    return true;
  }

  /**
   * Undoes a reservation whose agent never started: frees the path and slot without a
   * tombstone (nothing ran, so nothing ended). Idempotent.
   */
  unreserve(path: string): void {
    const record = this.records.get(path);
    if (!record || record.parentPath === null) return;
    this.records.delete(path);
    this.detach(record);
  }

  /** Frees a released subagent's slot, its place among its parent's children and its actor id. */
  private detach(record: AgentRecord): void {
    const parent = record.parentPath === null ? undefined : this.records.get(record.parentPath);
    if (parent && parent.children !== NO_CHILDREN) {
      (parent.children as Set<string>).delete(record.path);
      if (parent.children.size === 0) parent.children = NO_CHILDREN;
    }
    parent?.childIds.give(record.actorId);
    this.slotsUsed--;
  }

  /** The record of a held path. */
  get(path: string): AgentRecord | undefined {
    return this.records.get(path);
  }

  /** How a released path ended, if it did. */
  tombstone(path: string): Tombstone | undefined {
    return this.tombstones.get(path);
  }

  /** Released paths remembered (at most {@link MAX_TOMBSTONES}). */
  get tombstoneCount(): number {
    return this.tombstones.size;
  }

  /** Slots in use (live subagents, reserved or published). */
  get slotsInUse(): number {
    return this.slotsUsed;
  }

  /** Number of held paths, the root included. */
  get size(): number {
    return this.records.size;
  }

  /** Every held record, in reservation order. */
  all(): IterableIterator<AgentRecord> {
    return this.records.values();
  }

  /** The subtree under `path` (itself included), children before parents. */
  subtreePostOrder(path: string): AgentRecord[] {
    const out: AgentRecord[] = [];
    const visit = (p: string): void => {
      const record = this.records.get(p);
      if (!record) return;
      for (const child of [...record.children]) visit(child);
      out.push(record);
    };
    visit(path);
    return out;
  }

  private makeRecord(input: {
    path: string;
    parentPath: string | null;
    role: string | undefined;
    contextLabel: string;
    delivery: Delivery;
    lifetime: Lifetime;
    task: string | null;
    now: number;
    actorId: string;
  }): AgentRecord {
    return {
      path: input.path,
      parentPath: input.parentPath,
      depth: depthOf(input.path),
      role: input.role,
      contextLabel: input.contextLabel,
      delivery: input.delivery,
      lifetime: input.lifetime,
      task: input.task,
      phase: 'reserved',
      actor: undefined,
      actorId: input.actorId,
      children: NO_CHILDREN,
      childIds: new ChildIds(),
      onFirstReport: undefined,
      delivered: false,
      compactRequested: false,
      permissions: [],
      permissionMode: undefined,
      reservedAt: input.now,
    };
  }
}
